import { describe, expect, it } from "vitest";
import { dimensionsInput, moreDimensionsMax, rowsInDimension, tagsInput, tagsUrlState } from "./tags-state";

const DEFAULT_TAGS_STATE = tagsUrlState.defaults;
const parseTagsState = tagsUrlState.parse;
const serializeTagsState = tagsUrlState.serialize;

describe("tags page state", () => {
  it("round-trips through the URL and keeps other parameters", () => {
    const state = { sort: "dimension" as const, order: "desc" as const, page: 3, rows: 50, dimension: "interests", dimensionMax: 300 };
    const url = serializeTagsState(state, new URLSearchParams("openAppId=7&lang=zh-CN&page=9&dim=x"));
    expect(url.get("openAppId")).toBe("7");
    expect(url.get("lang")).toBe("zh-CN");
    expect(url.getAll("dim")).toEqual(["interests"]);
    expect(parseTagsState(url)).toEqual(state);
  });

  it("leaves defaults out and falls back on unknown values", () => {
    expect(DEFAULT_TAGS_STATE).toEqual({ sort: "id", order: "asc", page: 1, rows: 20, dimension: "", dimensionMax: 100 });
    expect(serializeTagsState(DEFAULT_TAGS_STATE).toString()).toBe("");
    expect(parseTagsState(new URLSearchParams("sidx=drop&sord=up&page=-1&rows=7&dmax=150"))).toEqual(DEFAULT_TAGS_STATE);
    expect(parseTagsState(new URLSearchParams("dmax=2000")).dimensionMax).toBe(100);
    expect(parseTagsState(new URLSearchParams(`dim=${"k".repeat(256)}`)).dimension).toBe("");
    expect(parseTagsState(new URLSearchParams("page=1.5")).page).toBe(1);
  });

  it("asks §4.5 GET /v1/tags with rows, page, sidx, sord and never a dimension (no such server filter)", () => {
    const input = tagsInput({ ...DEFAULT_TAGS_STATE, sort: "name", order: "desc", page: 2, dimension: "basic" });
    expect(input).toEqual({ query: { rows: 20, page: 2, sidx: "name", sord: "desc" } });
    expect(JSON.stringify(input)).not.toContain("basic");
  });

  it("asks GET /v1/tagdimensions with max, and offers more only when the answer was full", () => {
    expect(dimensionsInput({ dimensionMax: 100 })).toEqual({ query: { max: 100 } });
    expect(moreDimensionsMax({ dimensionMax: 100 }, 100)).toBe(200);
    expect(moreDimensionsMax({ dimensionMax: 100 }, 99)).toBeUndefined();
    expect(moreDimensionsMax({ dimensionMax: 1000 }, 1000)).toBeUndefined();
  });

  it("filters the rows of the page by dimension, all when none is chosen", () => {
    const rows = [{ id: "1", dimension: "basic" }, { id: "2", dimension: "interests" }, { id: "3", dimension: null }];
    expect(rowsInDimension(rows, "")).toEqual(rows);
    expect(rowsInDimension(rows, "interests").map((r) => r.id)).toEqual(["2"]);
    expect(rowsInDimension(rows, "nope")).toEqual([]);
  });
});
