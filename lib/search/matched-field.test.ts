import { describe, expect, it } from "vitest";
import { matchedField } from "./matched-field";

const hit = (fields: Partial<Record<"name" | "displayName" | "nickName" | "email" | "mobile", string>>) => ({ name: null, displayName: null, nickName: null, email: null, mobile: null, ...fields });

describe("matchedField", () => {
  it("names the field that holds the query and where (the nickName a result matched on)", () => {
    expect(matchedField(hit({ name: "Wang Fang", nickName: "Lucky Star" }), "lucky")).toEqual({ field: "nickName", value: "Lucky Star", start: 0, end: 5 });
    expect(matchedField(hit({ name: "李娜" }), "娜")).toEqual({ field: "name", value: "李娜", start: 1, end: 2 });
    expect(matchedField(hit({ name: "Tao", email: "li.tao0@example.com" }), "TAO0@")).toEqual({ field: "email", value: "li.tao0@example.com", start: 3, end: 8 });
  });

  it("finds a mobile typed in any format among the stored mobile's digits", () => {
    const m = hit({ name: "Li", mobile: "+86 13900001111" });
    expect(matchedField(m, "139 0000")).toEqual({ field: "mobile", value: "+86 13900001111", start: 4, end: 11 });
    expect(matchedField(m, "+86 139-0000-1111")).toEqual({ field: "mobile", value: "+86 13900001111", start: 1, end: 15 });
  });

  it("full-width input matches (NFKC), the name before the same displayName", () => {
    expect(matchedField(hit({ name: "Lucy", displayName: "Lucy" }), "ＬＵＣ")).toEqual({ field: "name", value: "Lucy", start: 0, end: 3 });
  });

  it("says 'other' when no shown field holds it (an identity value, the id), nothing for an empty query", () => {
    expect(matchedField(hit({ name: "Li" }), "oWx-77abc")).toEqual({ field: "other" });
    expect(matchedField(hit({ name: "Li" }), "   ")).toBeUndefined();
  });
});
