import type { Page, Request, Route } from "@playwright/test";
import { matchAppRoute, type AppRouteName } from "../../lib/http/app-routes";

/**
 * A stand-in for the app's proxy `/api/platform/v1/...` inside the browser (Playwright routing):
 * the console's UI behaviour (URL state, filters, sorting, paging, time zones, reauth, a11y) is
 * tested without a signed-in installation. The flows through the real sandbox live in
 * customers-sandbox.spec.ts.
 */
export type MockCustomer = Record<string, unknown> & { id: string };

export type PlatformCall = { method: string; path: string; query: URLSearchParams; headers: Record<string, string> };

const BASE = 9007199254740993n; // above 2^53, as the sandbox issues them

export function makeCustomers(n: number): MockCustomer[] {
  return Array.from({ length: n }, (_, i) => ({
    id: String(BASE + BigInt(i * 2)),
    displayName: `客户 ${i + 1}`,
    name: `客户 ${i + 1}`,
    mobile: `+86 1380000${String(i).padStart(4, "0")}`,
    email: i % 3 === 0 ? null : `c${i + 1}@example.com`,
    gender: i % 3,
    stage: i % 4 === 0 ? null : "lead",
    source: i % 2 ? "web" : "store",
    dateCreated: "2026-01-31T16:30:00Z",
    lastUpdated: "2026-02-28T23:59:59Z",
  }));
}

export async function mockPlatform(
  page: Page,
  options: {
    customers?: MockCustomer[];
    /** The installation's state in app-auth's session answer. */
    installation?: "active" | "reauth_required";
    /** Replace the answer of a call (return undefined to answer normally). */
    override?: (call: PlatformCall, route: Route) => Promise<boolean> | boolean;
  } = {},
): Promise<PlatformCall[]> {
  const customers = options.customers ?? makeCustomers(45);
  const calls: PlatformCall[] = [];
  // The app's own routes the console's pages read besides the proxy, registered and matched by the
  // app's route table (lib/http/app-routes.ts), answered as an installation with a ready search index,
  // no recorded refunds and no preferences would (without a session the real ones answer 401 and the
  // page leaves for re-authorization). A route of the table not answered here goes on to the app.
  const indexStatus = { enabled: true, phase: "ready", indexed: customers.length, total: customers.length, secondsLeft: null, lastChangeAt: null, syncedAt: null, error: null };
  const appAnswers: Partial<Record<AppRouteName, (request: Request) => unknown>> = {
    // app-auth's session of the shell (tenant, user, installation state).
    "auth.session": () => ({
      session: { openAppId: "oa-ui-test", tenantId: "9007199254740995", tenantName: "Alpha Trading", userId: "7", userName: "Admin Alpha" },
      installation: { status: options.installation ?? "active" },
    }),
    "search.status": () => indexStatus,
    "search.customers": () => ({ hits: [], hasMore: false, status: indexStatus }),
    "refunds.list": () => ({ refunds: {} }),
    // No saved views, no background tasks, no duplicates waiting (the navigation's count).
    "views.list": () => ({ views: [] }),
    "tasks.list": () => ({ tasks: [] }),
    "duplicates.counts": () => ({ clusters: 0, pairs: 0 }),
    "search.tagCounts": () => ({ counts: {} }),
    // An empty audit log (a customer's trail).
    "audit.list": () => ({ entries: [], next: null, facets: { actors: [], operations: [] } }),
    // No labels and no remembered columns; a save answers what was saved.
    "preferences.get": () => ({ attrLabels: {}, customerColumns: null }),
    "preferences.put": (request) => {
      const saved = request.postDataJSON() as { key: string; value: unknown };
      return { attrLabels: {}, customerColumns: null, [saved.key]: saved.value };
    },
  };
  const answered = (url: URL, method: string) => {
    const match = matchAppRoute(method, url.pathname);
    return match && appAnswers[match.name] ? { answer: appAnswers[match.name]! } : undefined;
  };
  await page.route(
    (url) => url.pathname.startsWith("/api/") && !url.pathname.startsWith("/api/platform/"),
    async (route) => {
      const request = route.request();
      const found = answered(new URL(request.url()), request.method());
      if (!found) return route.fallback();
      await route.fulfill({ contentType: "application/json", body: JSON.stringify(found.answer(request)) });
    },
  );
  await page.route("**/api/platform/**", async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    const call: PlatformCall = { method: request.method(), path: url.pathname.replace("/api/platform", ""), query: url.searchParams, headers: await request.allHeaders() };
    calls.push(call);
    if (options.override && (await options.override(call, route))) return;
    const json = (body: unknown, status = 200) => route.fulfill({ status, contentType: "application/json", body: JSON.stringify(body) });
    if (call.path === "/v1/users/current") return json({ id: "7", name: "Admin Alpha", email: "admin@alpha.test", tenantId: "9007199254740995", tenantName: "Alpha Trading" });
    const filtered = customers.filter((c) => {
      const q = call.query;
      if (q.get("stage") === "_empty" && c.stage) return false;
      if (q.get("stage") && q.get("stage") !== "_empty" && c.stage !== q.get("stage")) return false;
      if (q.get("source") && c.source !== q.get("source")) return false;
      if (q.get("email") && c.email !== q.get("email")) return false;
      // §4.1 id range (the console's keyset paging); ids compared as BigInt, never Number.
      if (q.get("idFrom") && BigInt(c.id) < BigInt(q.get("idFrom")!)) return false;
      if (q.get("idTo") && BigInt(c.id) > BigInt(q.get("idTo")!)) return false;
      return true;
    });
    if (call.path === "/v1/customers/count") return json(filtered.length);
    const one = /^\/v1\/customers\/(\d+)$/.exec(call.path);
    if (one) {
      const found = customers.find((c) => c.id === one[1]);
      return found ? json({ ...found, attr: { attr2: "VIP", attr1: 3 } }) : json({ error: { code: "not_found", message: "customer not found", requestId: "mock" } }, 404);
    }
    if (call.path === "/v1/customeridentities") {
      const id = call.query.get("customerIds");
      return json([{ customerId: id, identityType: "email", identityValue: "c2@example.com", identityName: null }, { customerId: id, identityType: "member-account", identityValue: "M-0002", identityName: "会员" }]);
    }
    if (call.path === "/v1/customerStatistics") {
      return json({ items: [{ customerId: call.query.get("customerId"), totalScore: 120, latest30daysScore: 15, orderTotal: 3, orderTotalAmount: 299.5, firstOrderDate: "2025-12-31T20:00:00Z", lastOrderDate: null, lastOrderDays: 12 }], meta: { records: 1, total: 1, hasNext: false } });
    }
    if (call.path === "/v1/customers") {
      const rows = Number(call.query.get("rows") ?? 20);
      const pageNo = Number(call.query.get("page") ?? 1);
      const sidx = call.query.get("sidx") ?? "id";
      const sorted = [...filtered].sort((a, b) => String(a[sidx] ?? "").localeCompare(String(b[sidx] ?? "")) || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      if (call.query.get("sord") === "desc") sorted.reverse();
      const select = call.query.get("select")?.split(",");
      const slice = sorted.slice((pageNo - 1) * rows, pageNo * rows).map((c) => (select ? Object.fromEntries(select.map((k) => [k, c[k] ?? null])) : c));
      return json({ rows: slice });
    }
    return json({ error: { code: "not_found", message: "Not mocked", requestId: "mock" } }, 404);
  });
  return calls;
}
