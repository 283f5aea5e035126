import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationList } from "@/lib/platform/operations";
import { startApiKit, type ApiKit } from "./testkit";

/** The resource API operations of the shared table (§4.1–§4.6, §4.8; users/current belongs to auth). */
const ROUTES = operationList
  .filter((op) => op.base === "api" && op.path !== "/v1/users/current")
  .map((op) => ({ method: op.method.toLowerCase(), path: op.path, name: op.name }));

let kit: ApiKit;
beforeAll(async () => {
  kit = await startApiKit();
});
afterAll(() => kit.close());

/** Concrete paths for the route templates: real-looking ids, junk and huge numbers. */
const pathValue = fc.constantFrom("1", "abc", "9007199254741993", "99999999999999999999", "-5", "%20", "SO000000001");
const junkJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.record({ customer: fc.jsonValue({ maxDepth: 2 }), customerIdentities: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ events: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }), commonProps: fc.jsonValue({ maxDepth: 1 }) }),
  fc.record({ orderNo: fc.jsonValue({ maxDepth: 1 }), amountPaid: fc.jsonValue({ maxDepth: 1 }), dateOrder: fc.string(), lines: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ data: fc.jsonValue({ maxDepth: 2 }), items: fc.jsonValue({ maxDepth: 2 }), tags: fc.jsonValue({ maxDepth: 2 }), shopInfoAll: fc.jsonValue({ maxDepth: 2 }) }),
);
const junkQuery = fc.dictionary(
  fc.constantFrom("rows", "page", "sidx", "sord", "stage", "gender", "idList", "idFrom", "dateCreatedFrom", "customerId", "customerIds", "listId", "sinceId", "max", "event", "select", "nullAble", "fromId", "toId", "md5type", "md5value", "orderNo"),
  fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("-1", "0", "1e3", "99999999999999999999", "true", "desc", "_empty")),
  { maxKeys: 4 },
);

describe("bad input never gives a 500", () => {
  it("random bodies and query parameters on every /v1 route answer < 500", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), pathValue, junkJson, junkQuery, async (route, value, body, query) => {
        const path = route.path.replace(/\{\w+\}/g, value);
        const res = await kit.call(route.method.toUpperCase(), path, { query, ...(route.method === "get" || route.method === "delete" ? {} : { body }) });
        expect(res.status, `${route.method} ${path} ${JSON.stringify(query)} ${JSON.stringify(body)}: ${res.text}`).toBeLessThan(500);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 400), seed: process.env.FUZZ_RUNS ? undefined : 42 },
    );
  });
});

describe("/openapi.json", () => {
  it("is an OpenAPI 3.1 document generated from the shared operation table", async () => {
    const res = await fetch(`${kit.sandbox.urls.alpha}/openapi.json`);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, { operationId: string; responses: unknown }>>; components: { securitySchemes: Record<string, unknown> } };
    expect(doc.openapi).toMatch(/^3\.1\./);
    for (const op of operationList) {
      const path = op.base === "extension" ? `/extension${op.path}` : op.path;
      expect(doc.paths[path]?.[op.method.toLowerCase()]?.operationId, op.name).toContain(op.name);
    }
    expect(doc.components.securitySchemes.accessToken).toMatchObject({ type: "apiKey", in: "query", name: "access_token" });
    const update = doc.paths["/v1/customers/{id}"]!.put as unknown as { parameters: Array<{ name: string; in: string; schema: { type: string; format?: string } }> };
    expect(update.parameters.find((p) => p.name === "id")).toMatchObject({ in: "path", schema: { type: "integer", format: "int64" } });
  });

  it("every resource operation of the shared table is served by the sandbox", async () => {
    for (const route of ROUTES) {
      const path = route.path.replace(/\{\w+\}/g, "9007199254741993");
      const res = await kit.call(route.method.toUpperCase(), path, route.method === "get" || route.method === "delete" ? {} : { body: {} });
      expect(res.text.includes("no such endpoint"), `${route.name}: ${route.method} ${path}`).toBe(false);
    }
  });
});
