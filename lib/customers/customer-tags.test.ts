import { describe, expect, it } from "vitest";
import { tagNameProblem, tagsOf, withTagAdded, withTagRemoved } from "./customer-tags";

describe("customer tags (§4.5 getCustomerTags answer)", () => {
  const answer = { "9007199254740993": "vip, new ,", "5": "x" };
  it("reads the comma-separated names of one customer", () => {
    expect(tagsOf(answer, "9007199254740993")).toEqual(["vip", "new"]);
    expect(tagsOf(answer, "6")).toEqual([]);
    expect(tagsOf({ "6": null }, "6")).toEqual([]);
    expect(tagsOf(undefined, "6")).toEqual([]);
  });
  it("adds and removes one name without touching other customers (the optimistic update)", () => {
    const added = withTagAdded(answer, "9007199254740993", "gold");
    expect(tagsOf(added, "9007199254740993")).toEqual(["vip", "new", "gold"]);
    expect(added["5"]).toBe("x");
    expect(tagsOf(withTagAdded(answer, "9007199254740993", "vip"), "9007199254740993")).toEqual(["vip", "new"]);
    expect(tagsOf(withTagRemoved(answer, "9007199254740993", "vip"), "9007199254740993")).toEqual(["new"]);
    expect(tagsOf(withTagAdded(undefined, "7", "a"), "7")).toEqual(["a"]);
  });
  it("checks a new name: required, at most 32 (§8), no comma, not twice", () => {
    expect(tagNameProblem("  ", [])).toBe("required");
    expect(tagNameProblem("t".repeat(32), [])).toBeUndefined();
    expect(tagNameProblem("t".repeat(33), [])).toBe("tooLong");
    expect(tagNameProblem("a,b", [])).toBe("comma");
    expect(tagNameProblem("vip", ["vip"])).toBe("duplicate");
  });
});
