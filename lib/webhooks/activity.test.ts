import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { beginSignIn, issueSessionToken, requireApiSession, type ConsoleSession } from "@/lib/auth/session";
import { setStoreForTests } from "@/lib/store";
import { resetEnvForTests } from "@/lib/env";
import { openSqliteTestStore, type TestStore } from "@/lib/store/testing";
import { recordDelivery, type InboxDelivery } from "@/lib/store/webhook-inbox";
import { activityHref, BURST_MIN, groupBursts, staleQueryKeys } from "./activity";
import { handleActivityRequest } from "./activity-endpoint";

describe("activityHref", () => {
  it("links customers, orders and lists to their console page and keeps openAppId", () => {
    expect(activityHref({ resource: "customer", resourceId: "9007199254740993123", action: "updated" }, "oa-alpha")).toBe("/customers/9007199254740993123?openAppId=oa-alpha");
    expect(activityHref({ resource: "order", resourceId: "SO 1/2", action: "cancelled" }, "oa a")).toBe("/orders/SO%201%2F2?openAppId=oa+a");
    expect(activityHref({ resource: "list", resourceId: "7", action: "created" }, "oa")).toBe("/lists/7?openAppId=oa");
  });

  it("gives no link for what no longer exists or has no page", () => {
    expect(activityHref({ resource: "customer", resourceId: "1", action: "deleted" }, "oa")).toBeUndefined();
    expect(activityHref({ resource: "customer", resourceId: "1", action: "merged" }, "oa")).toBeUndefined();
    expect(activityHref({ resource: "tag", resourceId: "1", action: "created" }, "oa")).toBeUndefined();
    expect(activityHref({ resource: "customer", action: "updated" }, "oa")).toBeUndefined();
    expect(activityHref({}, "oa")).toBeUndefined();
  });
});

describe("groupBursts", () => {
  const entry = (id: number, kind: string, receivedAt: number) => ({ id: String(id), kind, receivedAt, verification: "secret" as const });
  it("folds a run of one event kind (an import) into one row and keeps other changes in view", () => {
    const imported = Array.from({ length: 313 }, (_, i) => entry(400 - i, "event.created", 100_000 - i * 100));
    const rows = groupBursts([entry(500, "customer.updated", 200_000), ...imported, entry(50, "order.created", 10_000)]);
    expect(rows.map((r) => r.kind)).toEqual(["one", "burst", "one"]);
    expect(rows[1]).toMatchObject({ kind: "burst", event: "event.created" });
    expect(rows[1]!.kind === "burst" && rows[1]!.entries).toHaveLength(313);
  });
  it("leaves short runs and runs with a long pause as single rows", () => {
    const short = Array.from({ length: BURST_MIN - 1 }, (_, i) => entry(10 - i, "tag.created", 1000 - i));
    expect(groupBursts(short).every((r) => r.kind === "one")).toBe(true);
    const spread = Array.from({ length: 12 }, (_, i) => entry(20 - i, "tag.created", 1_000_000 - i * 120_000));
    expect(groupBursts(spread).every((r) => r.kind === "one")).toBe(true);
  });
});

describe("staleQueryKeys", () => {
  it("maps each change to the console's resource query keys, once each", () => {
    expect(staleQueryKeys([{ resource: "order" }, { resource: "refund" }])).toEqual([["platform", "deals"]]);
    expect(staleQueryKeys([{ resource: "tag" }])).toEqual([["platform", "customerTags"], ["platform", "tags"]]);
    expect(staleQueryKeys([])).toEqual([]);
  });

  it("invalidates everything for a change it does not know", () => {
    expect(staleQueryKeys([{ resource: "customer" }, { resource: "something-new" }])).toEqual([["platform"]]);
    expect(staleQueryKeys([{}])).toEqual([["platform"]]);
  });
});

describe("GET /api/activity", () => {
  let t: TestStore;
  const session: ConsoleSession = { openAppId: "oa-alpha", tenantId: "1001", userId: "9", userName: "Admin", expiresAt: Date.now() + 3600_000 };
  let saved: string | undefined;

  beforeAll(() => {
    saved = process.env.SESSION_PASSWORD;
    process.env.SESSION_PASSWORD = randomBytes(32).toString("base64url");
    resetEnvForTests();
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.SESSION_PASSWORD;
    else process.env.SESSION_PASSWORD = saved;
    resetEnvForTests();
  });
  beforeEach(async () => {
    t = await openSqliteTestStore();
  });
  afterEach(async () => {
    setStoreForTests(undefined);
    await t.cleanup();
  });

  const delivery = (n: number, overrides: Partial<InboxDelivery> = {}): InboxDelivery => ({
    openAppId: "oa-alpha",
    tenantId: "1001",
    dedupeKey: `id:${n}`,
    deliveryId: String(n),
    kind: "customer.updated",
    resource: "customer",
    resourceId: String(n),
    action: "updated",
    verification: "secret",
    payload: "{}",
    ...overrides,
  });

  async function call(query: string, auth?: ConsoleSession) {
    const headers: Record<string, string> = { "x-engage-request": "1" };
    if (auth) {
      setStoreForTests(t.store);
      headers.authorization = `Bearer ${(await issueSessionToken(await beginSignIn(auth))).token}`;
    }
    return handleActivityRequest(new Request(`http://localhost:3000/api/activity${query}`, { headers }), { store: async () => t.store, requireSession: requireApiSession });
  }

  it("asks for sign-in without a session (401 reauth_required)", async () => {
    const res = await call("?after=0");
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("reauth_required");
  });

  it("returns the session tenant's changes after the cursor with the keys to invalidate; other tenants stay hidden", async () => {
    const first = await recordDelivery(t.store, delivery(1));
    await recordDelivery(t.store, delivery(2, { tenantId: "2002" }));
    await recordDelivery(t.store, delivery(3, { openAppId: "oa-beta" }));
    const second = await recordDelivery(t.store, delivery(4, { kind: "order.created", resource: "order", action: "created" }));

    const start = await call("", session);
    expect(await start.json()).toEqual({ entries: [], cursor: second.id, staleQueryKeys: [] });

    const res = await call(`?after=${first.id}`, session);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(body.entries.map((e: { deliveryId: string }) => e.deliveryId)).toEqual(["4"]);
    expect(body.cursor).toBe(second.id);
    expect(body.staleQueryKeys).toEqual([["platform", "deals"]]);
    const all = await (await call("?after=0", session)).json();
    expect(all.entries.map((e: { deliveryId: string }) => e.deliveryId)).toEqual(["1", "4"]);
  });

  it("refuses a malformed cursor or limit with the wrapper's 422 invalid_input naming the parameter", async () => {
    for (const query of ["?after=-1", "?after=abc", "?after=1e3", "?after=0&limit=0", "?after=0&limit=201", "?limit=x", "?after=1&after=2"]) {
      const res = await call(query, session);
      expect(res.status, query).toBe(422);
      const { error } = (await res.json()) as { error: { code: string; fieldErrors: { field: string }[] } };
      expect(error.code).toBe("invalid_input");
      expect(error.fieldErrors[0]?.field, query).toMatch(/^query\.(after|limit)$/);
    }
  });
});
