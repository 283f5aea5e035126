import { describe, expect, it } from "vitest";
import { apiRoutes, operationUrl, routes, type Route } from "./routes";

describe("the route table", () => {
  it("fills in the defaults: the api base, access_token in the query, reads idempotent; the browser reaches apiRoutes only", () => {
    expect(routes["customers.get"]).toMatchObject({ name: "customers.get", base: "api", auth: "query", idempotent: true, browser: true });
    expect(routes["customers.update"]).toMatchObject({ idempotent: false, browser: true });
    expect(routes["auth.refresh"]).toMatchObject({ base: "auth", auth: "client", idempotent: false, browser: false, bodyEncoding: "form" });
    expect(routes["users.current"]).toMatchObject({ auth: "bearer", browser: true });
    // The one-time token of §5.4.1 must not be spent twice.
    expect(routes["extension.cloudinfo"]).toMatchObject({ idempotent: false, browser: false });
    for (const route of Object.values(routes) as Route[]) {
      expect(route.browser, route.name).toBe(route.name in apiRoutes);
      if (route.browser) expect(route.base, route.name).toBe("api");
    }
  });
});

describe("operationUrl (server and browser)", () => {
  it("fills path parameters under the base and leaves empty query values out", () => {
    expect(operationUrl({ path: "/v1/customers/{id}" }, { params: { id: "9007199254740993" } }, "/api/platform")).toBe("/api/platform/v1/customers/9007199254740993");
    expect(operationUrl({ path: "/v1/customers" }, { query: { stage: "_empty", email: "", mobile: undefined, idList: ["1", "2"], hasEmail: true, rows: 50 } }, "http://p.test")).toBe(
      "http://p.test/v1/customers?stage=_empty&idList=1%2C2&hasEmail=true&rows=50",
    );
  });

  it("encodes path parameters so they cannot change the path, and needs every one", () => {
    expect(operationUrl({ path: "/v1/deals/{orderNo}" }, { params: { orderNo: "../a?b" } }, "/api/platform")).toBe("/api/platform/v1/deals/..%2Fa%3Fb");
    expect(() => operationUrl({ path: "/v1/customers/{id}" }, {}, "/api/platform")).toThrow(/missing path parameter id/);
  });
});
