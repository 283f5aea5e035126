import { describe, expect, it } from "vitest";
import { handleCustomerSearch, handleSearchStatus, type SearchRouteDeps } from "./routes";
import type { SearchService } from "./service";

/**
 * The search routes' edge: the session cookie is `SameSite=None`, so a cross-site page could GET
 * them with it. Without the app's header nothing starts (no sync, no search), and text PostgreSQL
 * cannot store is a 400 naming the parameter, not the store's error.
 */

const APP = "http://app.test";
const started: string[] = [];
const search = {
  requestSync: async () => void started.push("sync"),
  status: async () => ({ phase: "ready" }),
  search: async () => (started.push("search"), { hits: [], hasMore: false }),
  lookup: async () => (started.push("lookup"), []),
} as unknown as SearchService;
const deps: SearchRouteDeps = {
  requireSession: async () => ({ ok: true, session: { openAppId: "alpha-app", tenantId: "1" } }),
  log: { info() {}, warn() {}, error() {} },
  search: () => search,
};
const get = (path: string, headers: Record<string, string> = { "x-engage-request": "1" }) => new Request(`${APP}${path}`, { headers });

describe("search routes at the edge", () => {
  it("a cross-site GET of /api/search/status (no app header) is 403 and starts no sync", async () => {
    started.length = 0;
    for (const headers of [{}, { "sec-fetch-site": "cross-site" }, { "x-engage-request": "1", "sec-fetch-site": "cross-site" }] as Array<Record<string, string>>) {
      expect((await handleSearchStatus(get("/api/search/status", headers), deps)).status, JSON.stringify(headers)).toBe(403);
      expect((await handleCustomerSearch(get("/api/search/customers?q=ab", headers), deps)).status, JSON.stringify(headers)).toBe(403);
    }
    expect(started).toEqual([]);
    expect((await handleSearchStatus(get("/api/search/status"), deps)).status).toBe(200);
    expect(started).toEqual(["sync"]);
  });

  it("a query holding NUL is a 400 naming it, never the store's 503", async () => {
    started.length = 0;
    const res = await handleCustomerSearch(get("/api/search/customers?q=%00ab"), deps);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: "invalid_text", fieldErrors: [{ field: "q" }] });
    expect(started).toEqual([]);
  });
});


const asked: unknown[] = [];
const inputDeps: SearchRouteDeps = {
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
const searchFor = (query: string) => handleCustomerSearch(get(`/api/search/customers${query}`), inputDeps);

describe("GET /api/search/customers: input by the table's schema", () => {
  it("hands the index the parsed filters (flags and numbers typed; openAppId is not a filter)", async () => {
    expect((await searchFor("?q=li&hasMobile=true&gender=2&limit=5&openAppId=alpha-app")).status).toBe(200);
    expect(asked.at(-1)).toEqual({ q: "li", hasMobile: true, gender: 2, limit: 5, offset: 0 });
  });

  it("refuses a bad or repeated parameter with the wrapper's 422 invalid_input naming it, and asks the index nothing", async () => {
    const before = asked.length;
    for (const [query, field] of [["?limit=500", "query.limit"], ["?q=a&q=b", "query.q"], ["?gender=9", "query.gender"], ["?nope=1", "query"]] as const) {
      const res = await searchFor(query);
      expect(res.status, query).toBe(422);
      const { error } = (await res.json()) as { error: { code: string; fieldErrors: { field: string }[] } };
      expect(error.code).toBe("invalid_input");
      expect(error.fieldErrors.map((e) => e.field), query).toContain(field);
    }
    expect(asked.length).toBe(before);
  });
});
