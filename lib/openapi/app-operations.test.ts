import { describe, expect, it } from "vitest";
import { appRoutes } from "@/lib/http/app-routes";
import { appOperationList, appOperations, operationParts } from "./app-operations";

describe("the joined table of the app's operations", () => {
  it("has every route of the list exactly once, from one feature's module", () => {
    const given = operationParts.flatMap((part) => Object.keys(part)).sort();
    expect(given).toEqual(Object.keys(appRoutes).sort());
  });

  it("keeps the list's order and each route's entry", () => {
    expect(appOperationList.map((op) => op.name)).toEqual(Object.keys(appRoutes));
    expect(appOperations["shops.get"]).toMatchObject({ name: "shops.get", method: "GET", path: "/api/shops/{id}", access: "session", csrf: "writes" });
    expect(appOperations["shops.get"].params).toBeDefined();
  });
});
