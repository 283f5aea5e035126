import "server-only";
import { randomUUID } from "node:crypto";
import type { Selectable } from "kysely";
import type { StoreSchema } from "@/lib/store/schema";
import type { Store } from "@/lib/store/database";
import type { InstallationKey } from "@/lib/store/installations";
import { definitionSchema, type SegmentDefinition } from "./segment-conditions";
import type { SegmentActor, SegmentView, SyncRunView } from "./segment-types";

/**
 * A tenant's saved segments (`segments`), the membership each one's sync last wrote into its list
 * (`segment_list_members`) and the history of its syncs (`segment_sync_runs`). Every read and
 * write names the installation: no tenant reaches another's segments.
 */

export const SCHEDULES = ["off", "hourly", "daily"] as const;
export type Schedule = (typeof SCHEDULES)[number];

// The routes answer these records as they are: one definition, the browser's (segment-types.ts).
export type Actor = SegmentActor;
export type Segment = SegmentView;

type Row = {
  id: string;
  name: string;
  definition: string;
  list_id: string | null;
  list_name: string | null;
  schedule: string;
  created_by: string | null;
  created_by_name: string | null;
  created_at: number | string;
  updated_at: number | string;
  last_synced_at: number | string | null;
};

function segmentOf(row: Row): Segment {
  // A stored definition passed the same schema when written; one that no longer does is shown empty, never thrown.
  const parsed = (() => {
    try {
      return definitionSchema.safeParse(JSON.parse(row.definition));
    } catch {
      return undefined;
    }
  })();
  return {
    id: row.id,
    name: row.name,
    definition: parsed?.success ? parsed.data : { match: "all", conditions: [] },
    listId: row.list_id,
    listName: row.list_name,
    schedule: (SCHEDULES as readonly string[]).includes(row.schedule) ? (row.schedule as Schedule) : "off",
    createdBy: row.created_by !== null ? { userId: row.created_by, name: row.created_by_name ?? "" } : null,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    lastSyncedAt: row.last_synced_at === null ? null : Number(row.last_synced_at),
  };
}

const scoped = (store: Store, key: InstallationKey) => store.db.selectFrom("segments").selectAll().where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId);

export async function listSegments(store: Store, key: InstallationKey): Promise<Segment[]> {
  return (await scoped(store, key).orderBy("name").orderBy("id").execute()).map(segmentOf);
}

export async function getSegment(store: Store, key: InstallationKey, id: string): Promise<Segment | undefined> {
  const row = await scoped(store, key).where("id", "=", id).executeTakeFirst();
  return row ? segmentOf(row) : undefined;
}

export type SegmentInput = { name: string; definition: SegmentDefinition; schedule?: Schedule };

export async function createSegment(store: Store, key: InstallationKey, input: SegmentInput, actor: Actor, now: number): Promise<Segment> {
  const id = randomUUID();
  await store.db
    .insertInto("segments")
    .values({
      id,
      open_app_id: key.openAppId,
      tenant_id: key.tenantId,
      name: input.name,
      definition: JSON.stringify(input.definition),
      list_id: null,
      list_name: null,
      schedule: input.schedule ?? "off",
      created_by: actor.userId || null,
      created_by_name: actor.name || null,
      created_at: now,
      updated_at: now,
      last_synced_at: null,
    })
    .execute();
  return (await getSegment(store, key, id))!;
}

export async function updateSegment(store: Store, key: InstallationKey, id: string, input: Partial<SegmentInput>, now: number): Promise<Segment | undefined> {
  const set: { name?: string; definition?: string; schedule?: string; updated_at: number } = { updated_at: now };
  if (input.name !== undefined) set.name = input.name;
  if (input.definition !== undefined) set.definition = JSON.stringify(input.definition);
  if (input.schedule !== undefined) set.schedule = input.schedule;
  await store.db.updateTable("segments").set(set).where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).where("id", "=", id).execute();
  return getSegment(store, key, id);
}

