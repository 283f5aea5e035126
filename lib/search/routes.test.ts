import { describe, expect, it } from "vitest";
import { handleCustomerSearch, type SearchRouteDeps } from "./routes";

const APP = "http://app.test";
const asked: unknown[] = [];
const deps: SearchRouteDeps = {
  log: { info() {}, warn() {}, error() {} },
  requireSession: async () => ({ ok: true, session: { openAppId: "alpha-app", tenantId: "1" } }),
  search: () =>
    ({
      search: async (_key: unknown, query: unknown) => {
        asked.push(query);
        return { hits: [], hasMore: false, status: {} };
      },
      lookup: async (_key: unknown, ids: string[]) => ids.map((id) => ({ id })),
    }) as never,
};
const get = (query: string) => handleCustomerSearch(new Request(`${APP}/api/search/customers${query}`), deps);

describe("GET /api/search/customers: input by the table's schema", () => {
  it("hands the index the parsed filters (flags and numbers typed; openAppId is not a filter)", async () => {
    expect((await get("?q=li&hasMobile=true&gender=2&limit=5&openAppId=alpha-app")).status).toBe(200);
    expect(asked.at(-1)).toEqual({ q: "li", hasMobile: true, gender: 2, limit: 5, offset: 0 });
  });

  it("refuses a bad or repeated parameter with the wrapper's 422 invalid_input naming it, and asks the index nothing", async () => {
    const before = asked.length;
    for (const [query, field] of [["?limit=500", "query.limit"], ["?q=a&q=b", "query.q"], ["?gender=9", "query.gender"], ["?nope=1", "query"]] as const) {
      const res = await get(query);
      expect(res.status, query).toBe(422);
      const { error } = (await res.json()) as { error: { code: string; fieldErrors: { field: string }[] } };
      expect(error.code).toBe("invalid_input");
      expect(error.fieldErrors.map((e) => e.field), query).toContain(field);
    }
    expect(asked.length).toBe(before);
  });
});
