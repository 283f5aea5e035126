import { describe, expect, it } from "vitest";
import { operationList } from "./operations";
import { operationRoutes } from "./operation-routes";

describe("the browser's route table (generated from the operation table)", () => {
  it("is current: same operations, methods, paths, resources and invalidations", () => {
    const expected = Object.fromEntries(
      operationList.filter((op) => op.browser).map((op) => [op.name, { method: op.method, path: op.path, resource: op.resource, invalidates: op.invalidates ?? [] }]),
    );
    // If this fails: npx tsx scripts/generate-operation-routes.ts
    expect(operationRoutes).toEqual(expected);
  });
});
