import { describe, expect, it } from "vitest";
import { invalidatedKeys, platformKeys, type OperationName } from "@/lib/platform/operations";
import { operationRoutes, type BrowserOperationName } from "@/lib/platform/operation-routes";
import { invalidatedBy, queryKeys } from "./query-keys";

describe("console query keys", () => {
  it("equal the operation table's platformKeys for every browser operation", () => {
    for (const name of Object.keys(operationRoutes) as BrowserOperationName[]) {
      const input = { query: { rows: 20 } } as never;
      expect(queryKeys.call(name, input)).toEqual(platformKeys.call(name as OperationName, input));
      expect(queryKeys.operation(name)).toEqual(platformKeys.operation(name as OperationName));
      expect(invalidatedBy(name)).toEqual(invalidatedKeys(name as OperationName));
    }
  });

  it("a call key starts with its resource key and its operation key (prefix invalidation works)", () => {
    const key = queryKeys.call("customers.list", { query: { stage: "_empty" } });
    expect(key.slice(0, 2)).toEqual(queryKeys.resource("customers"));
    expect(key.slice(0, 3)).toEqual(queryKeys.operation("customers.list"));
  });
});
