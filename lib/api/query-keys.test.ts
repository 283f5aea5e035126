import { describe, expect, it } from "vitest";
import { invalidatedKeys, platformKeys } from "./query-keys";

describe("query keys", () => {
  it("derive from operation name and input, grouped by resource; a call key starts with its resource key", () => {
    const key = platformKeys.call("customers.list", { query: { rows: 50 } });
    expect(key).toEqual(["platform", "customers", "customers.list", { query: { rows: 50 } }]);
    expect(key.slice(0, 2)).toEqual(platformKeys.resource("customers"));
  });

  it("name what a mutation makes stale", () => {
    expect(invalidatedKeys("tags.merge")).toEqual([["platform", "tags"], ["platform", "customerTags"]]);
    expect(invalidatedKeys("customers.get")).toEqual([]);
  });
});