/** A segment with its snapshot and history, in one transaction. */
export async function deleteSegment(store: Store, key: InstallationKey, id: string): Promise<boolean> {
  return store.db.transaction().execute(async (tx) => {
    const where = { open_app_id: key.openAppId, tenant_id: key.tenantId, segment_id: id };
    await tx.deleteFrom("segment_list_members").where("open_app_id", "=", where.open_app_id).where("tenant_id", "=", where.tenant_id).where("segment_id", "=", id).execute();
    await tx.deleteFrom("segment_sync_runs").where("open_app_id", "=", where.open_app_id).where("tenant_id", "=", where.tenant_id).where("segment_id", "=", id).execute();
    const result = await tx.deleteFrom("segments").where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

/** Points the segment at a list; another list than before starts from an empty snapshot. */
export async function setSegmentList(store: Store, key: InstallationKey, id: string, list: { id: string; name: string | null }, now: number): Promise<void> {
  await store.db.transaction().execute(async (tx) => {
    await tx
      .deleteFrom("segment_list_members")
      .where("open_app_id", "=", key.openAppId)
      .where("tenant_id", "=", key.tenantId)
      .where("segment_id", "=", id)
      .where("list_id", "<>", list.id)
      .execute();
    await tx.updateTable("segments").set({ list_id: list.id, list_name: list.name, updated_at: now }).where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).where("id", "=", id).execute();
  });
}

export async function markSynced(store: Store, key: InstallationKey, id: string, at: number): Promise<void> {
  await store.db.updateTable("segments").set({ last_synced_at: at }).where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).where("id", "=", id).execute();
}

// ── the synced membership ────────────────────────────────────────────────────────────────────────

export async function snapshotIds(store: Store, key: InstallationKey, segmentId: string, listId: string): Promise<string[]> {
  const rows = await store.db
    .selectFrom("segment_list_members")
    .select("customer_id")
    .where("open_app_id", "=", key.openAppId)
    .where("tenant_id", "=", key.tenantId)
    .where("segment_id", "=", segmentId)
    .where("list_id", "=", listId)
    .execute();
  return rows.map((r) => r.customer_id);
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Records customers as members the list now holds (after the platform said so). */
export async function addToSnapshot(store: Store, key: InstallationKey, segmentId: string, listId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await store.db.transaction().execute(async (tx) => {
    for (const part of chunks(ids, 400)) {
      await tx
        .insertInto("segment_list_members")
        .values(part.map((customer_id) => ({ open_app_id: key.openAppId, tenant_id: key.tenantId, segment_id: segmentId, list_id: listId, customer_id })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  });
}

export async function removeFromSnapshot(store: Store, key: InstallationKey, segmentId: string, listId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await store.db.transaction().execute(async (tx) => {
    for (const part of chunks(ids, 400)) {
      await tx
        .deleteFrom("segment_list_members")
        .where("open_app_id", "=", key.openAppId)
        .where("tenant_id", "=", key.tenantId)
        .where("segment_id", "=", segmentId)
        .where("list_id", "=", listId)
        .where("customer_id", "in", part)
        .execute();
    }
  });
}

// ── history ──────────────────────────────────────────────────────────────────────────────────────

export type SyncRun = SyncRunView;
export type SyncFailure = SyncRun["failures"][number];

/** At most this many failures are kept per run (with their reasons); `failed` counts them all. */
export const KEPT_FAILURES = 100;

export async function startRun(store: Store, key: InstallationKey, segmentId: string, listId: string, actor: Actor | null, now: number): Promise<string> {
  const id = randomUUID();
  await store.db
    .insertInto("segment_sync_runs")
    .values({
      id,
      open_app_id: key.openAppId,
      tenant_id: key.tenantId,
      segment_id: segmentId,
      list_id: listId,
      state: "running",
      started_by: actor?.userId || null,
      started_by_name: actor?.name || null,
      started_at: now,
      finished_at: null,
      failures: null,
      error: null,
    })
    .execute();
  return id;
}

export async function updateRun(
  store: Store,
  key: InstallationKey,
  id: string,
  patch: { state?: SyncRun["state"]; finishedAt?: number; added?: number; removed?: number; failed?: number; memberCalls?: number; failures?: SyncFailure[]; error?: string | null },
): Promise<void> {
  await store.db
    .updateTable("segment_sync_runs")
    .set({
      ...(patch.state ? { state: patch.state } : {}),
      ...(patch.finishedAt !== undefined ? { finished_at: patch.finishedAt } : {}),
      ...(patch.added !== undefined ? { added: patch.added } : {}),
      ...(patch.removed !== undefined ? { removed: patch.removed } : {}),
      ...(patch.failed !== undefined ? { failed: patch.failed } : {}),
      ...(patch.memberCalls !== undefined ? { member_calls: patch.memberCalls } : {}),
      ...(patch.failures !== undefined ? { failures: JSON.stringify(patch.failures.slice(0, KEPT_FAILURES)) } : {}),
      ...(patch.error !== undefined ? { error: patch.error === null ? null : patch.error.slice(0, 500) } : {}),
    })
    .where("open_app_id", "=", key.openAppId)
    .where("tenant_id", "=", key.tenantId)
    .where("id", "=", id)
    .execute();
}

export async function getRun(store: Store, key: InstallationKey, id: string): Promise<SyncRun | undefined> {
  const row = await store.db.selectFrom("segment_sync_runs").selectAll().where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).where("id", "=", id).executeTakeFirst();
  return row ? runOf(row) : undefined;
}

export async function listRuns(store: Store, key: InstallationKey, segmentId: string, limit = 20): Promise<SyncRun[]> {
  const rows = await store.db
    .selectFrom("segment_sync_runs")
    .selectAll()
    .where("open_app_id", "=", key.openAppId)
    .where("tenant_id", "=", key.tenantId)
    .where("segment_id", "=", segmentId)
    .orderBy("started_at", "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map(runOf);
}

type RunRow = Selectable<StoreSchema["segment_sync_runs"]>;

function runOf(row: RunRow): SyncRun {
  let failures: SyncFailure[] = [];
  try {
    failures = row.failures ? (JSON.parse(row.failures) as SyncFailure[]) : [];
  } catch {
    failures = [];
  }
  return {
    id: row.id,
    segmentId: row.segment_id,
    listId: row.list_id,
    state: row.state === "done" || row.state === "failed" ? row.state : "running",
    startedBy: row.started_by !== null ? { userId: row.started_by, name: row.started_by_name ?? "" } : null,
    startedAt: Number(row.started_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
    added: Number(row.added),
    removed: Number(row.removed),
    failed: Number(row.failed),
    memberCalls: Number(row.member_calls),
    failures,
    error: row.error,
  };
}
