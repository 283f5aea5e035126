import { sql } from "kysely";
import { expect, it } from "vitest";
import { describeEachDialect, warnIfPostgresSkipped } from "./testing";
import { activityFacets, activitySince, deliveryPayload, pruneWebhookInbox, recentActivity, recordDelivery, type InboxDelivery } from "./webhook-inbox";
import { issueWebhookToken, isWebhookTokenValid, WEBHOOK_TOKEN_TTL_SECONDS } from "./webhook-tokens";

warnIfPostgresSkipped("webhook inbox and webhook token battery");

const BIG_TENANT = "9007199254740993123";
const scope = { openAppId: "oa-alpha", tenantId: BIG_TENANT };

function delivery(n: number, overrides: Partial<InboxDelivery> = {}): InboxDelivery {
  return {
    ...scope,
    dedupeKey: `id:whd_${n}`,
    deliveryId: `whd_${n}`,
    kind: "customer.updated",
    resource: "customer",
    resourceId: String(9007199254740993000n + BigInt(n)),
    action: "updated",
    occurredAt: "2026-11-22T01:00:00Z",
    verification: "secret",
    payload: `{"deliveryId":"whd_${n}"}`,
    ...overrides,
  };
}

describeEachDialect("webhook inbox", (t, dialect) => {

  it("Activity: filters by event kind, resource and received time, and pages past the newest by id", async () => {
    for (let n = 1; n <= 60; n++) {
      const order = n % 3 === 0;
      await recordDelivery(t.store, delivery(n, order ? { kind: "order.created", resource: "order", action: "created" } : {}), 10_000 + n * 1000);
    }
    const first = await recentActivity(t.store, scope, 50);
    expect(first).toHaveLength(50);
    const older = await recentActivity(t.store, scope, 50, { before: first.at(-1)!.id });
    expect(older).toHaveLength(10);
    expect(new Set([...first, ...older].map((e) => e.deliveryId)).size).toBe(60);
    expect(older.every((e) => BigInt(e.id) < BigInt(first.at(-1)!.id))).toBe(true);
    const orders = await recentActivity(t.store, scope, 50, { kind: "order.created" });
    expect(orders).toHaveLength(20);
    expect(await recentActivity(t.store, scope, 50, { resource: "customer" })).toHaveLength(40);
    const window = await recentActivity(t.store, scope, 50, { from: 10_000 + 11 * 1000, to: 10_000 + 20 * 1000 });
    expect(window.map((e) => e.deliveryId)).toEqual(Array.from({ length: 10 }, (_, i) => `whd_${20 - i}`));
    expect(await recentActivity(t.store, scope, 50, { before: "not-an-id" })).toHaveLength(50);
    expect(await activityFacets(t.store, scope)).toEqual({ kinds: ["customer.updated", "order.created"], resources: ["customer", "order"] });
  });

  it("stores a delivery once: the same delivery id again is a duplicate with the first one's id", async () => {
    const first = await recordDelivery(t.store, delivery(1), 1000);
    const again = await recordDelivery(t.store, delivery(1, { payload: '{"deliveryId":"whd_1","retry":true}' }), 2000);
    expect(first.duplicate).toBe(false);
    expect(again).toEqual({ id: first.id, duplicate: true });
    const [entry] = await recentActivity(t.store, scope);
    expect(entry).toEqual({
      id: first.id,
      deliveryId: "whd_1",
      kind: "customer.updated",
      resource: "customer",
      resourceId: "9007199254740993001",
      action: "updated",
      occurredAt: "2026-11-22T01:00:00Z",
      verification: "secret",
      receivedAt: 1000,
    });
    expect(await deliveryPayload(t.store, scope, first.id)).toBe('{"deliveryId":"whd_1"}');
  });

  it("dedupes per tenant and environment: the same key elsewhere is another delivery", async () => {
    await recordDelivery(t.store, delivery(1));
    expect((await recordDelivery(t.store, delivery(1, { tenantId: "7" }))).duplicate).toBe(false);
    expect((await recordDelivery(t.store, delivery(1, { openAppId: "oa-beta" }))).duplicate).toBe(false);
    expect(await recentActivity(t.store, scope)).toHaveLength(1);
    expect(await recentActivity(t.store, { openAppId: "oa-beta", tenantId: BIG_TENANT })).toHaveLength(1);
    expect(await recentActivity(t.store, { openAppId: "oa-gamma", tenantId: BIG_TENANT })).toEqual([]);
  });

  it("lists newest first and pages forward from a cursor, oldest first", async () => {
    const ids: string[] = [];
    for (let n = 1; n <= 5; n++) ids.push((await recordDelivery(t.store, delivery(n), 1000 + n)).id);
    expect((await recentActivity(t.store, scope, 3)).map((e) => e.id)).toEqual([ids[4], ids[3], ids[2]]);
    const start = await activitySince(t.store, scope, undefined);
    expect(start).toEqual({ entries: [], cursor: ids[4] });
    const page = await activitySince(t.store, scope, ids[1], { limit: 2 });
    expect(page.entries.map((e) => e.id)).toEqual([ids[2], ids[3]]);
    expect(page.cursor).toBe(ids[3]);
    const rest = await activitySince(t.store, scope, page.cursor);
    expect(rest.entries.map((e) => e.id)).toEqual([ids[4]]);
    expect(await activitySince(t.store, scope, ids[4])).toEqual({ entries: [], cursor: ids[4] });
    expect(await activitySince(t.store, { ...scope, tenantId: "1" }, undefined)).toEqual({ entries: [], cursor: "0" });
    await expect(activitySince(t.store, scope, "1 or 1=1")).rejects.toThrow(RangeError);
  });

  it("prunes deliveries received before a time; a pruned delivery id is new again", async () => {
    await recordDelivery(t.store, delivery(1), 1000);
    await recordDelivery(t.store, delivery(2), 5000);
    expect(await pruneWebhookInbox(t.store, 5000)).toBe(1);
    expect((await recentActivity(t.store, scope)).map((e) => e.deliveryId)).toEqual(["whd_2"]);
    expect((await recordDelivery(t.store, delivery(1), 6000)).duplicate).toBe(false);
  });

  it(`shows a delivery to the cursor reader ${dialect.name === "postgres" ? "once it is 2 s old (ids may commit out of order)" : "at once (writes are ordered)"}`, async () => {
    const now = 1_800_000_000_000;
    const { id } = await recordDelivery(t.store, delivery(1), now);
    const settle = dialect.name === "postgres" ? 2000 : 0;
    if (settle > 0) {
      expect(await activitySince(t.store, scope, "0", { now: now + settle - 1 })).toEqual({ entries: [], cursor: "0" });
      expect((await activitySince(t.store, scope, undefined, { now: now + settle - 1 })).cursor).toBe("0");
    }
    expect((await activitySince(t.store, scope, "0", { now: now + settle })).entries.map((e) => e.id)).toEqual([id]);
  });

  it("500 concurrent deliveries with 10 % duplicates: each stored exactly once, none lost", async () => {
    const unique = Array.from({ length: 450 }, (_, i) => delivery(i));
    const repeats = Array.from({ length: 50 }, (_, i) => delivery(i * 9));
    const all = [...unique, ...repeats].sort(() => Math.random() - 0.5);
    const results = await Promise.all(all.map((d) => recordDelivery(t.store, d)));
    expect(results.filter((r) => !r.duplicate)).toHaveLength(450);
    expect(results.filter((r) => r.duplicate)).toHaveLength(50);
    const count = await t.store.db.selectFrom("webhook_inbox").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(450);
    const keys = await t.store.db.selectFrom("webhook_inbox").select("dedupe_key").execute();
    expect(new Set(keys.map((k) => k.dedupe_key))).toEqual(new Set(unique.map((d) => d.dedupeKey)));
    // Every caller of the same delivery got the one stored id.
    const byKey = new Map<string, Set<string>>();
    all.forEach((d, i) => byKey.set(d.dedupeKey, (byKey.get(d.dedupeKey) ?? new Set()).add(results[i]!.id)));
    expect([...byKey.values()].every((ids) => ids.size === 1)).toBe(true);
  });
});

