import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox } from "@/lib/platform/testing/sandbox";
import { sandboxApiCalls, sandboxToken } from "@/lib/platform/testing/sandbox-control";
import { sandboxProxyDeps } from "@/lib/proxy/testing/sandbox-deps";
import { openSqliteTestStore } from "@/lib/store/testing";
import { CALL_BUDGET } from "./compute-dashboard";
import { createDashboardCache } from "./dashboard-cache";
import { EMPTY_STAGE, type DashboardAnswer, type DashboardData } from "./dashboard-data";
import { homeDayOf } from "./home-days";
import { handleDashboardRequest, type DashboardDeps } from "./server-dashboard";

/**
 * The overview against a seeded Platform Sandbox through `GET/POST /api/dashboard`: every figure
 * equals what the platform's API says, worked out here independently by reading every customer,
 * event and order of the tenant (a few thousand) and grouping them in UTC+8.
 */

const APP = "http://app.test";
const CUSTOMERS = 2000;
const { sandbox, control } = await startTestSandbox();
const testStore = await openSqliteTestStore();
afterAll(() => Promise.all([sandbox.close(), testStore.cleanup()]));
const alpha = sandbox.urls.alpha!;

let token = "";
const api = async <T>(path: string): Promise<T> => {
  const res = await fetch(`${alpha}/v1/${path}${path.includes("?") ? "&" : "?"}access_token=${token}`);
  expect(res.status).toBe(200);
  // Ids beyond 2^53 lose precision here; only counts and text are compared.
  return (await res.json()) as T;
};
const apiCalls = () => sandboxApiCalls(control);

const cache = createDashboardCache<DashboardData>();
const deps = (c = cache): DashboardDeps => ({ ...sandboxProxyDeps(sandbox.urls.alpha!, () => token), dashboard: { cache: c, store: async () => testStore.store } });
const request = (method: "GET" | "POST", c = cache) =>
  handleDashboardRequest(
    new Request(`${APP}/api/dashboard`, { method, headers: method === "POST" ? { "x-engage-request": "1", origin: APP } : { "x-engage-request": "1" } }),
    deps(c) as never,
  );

let data: DashboardData;
let callsCold = 0;

beforeAll(async () => {
  await control("/reset", {});
  await control("/seed", { customers: CUSTOMERS });
  token = await sandboxToken(control);
  const before = await apiCalls();
  const res = await request("GET");
  expect(res.status).toBe(200);
  const answer = (await res.json()) as DashboardAnswer;
  expect(answer.cached).toBe(false);
  data = answer.data;
  callsCold = (await apiCalls()) - before;
}, 60_000);

type Row = { id: string; stage: string | null; source: string | null; gender: number | null; dateCreated: string };
async function allCustomers(): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page++) {
    const got = await api<{ rows: Row[] }>(`customers?rows=1000&page=${page}&select=id,stage,source,gender,dateCreated`);
    rows.push(...got.rows);
    if (got.rows.length < 1000) return rows;
  }
}

