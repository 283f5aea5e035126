import { expect, it } from "vitest";
import { describeEachDialect, warnIfPostgresSkipped } from "@/lib/store/testing";
import { upsertCustomers } from "@/lib/search/index-store";
import { ensureTenant } from "@/lib/search/tenant-state";
import { PlatformError } from "@/lib/platform/errors";
import type { PlatformCall } from "@/lib/platform/installation-call";
import { createSegment, getSegment, listRuns, snapshotIds, updateSegment } from "./segment-store";
import { runSegmentSync, SegmentSyncRefused, type SegmentSyncCheckpoint, type SegmentSyncContext, type SegmentSyncInput } from "./segment-sync";

warnIfPostgresSkipped("segment sync");

const KEY = { openAppId: "app-a", tenantId: "1001" };
const ACTOR = { userId: "u1", name: "Ada" };

/** A platform of lists in memory: one membership per customer and list (§4.4), every member call counted. */
function fakePlatform() {
  const lists = new Map<string, Set<string>>();
  let nextList = 500;
  const calls: string[] = [];
  let failNext: { status: number; times: number } | undefined;
  let crashAfter: number | undefined;
  const call = (async (name: string, input: { body?: { items?: Array<{ customerId: string; listId: string }>; name?: string }; query?: { customerIds?: string; listId?: string } }) => {
    if (failNext && failNext.times > 0) {
      failNext.times -= 1;
      throw new PlatformError({ kind: "rate_limited", code: "429", message: "slow down", httpStatus: failNext.status, retryAfterSeconds: 1 });
    }
    if (crashAfter !== undefined && calls.length >= crashAfter) throw new Error("the app stopped");
    calls.push(name);
    if (name === "lists.create") {
      const id = String(nextList++);
      lists.set(id, new Set());
      return { id, name: input.body?.name };
    }
    if (name === "listMembers.addBatch") {
      const items = input.body?.items ?? [];
      for (const item of items) lists.get(item.listId)!.add(item.customerId);
      return { items: items.map((item, i) => ({ id: `${item.listId}-${item.customerId}-${i}`, customerId: item.customerId, listId: item.listId })) };
    }
    if (name === "listMembers.removeFromList") {
      for (const id of (input.query?.customerIds ?? "").split(",")) lists.get(input.query!.listId!)!.delete(id);
      return { success: true };
    }
    throw new Error(`unexpected call ${name}`);
  }) as unknown as PlatformCall;
  return {
    call,
    calls,
    lists,
    failNext: (status: number, times: number) => (failNext = { status, times }),
    crashAfter: (n: number | undefined) => (crashAfter = n),
  };
}

function context(input: SegmentSyncInput, checkpoint?: SegmentSyncCheckpoint) {
  const saved: { checkpoint?: SegmentSyncCheckpoint; total?: number | null; done?: number } = {};
  const ctx: SegmentSyncContext = {
    key: KEY,
    input,
    checkpoint,
    actor: ACTOR,
    signal: new AbortController().signal,
    now: () => 1_750_000_000_000,
    async progress(update) {
      if (update.checkpoint) saved.checkpoint = update.checkpoint;
      saved.done = update.done;
      if (update.total !== undefined) saved.total = update.total;
    },
  };
  return { ctx, saved };
}