describeEachDialect("webhook tokens (oauth2 mode)", (t) => {
  it("issues a token that is valid for its app until it expires (2 h)", async () => {
    const now = 1_800_000_000_000;
    const { accessToken, expiresIn } = await issueWebhookToken(t.store, "engage-console", now);
    expect(expiresIn).toBe(WEBHOOK_TOKEN_TTL_SECONDS);
    expect(await isWebhookTokenValid(t.store, accessToken, "engage-console", now + 1000)).toBe(true);
    expect(await isWebhookTokenValid(t.store, accessToken, "engage-console", now + 7200 * 1000 - 1)).toBe(true);
    expect(await isWebhookTokenValid(t.store, accessToken, "engage-console", now + 7200 * 1000)).toBe(false);
    expect(await isWebhookTokenValid(t.store, accessToken, "other-app", now + 1000)).toBe(false);
    expect(await isWebhookTokenValid(t.store, `${accessToken.slice(0, -1)}${accessToken.endsWith("A") ? "B" : "A"}`, "engage-console", now)).toBe(false);
    expect(await isWebhookTokenValid(t.store, "", "engage-console", now)).toBe(false);
  });

  it("stores only a hash of each token and drops expired ones when issuing", async () => {
    const now = 1_800_000_000_000;
    const first = await issueWebhookToken(t.store, "engage-console", now);
    const rows = await sql<Record<string, unknown>>`select * from webhook_tokens`.execute(t.store.db);
    const text = JSON.stringify(rows.rows);
    expect(text).not.toContain(first.accessToken);
    expect(text).not.toContain(first.accessToken.slice(4));
    await issueWebhookToken(t.store, "engage-console", now + 7200 * 1000 + 1);
    const left = await t.store.db.selectFrom("webhook_tokens").select("token_hash").execute();
    expect(left).toHaveLength(1);
  });
});
