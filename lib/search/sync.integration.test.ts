import { afterAll, beforeAll, expect, it } from "vitest";
import { callPlatform, type CallOptions } from "@/lib/platform/client";
import { operations, type OperationName } from "@/lib/platform/operations";
import { startTestSandbox } from "@/lib/platform/testing/sandbox";
import { describeEachDialect, warnIfPostgresSkipped } from "@/lib/store/testing";
import { countIndexed, lookupIndexed, searchIndex } from "./index-store";
import type { PlatformCall } from "@/lib/platform/installation-call";
import { applyChange, backfill, poll, type SyncDeps } from "./sync";
import { findTenant } from "./tenant-state";
import { createIndexEventRegistry, type IndexEvent } from "./index-events";

/**
 * The sync against the real Platform Sandbox (in-process, free ports, in-memory database):
 * backfill, restart midway, polling, webhook changes (created, updated, deleted, merged, tags).
 */

warnIfPostgresSkipped("customer index sync");

const CUSTOMERS = 1200;
const { sandbox, control } = await startTestSandbox();
let alpha: CallOptions;
const key = { openAppId: "alpha-app", tenantId: "1" };
const U = Date.now().toString(36);

const call: PlatformCall = ((name: OperationName, input: unknown) => callPlatform(operations[name], input as never, alpha)) as PlatformCall;


beforeAll(async () => {
  await control("/seed", { customers: CUSTOMERS });
  const tokens = await control("/tokens", { environment: "alpha" });
  alpha = { apiUrl: sandbox.urls.alpha!, accessToken: tokens.access_token as string, retry: { baseDelayMs: 5, maxDelayMs: 20 } };
}, 120_000);
afterAll(() => sandbox?.close());

