import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { customerListUrlState, DEFAULT_STATE, EMPTY_FILTERS } from "@/lib/customers/customer-list-state";
import { membersUrlState } from "@/lib/lists/list-members-state";
import { listsUrlState } from "@/lib/lists/lists-state";
import { md5LookupUrlState } from "@/lib/customers/md5-lookup";
import { orderListUrlState } from "@/lib/orders/order-list-state";
import { tagsUrlState } from "@/lib/tags/tags-state";
import { defineUrlState, MAX_PAGE, parseAsId, parseAsPage, parseAsPageSize, parseAsText } from "./url-params";

const SPECS = { customers: customerListUrlState, lists: listsUrlState, members: membersUrlState, tags: tagsUrlState, orders: orderListUrlState, md5: md5LookupUrlState };

describe("the shared URL parsers", () => {
  it("page: a whole number from 1 to MAX_PAGE, strictly (no '2abc', no '1.5')", () => {
    expect(parseAsPage.parse("7")).toBe(7);
    for (const bad of ["0", "-1", "1.5", "2abc", "", String(MAX_PAGE + 1)]) expect(parseAsPage.parse(bad), bad).toBeNull();
    expect(parseAsPage.defaultValue).toBe(1);
  });

  it("rows: one of the offered sizes, the first by default", () => {
    expect(parseAsPageSize().parse("50")).toBe(50);
    expect(parseAsPageSize().parse("7")).toBeNull();
    expect(parseAsPageSize().defaultValue).toBe(20);
    expect(parseAsPageSize([20, 500]).parse("500")).toBe(500);
  });

  it("ids: 64-bit (§2) decimal strings, trimmed; anything else is none", () => {
    expect(parseAsId.parse(" 9223372036854775807 ")).toBe("9223372036854775807");
    for (const bad of ["9223372036854775808", "12a", "-5", "1e3"]) expect(parseAsId.parse(bad), bad).toBeNull();
    expect(parseAsId.defaultValue).toBe("");
  });

  it("text: trimmed and cut at its length", () => {
    expect(parseAsText(3).parse("  abcdef ")).toBe("abc");
  });
});

describe("a page's URL state (defineUrlState)", () => {
  const spec = defineUrlState({ page: parseAsPage, note: parseAsText(10) }, { note: "n" });

  it("writes its own keys after the page's others, in the map's order, defaults left out", () => {
    const keep = new URLSearchParams("n=old&openAppId=oa-1&page=4&lang=zh-CN");
    expect(spec.serialize({ page: 2, note: "hi" }, keep).toString()).toBe("openAppId=oa-1&lang=zh-CN&page=2&n=hi");
    expect(spec.serialize({ page: 1, note: "" }, keep).toString()).toBe("openAppId=oa-1&lang=zh-CN");
    expect(keep.toString()).toBe("n=old&openAppId=oa-1&page=4&lang=zh-CN");
  });

  it("reads Next's searchParams object (first of repeated keys) as it reads URLSearchParams", () => {
    expect(spec.parse({ page: ["3", "9"], n: "x", other: "y" })).toEqual({ page: 3, note: "x" });
    expect(spec.parse(new URLSearchParams("page=3&page=9&n=x"))).toEqual({ page: 3, note: "x" });
  });

  it("a written state settles as the URL gives it back (what the page then shows)", () => {
    expect(spec.settle({ page: 0, note: " padded " })).toEqual({ page: 1, note: "padded" });
    const settled = customerListUrlState.settle({ ...DEFAULT_STATE, filters: { ...EMPTY_FILTERS, source: " web " }, page: 3, cursor: { dir: "after", id: "5" }, sort: "email" });
    expect(settled).toMatchObject({ filters: { source: "web" }, page: 3 });
    expect(settled.cursor).toBeUndefined(); // sorted by email: offsets, no cursor
    expect(md5LookupUrlState.settle({ md5type: "common", md5value: " ABC " }).md5value).toBe("abc");
  });

  it.each(Object.entries(SPECS))("%s: any URL reads as a state that writes and reads back the same, keeping other parameters", (_name, urlState) => {
    const keys = [...Object.keys(urlState.parsers).map((k) => (urlState.urlKeys as Record<string, string | undefined>)[k] ?? k), "openAppId", "lang"];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...keys), fc.oneof(fc.string(), fc.integer().map(String), fc.constantFrom("asc", "desc", "id", "1", "50", "_empty")))), (entries) => {
        const url = new URLSearchParams(entries);
        const state = urlState.parse(url);
        const written = urlState.serialize(state as never, url);
        expect(urlState.parse(written)).toEqual(state);
        expect(written.getAll("openAppId")).toEqual(url.getAll("openAppId"));
        expect(written.getAll("lang")).toEqual(url.getAll("lang"));
      }),
    );
  });
});
