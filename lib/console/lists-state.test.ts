import { describe, expect, it } from "vitest";
import { DEFAULT_LISTS_STATE, listNameProblem, listsInput, parseListsState, serializeListsState } from "./lists-state";

describe("lists page state", () => {
  it("round-trips through the URL and keeps other parameters", () => {
    const state = { sort: "name" as const, order: "desc" as const, page: 3, rows: 50 };
    const url = serializeListsState(state, new URLSearchParams("openAppId=7&lang=zh-CN&page=9"));
    expect(url.get("openAppId")).toBe("7");
    expect(url.get("lang")).toBe("zh-CN");
    expect(parseListsState(url)).toEqual(state);
  });
  it("leaves defaults out and falls back on unknown values", () => {
    expect(serializeListsState(DEFAULT_LISTS_STATE).toString()).toBe("");
    expect(parseListsState(new URLSearchParams("sidx=drop&sord=up&page=-1&rows=7"))).toEqual(DEFAULT_LISTS_STATE);
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