describeEachDialect("customer index sync against the sandbox", (t, dialect) => {
  const deps = (extra: Partial<SyncDeps> = {}): SyncDeps => ({ store: t.store, call, pageSize: 500, batchSize: 200, concurrency: 3, ...extra });
  const ids = (r: { hits: Array<{ id: string }> }) => r.hits.map((h) => h.id).sort();

  it("backfills every customer with identities and tags; resumes after a stop midway without duplicates", { timeout: 120_000 }, async () => {
    const total = Number(await call("customers.count", {}));
    const first = await backfill(deps({ maxPages: 1 }), key);
    expect(first.phase).toBe("backfill");
    expect(first.indexed).toBe(500);
    const resumed = await backfill(deps(), key);
    expect(resumed.phase).toBe("ready");
    expect(resumed.indexed).toBe(total);
    expect(await countIndexed(t.store, resumed.tenant)).toBe(total);

    // A customer with a mobile and an email is found by part of its email and its bare mobile.
    const { rows } = await call("customers.list", { query: { hasMobile: true, hasEmail: true, rows: 1, page: 1, sidx: "id", sord: "desc" } });
    const sample = rows[0]!;
    const local = String(sample.email).split("@")[0]!.slice(0, 6);
    expect(ids(await searchIndex(t.store, resumed.tenant, { q: local, limit: 200 }))).toContain(String(sample.id));
    const bare = String(sample.mobile).replace(/^\+\d+\s+/, "");
    expect(ids(await searchIndex(t.store, resumed.tenant, { q: bare, limit: 200 }))).toContain(String(sample.id));

    // A tag's customers are exactly those the platform gives that tag (checked over the first 200 ids).
    const page = await call("customers.list", { query: { rows: 200, page: 1, select: "id" } });
    const tagged = (await call("customerTags.get", { query: { customerId: page.rows.map((r) => String(r.id)).join(",") } })) as Record<string, string | null>;
    const byTag = new Map<string, string[]>();
    for (const [id, names] of Object.entries(tagged)) for (const name of (names ?? "").split(",").filter(Boolean)) byTag.set(name, [...(byTag.get(name) ?? []), id]);
    expect(byTag.size).toBeGreaterThan(0);
    const [tag, expected] = [...byTag.entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
    const inIndex = ids(await searchIndex(t.store, resumed.tenant, { tag, limit: 200, offset: 0 }));
    const firstIds = new Set(page.rows.map((r) => String(r.id)));
    expect(inIndex.filter((id) => firstIds.has(id)).sort()).toEqual(expected.sort());
  });

  it("two pages written at once: a failed write leaves the checkpoint before it (never past a page not in the store); the resumed backfill indexes everyone once", { timeout: 120_000 }, async () => {
    const total = Number(await call("customers.count", {}));
    let writes = 0;
    const failing = deps({
      pageSize: 200,
      onWrite: () => {
        if (++writes === 3) throw new Error("write failed");
      },
    });
    await expect(backfill(failing, key)).rejects.toThrow("write failed");
    const stopped = (await findTenant(t.store, key))!;
    expect(stopped.phase).toBe("backfill");
    // Pages 1 and 2 recorded at most; whatever the checkpoint says is indexed is in the store.
    expect(stopped.indexed).toBeLessThanOrEqual(400);
    expect(stopped.indexed % 200).toBe(0);
    expect(await countIndexed(t.store, stopped.tenant)).toBeGreaterThanOrEqual(stopped.indexed);
    const listed = await call("customers.list", { query: { rows: 200, page: 1, select: "id", sidx: "id", sord: "asc" } });
    if (stopped.indexed === 200) expect(stopped.backfillAfter).toBe(String(listed.rows.at(-1)!.id));
    const resumed = await backfill(deps({ pageSize: 200 }), key);
    expect(resumed.phase).toBe("ready");
    expect(resumed.indexed).toBe(total);
    expect(await countIndexed(t.store, resumed.tenant)).toBe(total);
  });

  it("a webhook arriving mid-backfill (pages in flight): the changed customer is found by its change afterwards, and its row carries it", { timeout: 120_000 }, async () => {
    const [first] = (await call("customers.list", { query: { rows: 1, page: 1, select: "id,email", sidx: "id", sord: "asc" } })).rows;
    const [last] = (await call("customers.list", { query: { rows: 1, page: 1, select: "id,email", sidx: "id", sord: "desc" } })).rows;
    let hook: Promise<void> | undefined;
    const state = await backfill(
      deps({
        pageSize: 200,
        onProgress: ({ indexed }) => {
          if (hook || indexed < 200) return;
          // Page 1 is in the store, later pages are being read or written: both ends change now.
          hook = (async () => {
            for (const c of [first!, last!]) {
              await call("customers.update", { params: { id: String(c.id) }, body: { email: `mid-${c.id}-${U}@hook.test` } });
              await applyChange(deps(), key, { resource: "customer", action: "updated", id: String(c.id) });
            }
          })();
        },
      }),
      key,
    );
    await hook;
    expect(state.phase).toBe("ready");
    for (const c of [first!, last!]) {
      expect(ids(await searchIndex(t.store, state.tenant, { q: `mid-${c.id}-${U}`, limit: 5 }))).toEqual([String(c.id)]);
      // The row carries the change (the old address may stay findable: it is still one of the customer's identities).
      expect((await lookupIndexed(t.store, state.tenant, [String(c.id)]))[0]?.email).toBe(`mid-${c.id}-${U}@hook.test`);
    }
    expect(await countIndexed(t.store, state.tenant)).toBe(Number(await call("customers.count", {})));
  });

  it("the installation's index removed while pages are being written: nothing of it stays", { timeout: 120_000 }, async () => {
    const { removeTenantIndex } = await import("./tenant-state");
    let removed = false;
    const state = await backfill(
      deps({
        pageSize: 200,
        onProgress: () => {
          if (removed) return;
          removed = true;
          void removeTenantIndex(t.store, key);
        },
      }),
      key,
    );
    expect(removed).toBe(true);
    expect(state.indexed).toBe(0);
    expect(await countIndexed(t.store, state.tenant)).toBe(0);
  });

  it("applies webhook changes: created, updated, tags added and removed, merged (the merged-away customer leaves), deleted; each announced", { timeout: 120_000 }, async () => {
    const events = createIndexEventRegistry();
    const announced: IndexEvent[] = [];
    for (const type of ["changed", "removed", "backfilled"] as const) events.on(type, "test", async (e) => void announced.push(e));
    const deps = (extra: Partial<SyncDeps> = {}): SyncDeps => ({ store: t.store, call, pageSize: 500, batchSize: 200, concurrency: 3, events, ...extra });
    await backfill(deps(), key);
    const tenant = (await findTenant(t.store, key))!.tenant;
    const said = (type: IndexEvent["type"]) => announced.filter((e) => e.type === type).flatMap((e) => ("ids" in e ? e.ids : ["all"]));
    const search = (q: string) => searchIndex(t.store, tenant, { q, limit: 20 }).then(ids);

    const a = await call("customers.upsert", { body: { name: "欧阳娜娜", email: `oy-${U}@hook.test`, mobile: `+86 137${String(Date.now()).slice(-8)}` } });
    const b = await call("customers.upsert", { body: { name: "Zed Merge", email: `zm-${U}@hook.test` } });
    await applyChange(deps(), key, { resource: "customer", action: "created", id: String(a.id) });
    await applyChange(deps(), key, { resource: "customer", action: "created", id: String(b.id) });
    expect(await search(`oy-${U}`)).toEqual([String(a.id)]);
    expect(await search("欧阳")).toEqual([String(a.id)]);
    expect(said("changed")).toEqual([String(a.id), String(b.id)]);

    await call("customers.update", { params: { id: String(a.id) }, body: { email: `new-${U}@hook.test` } });
    await applyChange(deps(), key, { resource: "customer", action: "updated", id: String(a.id) });
    expect(await search(`oy-${U}`)).toEqual([]);
    expect(await search(`new-${U}`)).toEqual([String(a.id)]);

    const tag = `t${U}`.slice(0, 12);
    await call("customerTags.add", { body: { customerId: String(a.id), tags: [{ name: tag }] } });
    await applyChange(deps(), key, { resource: "customerTag", action: "added", id: String(a.id) });
    expect(ids(await searchIndex(t.store, tenant, { tag, limit: 20 }))).toEqual([String(a.id)]);
    await call("customerTags.remove", { body: { customerId: String(a.id), tags: [tag] } });
    await applyChange(deps(), key, { resource: "customerTag", action: "removed", id: String(a.id) });
    expect(ids(await searchIndex(t.store, tenant, { tag, limit: 20 }))).toEqual([]);

    await call("customers.mergeById", { query: { fromId: String(b.id), toId: String(a.id) } });
    await applyChange(deps(), key, { resource: "customer", action: "merged", id: String(a.id), data: { fromId: String(b.id), toId: String(a.id) } });
    expect(await search(`zm-${U}`)).toEqual([]);
    expect(said("removed")).toEqual([String(b.id)]);

    await call("customers.delete", { params: { id: String(a.id) } });
    await applyChange(deps(), key, { resource: "customer", action: "deleted", id: String(a.id) });
    expect(await search(`new-${U}`)).toEqual([]);
    expect(said("removed")).toEqual([String(b.id), String(a.id)]);
    expect(said("backfilled")).toEqual(["all"]);
  });

  it("polls lastUpdatedFrom: a change made after the backfill is indexed by the next poll", { timeout: 120_000 }, async () => {
    await backfill(deps(), key);
    const tenant = (await findTenant(t.store, key))!.tenant;
    const { rows } = await call("customers.list", { query: { rows: 1, page: 1, sidx: "id", sord: "asc" } });
    const id = String(rows[0]!.id);
    const marker = `polled-${dialect.name}-${U}`;
    await control("/clock", { advanceSeconds: 120 });
    await call("customers.update", { params: { id }, body: { email: `${marker}@poll.test` } });
    expect(ids(await searchIndex(t.store, tenant, { q: marker, limit: 20 }))).toEqual([]);
    const changed = await poll(deps(), key);
    expect(changed).toBeGreaterThanOrEqual(1);
    expect(ids(await searchIndex(t.store, tenant, { q: marker, limit: 20 }))).toEqual([id]);
  });
});
