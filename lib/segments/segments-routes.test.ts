import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { APP, fakePlatformForRoutes, SAME_ORIGIN } from "@/lib/proxy/testing/proxy-deps";
import { openSqliteTestStore, type TestStore } from "@/lib/store/testing";
import { signedIn } from "@/lib/platform/testing/fake-session";
import { upsertCustomers } from "@/lib/search/index-store";
import { ensureTenant } from "@/lib/search/tenant-state";
import type { PlatformCall } from "@/lib/platform/installation-call";
import { handleSegmentCount, handleSegmentCreate, handleSegmentGet, handleSegmentsList, handleSegmentSync, type SegmentRouteDeps } from "./segments-routes";

const platform = fakePlatformForRoutes("at_segmentsroutetokensegmentsroute", { retry: { baseDelayMs: 1, maxDelayMs: 2 }, timeoutMs: 2_000 });

let t: TestStore;
beforeEach(async () => {
  t = await openSqliteTestStore();
});
afterEach(() => t.cleanup());

const calls: string[] = [];
const call = (async (name: string) => {
  calls.push(name);
  throw new Error(`no platform in this test (${name})`);
}) as unknown as PlatformCall;

const started: unknown[] = [];
const tasks = {
  async start(_key: unknown, kind: string, input: unknown) {
    started.push({ kind, input });
    return { task: { id: "task-1" } as never, started: true };
  },
  async list() {
    return [];
  },
};

function depsFor(tenantId = "1"): SegmentRouteDeps {
  const { deps } = platform.makeDeps({ requireSession: signedIn({ openAppId: "alpha-app", tenantId, userId: "7", userName: "Ada" } as never) });
  return { ...deps, store: async () => t.store, callerFor: () => call, tasks: () => tasks, now: () => Date.UTC(2026, 5, 15) };
}
const post = (path: string, body: unknown) => new Request(`${APP}${path}`, { method: "POST", headers: SAME_ORIGIN, body: JSON.stringify(body) });
const get = (path: string) => new Request(`${APP}${path}`, { headers: { "x-engage-request": "1" } });

async function indexed(tenantId = "1") {
  const { tenant } = await ensureTenant(t.store, { openAppId: "alpha-app", tenantId });
  await upsertCustomers(t.store, tenant, [
    { id: "11", name: "A", stage: "lead" },
    { id: "12", name: "B", stage: "lead" },
    { id: "13", name: "C", stage: "customer" },
  ]);
}

describe("/api/segments", () => {
  it("counts a definition over the session tenant's index", async () => {
    await indexed();
    const res = await handleSegmentCount(post("/api/segments/count", { definition: { match: "all", conditions: [{ field: "stage", op: "is", values: ["lead"] }] } }), depsFor());
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ count: 2, indexed: 3 });
  });

  it.each([
    ["an unknown field", { field: "shoeSize", op: "gte", value: 1 }, "definition.conditions.0.field"],
    ["a malformed number", { field: "orderCount", op: "gte", value: "two" }, "definition.conditions.0.value"],
    ["a day out of range", { field: "dateCreated", op: "after", from: "2200-01-01" }, "definition.conditions.0.from"],
    ["a day that does not exist", { field: "dateCreated", op: "on", from: "2026-02-30" }, "definition.conditions.0.from"],
  ])("refuses %s with 422 naming the field, and saves nothing", async (_what, condition, field) => {
    const res = await handleSegmentCreate(post("/api/segments", { name: "Bad", definition: { match: "all", conditions: [condition] } }), depsFor());
    expect(res.status).toBe(422);
    const answer = (await res.json()) as { error: { code: string; fieldErrors: Array<{ field: string }> } };
    expect(answer.error.code).toBe("invalid_input");
    expect(answer.error.fieldErrors.map((e) => e.field)).toContain(field);
    const list = (await (await handleSegmentsList(get("/api/segments"), depsFor())).json()) as { segments: unknown[] };
    expect(list.segments).toEqual([]);
  });

  it("a saved segment is the tenant's: another tenant neither lists nor opens it", async () => {
    const created = await handleSegmentCreate(post("/api/segments", { name: "Leads", definition: { match: "all", conditions: [] } }), depsFor());
    expect(created.status).toBe(201);
    const { segment } = (await created.json()) as { segment: { id: string; createdBy: { name: string } } };
    expect(segment.createdBy.name).toBe("Ada");
    expect(((await (await handleSegmentsList(get("/api/segments"), depsFor("2"))).json()) as { segments: unknown[] }).segments).toEqual([]);
    const other = await handleSegmentGet(get(`/api/segments/${segment.id}`), { ...depsFor("2") });
    expect(other.status).toBe(404);
  });

  it("a segment of everyone asks before a sync (409 confirm_everyone) and calls nothing", async () => {
    await indexed();
    const { segment } = (await (await handleSegmentCreate(post("/api/segments", { name: "All", definition: { match: "all", conditions: [] } }), depsFor())).json()) as { segment: { id: string } };
    calls.length = 0;
    const res = await handleSegmentSync(post(`/api/segments/${segment.id}/sync`, { newListName: "All" }), depsFor());
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("confirm_everyone");
    expect(calls).toEqual([]);
    expect(started).toEqual([]);
    // Confirmed: the sync is started as a background task.
    const confirmed = await handleSegmentSync(post(`/api/segments/${segment.id}/sync`, { newListName: "All", confirmEveryone: true }), depsFor());
    expect(confirmed.status).toBe(202);
    expect(started).toEqual([{ kind: "segments.sync", input: { segmentId: segment.id, newListName: "All", confirmEveryone: true } }]);
  });
});
