import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { appInvalidatedKeys, appKeys, appRoute, appRouteUrl, appRoutes } from "./app-routes";

/** Every `app/api/**\/route.ts` and the methods it exports, as `METHOD /api/path/{param}`. */
function servedRoutes(): string[] {
  const root = join(process.cwd(), "app", "api");
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === "route.ts") {
        const route = `/api/${relative(root, dir).split(sep).join("/")}`.replace(/\[\.\.\.(\w+)\]/g, "{$1+}").replace(/\[(\w+)\]/g, "{$1}");
        for (const [, method] of readFileSync(path, "utf8").matchAll(/^export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE)\b/gm)) out.push(`${method} ${route}`);
      }
    }
  };
  walk(root);
  return out.sort();
}

describe("the app's route table", () => {
  it("is exactly what app/api serves: every handler has its entry and every entry its handler", () => {
    const table = Object.values(appRoutes).map((r) => `${r.method} ${r.path}`).sort();
    expect(servedRoutes()).toEqual(table);
  });

  it("fills in the defaults: CSRF on writes, JSON answers, nothing invalidated", () => {
    expect(appRoute("shops.list")).toMatchObject({ name: "shops.list", csrf: "writes", answer: "json", invalidates: [], access: "session" });
    // Starting an export is a write (CSRF-checked) whose success refreshes the tasks panel.
    expect(appRoute("customers.export")).toMatchObject({ method: "POST", csrf: "writes", invalidates: ["tasks"] });
    expect(appRoute("webhooks.receive")).toMatchObject({ access: "public", csrf: "never" });
  });

  it("builds URLs: the path filled and encoded, empty values left out, a list repeated", () => {
    expect(appRouteUrl("shops.get", { params: { id: "9007199254740993" } })).toBe("/api/shops/9007199254740993");
    expect(appRouteUrl("shops.list", { query: { q: "a b", sort: undefined, state: "" } })).toBe("/api/shops?q=a+b");
    expect(appRouteUrl("refunds.list", { query: { orderNo: ["A/1", "B"] } })).toBe("/api/orders/refunds?orderNo=A%2F1&orderNo=B");
    expect(appRouteUrl("search.customers", { query: { hasMobile: false, limit: 20 } })).toBe("/api/search/customers?limit=20");
    expect(() => appRouteUrl("shops.get", {})).toThrow(/id/);
  });

  it("keys every query with its environment, under its resource; a write names the resources it makes stale, the proxy's too", () => {
    const key = appKeys.call("shops.get", "oa-alpha", { params: { id: "1" } });
    expect(key).toEqual(["app", "stores", "oa-alpha", "shops.get", { params: { id: "1" } }]);
    expect(key.slice(0, 2)).toEqual(appKeys.resource("stores"));
    expect(appKeys.call("shops.get", "oa-beta", { params: { id: "1" } })).not.toEqual(key);
    expect(appInvalidatedKeys("shops.update")).toEqual([["app", "stores"], ["platform", "stores"], ["app", "storeGroups"], ["platform", "storeGroups"]]);
    expect(appInvalidatedKeys("refunds.create")).toContainEqual(["platform", "deals"]);
    expect(appInvalidatedKeys("shops.list")).toEqual([]);
  });
});