describe("the overview equals the API (seeded sandbox)", () => {
  it("the total equals customers/count and the calls stay within the budget", async () => {
    const count = await api<unknown>("customers/count");
    expect(data.customers.total).toEqual({ ok: true, value: Number(count) });
    expect(Number(count)).toBeGreaterThanOrEqual(CUSTOMERS);
    expect(data.calls).toBe(callsCold);
    expect(callsCold).toBeLessThanOrEqual(CALL_BUDGET);
  });

  it("new customers per UTC+8 day, by stage, source and gender equal a full read of the customers", async () => {
    const rows = await allCustomers();
    const perDay = new Map<string, number>();
    for (const r of rows) perDay.set(homeDayOf(Date.parse(r.dateCreated)), (perDay.get(homeDayOf(Date.parse(r.dateCreated))) ?? 0) + 1);
    if (!data.customers.newPerDay.ok) throw new Error("newPerDay unavailable");
    for (const d of data.customers.newPerDay.days) expect({ day: d.day, count: d.count }).toEqual({ day: d.day, count: perDay.get(d.day) ?? 0 });

    const tally = (key: (r: Row) => string) => rows.reduce((m, r) => m.set(key(r), (m.get(key(r)) ?? 0) + 1), new Map<string, number>());
    const stages = tally((r) => r.stage || EMPTY_STAGE);
    if (!data.customers.byStage.ok) throw new Error("byStage unavailable");
    for (const b of data.customers.byStage.buckets) expect([b.key, b.count]).toEqual([b.key, stages.get(b.key) ?? 0]);
    // The seed has 5 stages: all found, nothing left over.
    expect(data.customers.byStage.buckets).toHaveLength(stages.size);
    expect(data.customers.byStage.other).toBe(0);

    const sources = tally((r) => r.source ?? "");
    if (!data.customers.bySource.ok) throw new Error("bySource unavailable");
    for (const b of data.customers.bySource.buckets) expect([b.key, b.count]).toEqual([b.key, sources.get(b.key) ?? 0]);
    expect(data.customers.bySource.other).toBe(rows.length - data.customers.bySource.buckets.reduce((s, b) => s + b.count!, 0));

    const genders = tally((r) => String(r.gender ?? 0));
    if (!data.customers.byGender.ok) throw new Error("byGender unavailable");
    for (const b of data.customers.byGender.buckets) expect([b.key, b.count]).toEqual([b.key, genders.get(b.key) ?? 0]);
  });

  it("events per UTC+8 day and type equal a full read of the last month's events", async () => {
    const counts: Record<string, Record<string, number>> = {};
    let idFrom = "";
    let read = 0;
    for (;;) {
      const text = await (await fetch(`${alpha}/v1/customerevents?max=1000&sidx=id&sord=asc${idFrom}&access_token=${token}`)).text();
      // Ids above 2^53: read them as text for the cursor.
      const ids = [...text.matchAll(/"id":(\d+)/g)].map((m) => BigInt(m[1]!));
      const rows = JSON.parse(text) as { event: string; date: string }[];
      for (const r of rows) {
        const day = homeDayOf(Date.parse(r.date));
        (counts[day] ??= {})[r.event] = (counts[day]?.[r.event] ?? 0) + 1;
      }
      read += rows.length;
      if (rows.length < 1000) break;
      idFrom = `&idFrom=${ids.at(-1)! + 1n}`;
    }
    if (!data.events.ok) throw new Error("events unavailable");
    expect(data.events.complete).toBe(true);
    expect(data.events.fetched).toBe(read);
    for (const day of data.events.days) expect([day, data.events.counts[day] ?? {}]).toEqual([day, counts[day] ?? {}]);
  });

  it("orders and amount paid per UTC+8 day equal a full read of the last month's orders", async () => {
    const perDay = new Map<string, { orders: number; cents: number }>();
    let records = 0;
    for (let page = 1; ; page++) {
      const got = await api<{ records: number; rows: { dateOrder: string; amountPaid: number; state?: string }[] }>(`deals?rows=1000&page=${page}`);
      records = got.records;
      for (const o of got.rows) {
        if (o.state === "已取消") continue;
        const day = homeDayOf(Date.parse(o.dateOrder));
        const d = perDay.get(day) ?? { orders: 0, cents: 0 };
        d.orders += 1;
        d.cents += Math.round(o.amountPaid * 100);
        perDay.set(day, d);
      }
      if (got.rows.length < 1000) break;
    }
    if (!data.orders.ok) throw new Error("orders unavailable");
    expect(data.orders.records).toBe(records);
    expect(data.orders.complete).toBe(true);
    for (const d of data.orders.days) {
      const want = perDay.get(d.day) ?? { orders: 0, cents: 0 };
      expect([d.day, d.orders, d.amountPaid]).toEqual([d.day, want.orders, (want.cents / 100).toFixed(2)]);
    }
    expect(data.orders.topProducts.length).toBeGreaterThan(0);
  });

  it("a cross-site GET (the SameSite=None cookie, no app header) is 403 before any platform call, even with nothing cached", async () => {
    const before = await apiCalls();
    const uncached = deps(createDashboardCache<DashboardData>());
    for (const headers of [{}, { "sec-fetch-site": "cross-site" }, { "x-engage-request": "1", origin: "http://evil.test" }] as Array<Record<string, string>>) {
      expect((await handleDashboardRequest(new Request(`${APP}/api/dashboard`, { headers }), uncached as never)).status, JSON.stringify(headers)).toBe(403);
    }
    expect((await apiCalls()) - before).toBe(0);
  });

  it("a second open, also on another instance, is served from the store with no platform call; refresh needs the CSRF header", async () => {
    const before = await apiCalls();
    const again = (await (await request("GET")).json()) as DashboardAnswer;
    expect(again.cached).toBe(true);
    expect(again.staleSince).toBeNull();
    expect(again.data).toEqual(data);
    // Another instance: a process cache of its own, the same store.
    const elsewhere = (await (await request("GET", createDashboardCache<DashboardData>())).json()) as DashboardAnswer;
    expect(elsewhere).toMatchObject({ cached: true, data: { asOf: data.asOf } });
    expect((await apiCalls()) - before).toBe(0);
    const refused = await handleDashboardRequest(new Request(`${APP}/api/dashboard`, { method: "POST" }), deps() as never);
    expect(refused.status).toBe(403);
    // Refresh starts the tenant's background computation and answers it, calling nothing itself.
    const starts: unknown[] = [];
    const startTask = async (...args: unknown[]) => {
      starts.push(args);
      return { task: { id: "task-1", openAppId: "x", tenantId: "y", kind: "dashboard.figures", state: "queued" }, started: true } as never;
    };
    const res = await handleDashboardRequest(new Request(`${APP}/api/dashboard`, { method: "POST", headers: { "x-engage-request": "1", origin: APP } }), { ...deps(), dashboard: { ...deps().dashboard, startTask } } as never);
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ task: { id: "task-1", kind: "dashboard.figures", state: "queued" }, started: true });
    expect(starts).toEqual([[expect.objectContaining({ tenantId: expect.any(String) }), "dashboard.figures", {}, expect.objectContaining({ userId: expect.any(String) })]]);
    expect((await apiCalls()) - before).toBe(0);
  });
});
