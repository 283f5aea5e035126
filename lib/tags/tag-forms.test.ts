import { describe, expect, it } from "vitest";
import {
  addCustomerTagRequest,
  dimensionProblems,
  dimensionRequest,
  externalImportRequest,
  isBuiltInDimension,
  mergeProblem,
  mergeRequest,
  parseExternalTags,
  placeTagErrors,
  removeCustomerTagRequest,
  tagCreateRequest,
  tagEditProblems,
  tagProblems,
  tagUpdateRequest,
} from "./tag-forms";

describe("§2.6 built-in dimensions", () => {
  it("basic, interests and consumptive_habit are built in; others are not", () => {
    for (const key of ["basic", "interests", "consumptive_habit"]) expect(isBuiltInDimension(key)).toBe(true);
    expect(isBuiltInDimension("lifecycle")).toBe(false);
    expect(isBuiltInDimension(null)).toBe(false);
  });
});

describe("dimension form (§4.5, §8)", () => {
  it("needs a name and a key, each at most 255 characters (code points)", () => {
    expect(dimensionProblems({ name: " ", dimensionKey: "" }, [])).toEqual({ name: "required", dimensionKey: "required" });
    expect(dimensionProblems({ name: "长".repeat(256), dimensionKey: "k".repeat(256) }, [])).toEqual({ name: "tooLong", dimensionKey: "tooLong" });
    expect(dimensionProblems({ name: "长".repeat(255), dimensionKey: "😀".repeat(255) }, [])).toEqual({});
  });
  it("refuses a key already known (a built-in one included)", () => {
    expect(dimensionProblems({ name: "x", dimensionKey: "basic" }, ["basic"]).dimensionKey).toBe("taken");
  });
  it("sends name and dimensionKey, trimmed", () => {
    expect(dimensionRequest({ name: " 渠道 ", dimensionKey: " channel " })).toEqual({ body: { name: "渠道", dimensionKey: "channel" } });
  });
});

describe("tag form (§4.5, §8)", () => {
  it("name required, at most 32 characters, no comma; dimension required, at most 255", () => {
    expect(tagProblems({ name: "", dimension: "" })).toEqual({ name: "required", dimension: "required" });
    expect(tagProblems({ name: "长".repeat(33), dimension: "k".repeat(256) })).toEqual({ name: "tooLong", dimension: "tooLong" });
    expect(tagProblems({ name: "a,b", dimension: "basic" })).toEqual({ name: "comma" });
    expect(tagProblems({ name: "长".repeat(32), dimension: "basic" })).toEqual({});
  });
  it("creates with name and dimension", () => {
    expect(tagCreateRequest({ name: " VIP ", dimension: "basic" })).toEqual({ body: { name: "VIP", dimension: "basic" } });
  });
  it("PUT sends only what changed: a rename, a move, or both; nothing changed is a problem", () => {
    const tag = { id: "9007199254740993", name: "VIP", dimension: "basic" };
    expect(tagUpdateRequest(tag, { name: "VIP2", dimension: "basic" })).toEqual({ params: { id: tag.id }, body: { name: "VIP2" } });
    expect(tagUpdateRequest(tag, { name: "VIP", dimension: "interests" })).toEqual({ params: { id: tag.id }, body: { dimension: "interests" } });
    expect(tagUpdateRequest(tag, { name: "N", dimension: "interests" })).toEqual({ params: { id: tag.id }, body: { name: "N", dimension: "interests" } });
    expect(tagUpdateRequest(tag, { name: " VIP ", dimension: "basic" })).toBeUndefined();
    expect(tagEditProblems(tag, { name: "VIP", dimension: "basic" })).toEqual({ name: "unchanged" });
    expect(tagEditProblems(tag, { name: "", dimension: "basic" })).toEqual({ name: "required" });
  });
  it("puts the platform's and the proxy's field names on the form", () => {
    const placed = placeTagErrors(["name", "dimension"] as const, [
      { field: "name", message: "taken" },
      { field: "body.dimension", message: "no such" },
      { field: "other", message: "x" },
    ]);
    expect(placed.byField).toEqual({ name: "taken", dimension: "no such" });
    expect(placed.unplaced).toEqual(["other: x"]);
  });
});

describe("§4.5 merge", () => {
  it("needs two different tags", () => {
    expect(mergeProblem({ id: "1" }, { id: "1" })).toBe("same");
    expect(mergeProblem({ id: "1" }, undefined)).toBe("missing");
    expect(mergeProblem({ id: "1" }, { id: "2" })).toBeUndefined();
  });
  it("sends fromId and toId in the path, and refuses a tag into itself", () => {
    expect(mergeRequest({ id: "9007199254740993" }, { id: "2" })).toEqual({ params: { fromId: "9007199254740993", toId: "2" } });
    expect(() => mergeRequest({ id: "1" }, { id: "1" })).toThrow();
  });
});

describe("§4.5 tagging customers", () => {
  it("add sends tags as [{name}], remove as [name]; ids stay strings", () => {
    expect(addCustomerTagRequest("9223372036854775807", "VIP")).toEqual({ body: { customerId: "9223372036854775807", tags: [{ name: "VIP" }] } });
    expect(removeCustomerTagRequest("9223372036854775807", "VIP")).toEqual({ body: { customerId: "9223372036854775807", tags: ["VIP"] } });
  });
});

describe("§4.5 external tags", () => {
  it("one name per line, each at most 64 characters (§8); blanks skipped, duplicates counted", () => {
    const parsed = parseExternalTags(`高潜\r\n\n  复购  \n高潜\n${"长".repeat(64)}\n${"长".repeat(65)}`);
    expect(parsed.names).toEqual(["高潜", "复购", "长".repeat(64)]);
    expect(parsed.tooLong).toEqual(["长".repeat(65)]);
    expect(parsed.duplicates).toBe(1);
  });
  it("named tags go in `tags`; the day's folder is asked for by leaving `tags` out", () => {
    expect(externalImportRequest({ mode: "named", names: ["a"] })).toEqual({ body: { tags: ["a"] } });
    expect(externalImportRequest({ mode: "folder" })).toEqual({ body: {} });
    expect("tags" in externalImportRequest({ mode: "folder" }).body!).toBe(false);
    expect(() => externalImportRequest({ mode: "named", names: [] })).toThrow();
  });
});