describeEachDialect("segment sync", (t) => {
  async function setUp(count: number) {
    const state = await ensureTenant(t.store, KEY);
    const docs = Array.from({ length: count }, (_, i) => ({ id: String(1000 + i), name: `P${i}`, stage: i % 2 === 0 ? "lead" : "customer" }));
    await upsertCustomers(t.store, state.tenant, docs);
    const segment = await createSegment(t.store, KEY, { name: "Leads", definition: { match: "all", conditions: [{ field: "stage", op: "is", values: ["lead"] }] } }, ACTOR, 1);
    const platform = fakePlatform();
    const deps = { store: t.store, call: platform.call, tenantOf: async () => state.tenant, sleep: async () => undefined, random: () => 0, addChunk: 10, removeChunk: 10 };
    return { tenant: state.tenant, segment, platform, deps, docs };
  }

  it("fills a new list with exactly the segment; a second run makes no member call", async () => {
    const { segment, platform, deps } = await setUp(60);
    const first = await runSegmentSync(context({ segmentId: segment.id, newListName: "Leads list" }).ctx, deps);
    expect(first).toMatchObject({ added: 30, removed: 0, failed: 0, memberCalls: 3 });
    const members = platform.lists.get(first.listId)!;
    expect([...members].sort()).toEqual(Array.from({ length: 30 }, (_, i) => String(1000 + i * 2)).sort());
    expect((await getSegment(t.store, KEY, segment.id))!.listId).toBe(first.listId);

    platform.calls.length = 0;
    const again = await runSegmentSync(context({ segmentId: segment.id }).ctx, deps);
    expect(again).toMatchObject({ listId: first.listId, added: 0, removed: 0, memberCalls: 0 });
    expect(platform.calls).toEqual([]);
    const runs = await listRuns(t.store, KEY, segment.id);
    expect(runs).toHaveLength(2);
    expect(runs.every((r) => r.state === "done" && r.startedBy?.name === "Ada")).toBe(true);
  });

  it("a changed segment sends only the difference: joiners added, leavers removed", async () => {
    const { tenant, segment, platform, deps } = await setUp(60);
    const { listId } = await runSegmentSync(context({ segmentId: segment.id, newListName: "L" }).ctx, deps);
    // 1000 leaves (becomes a customer), 1001 joins.
    await upsertCustomers(t.store, tenant, [{ id: "1000", name: "P0", stage: "customer" }, { id: "1001", name: "P1", stage: "lead" }]);
    platform.calls.length = 0;
    const result = await runSegmentSync(context({ segmentId: segment.id }).ctx, deps);
    expect(result).toMatchObject({ added: 1, removed: 1, memberCalls: 2 });
    expect(platform.calls).toEqual(["listMembers.addBatch", "listMembers.removeFromList"]);
    expect(platform.lists.get(listId)!.has("1001")).toBe(true);
    expect(platform.lists.get(listId)!.has("1000")).toBe(false);
  });

  it("waits out a 429/503 and resumes after a stop from its checkpoint, the same run, no customer sent twice", async () => {
    const { segment, platform, deps } = await setUp(60);
    platform.failNext(503, 2);
    platform.crashAfter(2); // lists.create + one batch, then the app stops
    const first = context({ segmentId: segment.id, newListName: "L" });
    await expect(runSegmentSync(first.ctx, deps)).rejects.toThrow("the app stopped");
    platform.crashAfter(undefined);
    const resumed = await runSegmentSync(context({ segmentId: segment.id, newListName: "L" }, first.saved.checkpoint).ctx, deps);
    expect(resumed.added).toBe(30);
    expect(platform.calls.filter((c) => c === "lists.create")).toHaveLength(1);
    expect(platform.calls.filter((c) => c === "listMembers.addBatch")).toHaveLength(3);
    expect(platform.lists.get(resumed.listId)!.size).toBe(30);
    expect(await snapshotIds(t.store, KEY, segment.id, resumed.listId)).toHaveLength(30);
    const runs = await listRuns(t.store, KEY, segment.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ state: "done", added: 30 });
  });

  it("a segment of everyone is synced only when confirmed; nothing is written before", async () => {
    const { segment, platform, deps } = await setUp(4);
    await updateSegment(t.store, KEY, segment.id, { definition: { match: "all", conditions: [] } }, 2);
    await expect(runSegmentSync(context({ segmentId: segment.id, newListName: "All" }).ctx, deps)).rejects.toBeInstanceOf(SegmentSyncRefused);
    expect(platform.calls).toEqual([]);
    expect(await listRuns(t.store, KEY, segment.id)).toEqual([]);
    const result = await runSegmentSync(context({ segmentId: segment.id, newListName: "All", confirmEveryone: true }).ctx, deps);
    expect(result.added).toBe(4);
  });
});
