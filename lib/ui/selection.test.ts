import { describe, expect, it } from "vitest";
import { EMPTY_SELECTION, pageSelection, toggleOne, togglePage, withoutIds } from "./selection";

const page1 = [{ id: "9007199254740993", label: "Ada" }, { id: "2", label: "2" }, { id: "3", label: "Cy" }];
const page2 = [{ id: "4", label: "Dee" }, { id: "5", label: "Eve" }];

describe("the customers selection", () => {
  it("toggles one row and keeps the order of selection and the labels", () => {
    let s = toggleOne(EMPTY_SELECTION, page1[2]!);
    s = toggleOne(s, page1[0]!);
    expect([...s]).toEqual([["3", "Cy"], ["9007199254740993", "Ada"]]);
    expect([...toggleOne(s, page1[2]!).keys()]).toEqual(["9007199254740993"]);
    expect(EMPTY_SELECTION.size).toBe(0);
  });
  it("tells the header checkbox none, some (indeterminate) or all of this page", () => {
    expect(pageSelection(EMPTY_SELECTION, page1)).toBe("none");
    expect(pageSelection(toggleOne(EMPTY_SELECTION, page1[1]!), page1)).toBe("some");
    expect(pageSelection(togglePage(EMPTY_SELECTION, page1), page1)).toBe("all");
    // Rows of other pages do not count for this page.
    expect(pageSelection(togglePage(EMPTY_SELECTION, page2), page1)).toBe("none");
    expect(pageSelection(EMPTY_SELECTION, [])).toBe("none");
  });
  it("selects a whole page, then deselects it, keeping what was chosen on other pages", () => {
    const onPage2 = toggleOne(EMPTY_SELECTION, page2[0]!);
    const some = toggleOne(onPage2, page1[1]!);
    const all = togglePage(some, page1);
    expect([...all.keys()]).toEqual(["4", "2", "9007199254740993", "3"]);
    const none = togglePage(all, page1);
    expect([...none.keys()]).toEqual(["4"]);
  });
  it("drops ids (deleted customers) and keeps the same object when nothing changes", () => {
    const s = togglePage(togglePage(EMPTY_SELECTION, page1), page2);
    expect([...withoutIds(s, ["2", "5", "404"]).keys()]).toEqual(["9007199254740993", "3", "4"]);
    expect(withoutIds(s, ["404"])).toBe(s);
  });
});
