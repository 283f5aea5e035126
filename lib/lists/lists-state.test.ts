import { describe, expect, it } from "vitest";
import { listNameProblem, listsInput, listsUrlState } from "./lists-state";

describe("lists page state", () => {
  it("round-trips through the URL and keeps other parameters", () => {
    const state = { sort: "name" as const, order: "desc" as const, page: 3, rows: 50 };
    const url = listsUrlState.serialize(state, new URLSearchParams("openAppId=7&lang=zh-CN&page=9"));
    expect(url.get("openAppId")).toBe("7");
    expect(url.get("lang")).toBe("zh-CN");
    expect(listsUrlState.parse(url)).toEqual(state);
  });
  it("leaves defaults out and falls back on unknown values", () => {
    expect(listsUrlState.defaults).toEqual({ sort: "id", order: "asc", page: 1, rows: 20 });
    expect(listsUrlState.serialize(listsUrlState.defaults).toString()).toBe("");
    expect(listsUrlState.parse(new URLSearchParams("sidx=drop&sord=up&page=-1&rows=7"))).toEqual(listsUrlState.defaults);
    expect(listsUrlState.parse(new URLSearchParams("page=2abc&rows=50.0")).page).toBe(1);
  });
  it("asks §4.4 GET /v1/lists with rows, page, sidx, sord", () => {
    expect(listsInput({ sort: "dateCreated", order: "desc", page: 2, rows: 20 })).toEqual({ query: { rows: 20, page: 2, sidx: "dateCreated", sord: "desc" } });
  });
  it("checks names by §8: required, at most 255 characters (code points)", () => {
    expect(listNameProblem("  ")).toBe("required");
    expect(listNameProblem("a".repeat(255))).toBeUndefined();
    expect(listNameProblem("a".repeat(256))).toBe("tooLong");
    expect(listNameProblem("😀".repeat(255))).toBeUndefined();
  });
});
