import "server-only";
import { sql, type Selectable } from "kysely";
import type { Store, StoreSchema } from "@/lib/store/database";
import type { InstallationKey } from "@/lib/store/installations";
import type { TaskActor, TaskRecord, TaskState } from "./task-types";

/**
 * The rows of background tasks (migration 011): every read names the installation, so no task of
 * another tenant can be read, cancelled or downloaded; every write of a running task names its
 * run token, so a runner that was taken for dead (and replaced) can no longer move the task.
 */

type Row = Selectable<StoreSchema["app_tasks"]>;

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

const parse = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

export function taskOf(row: Row): TaskRecord {
  return {
    id: row.id,
    openAppId: row.open_app_id,
    tenantId: row.tenant_id,
    kind: row.kind,
    state: row.state as TaskState,
    input: parse(row.input),
    progress: { done: Number(row.progress_done), total: num(row.progress_total), message: row.message },
    result: parse(row.result),
    error: row.error,
    startedBy: { userId: row.started_by, name: row.started_by_name },
    cancelledBy: row.cancelled_by === null ? null : { userId: row.cancelled_by, name: row.cancelled_by_name ?? "" },
    createdAt: Number(row.created_at),
    startedAt: num(row.started_at),
    updatedAt: Number(row.updated_at),
    finishedAt: num(row.finished_at),
    cancelRequested: Number(row.cancel_requested) === 1,
    attempts: Number(row.attempts),
    file:
      row.file_name === null || row.file_type === null
        ? null
        : { name: row.file_name, contentType: row.file_type, size: Number(row.file_size), expiresAt: num(row.file_expires_at) ?? 0 },
  };
}

/** JSON, not a separator character: unambiguous for any names, and text PostgreSQL takes (no NUL). */
export const exclusiveKeyOf = (kind: string, key: InstallationKey): string => JSON.stringify([kind, key.openAppId, key.tenantId]);

export type NewTask = { id: string; key: InstallationKey; kind: string; input: unknown; actor: TaskActor; exclusive: boolean; now: number };

/** Inserts a queued task; false when an exclusive one of the same kind is queued or running for the installation. */
export async function insertTask(store: Store, task: NewTask): Promise<boolean> {
  const values = {
    id: task.id,
    open_app_id: task.key.openAppId,
    tenant_id: task.key.tenantId,
    kind: task.kind,
    state: "queued",
    exclusive_key: task.exclusive ? exclusiveKeyOf(task.kind, task.key) : null,
    input: JSON.stringify(task.input ?? null),
    started_by: task.actor.userId,
    started_by_name: task.actor.name,
    created_at: task.now,
    updated_at: task.now,
  };
  const inserted = await store.db
    .insertInto("app_tasks")
    .values(values)
    .onConflict((oc) => oc.column("exclusive_key").doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function findExclusiveTask(store: Store, kind: string, key: InstallationKey): Promise<TaskRecord | undefined> {
  const row = await store.db.selectFrom("app_tasks").selectAll().where("exclusive_key", "=", exclusiveKeyOf(kind, key)).executeTakeFirst();
  return row ? taskOf(row) : undefined;
}

export async function findTask(store: Store, key: InstallationKey, id: string): Promise<TaskRecord | undefined> {
  const row = await store.db.selectFrom("app_tasks").selectAll().where("id", "=", id).where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).executeTakeFirst();
  return row ? taskOf(row) : undefined;
}

/** The row as the runner needs it (no installation: the job names the task by id alone). */
export async function findTaskById(store: Store, id: string): Promise<(TaskRecord & { checkpoint: unknown; runToken: string | null }) | undefined> {
  const row = await store.db.selectFrom("app_tasks").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? { ...taskOf(row), checkpoint: row.checkpoint === null ? undefined : parse(row.checkpoint), runToken: row.run_token } : undefined;
}

export async function listTasks(store: Store, key: InstallationKey, options: { kinds?: readonly string[]; limit: number }): Promise<TaskRecord[]> {
  let query = store.db.selectFrom("app_tasks").selectAll().where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId);
  if (options.kinds && options.kinds.length > 0) query = query.where("kind", "in", [...options.kinds]);
  const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(options.limit).execute();
  return rows.map(taskOf);
}

/**
 * Takes the task for one run: a queued task (due), or a running one whose runner stopped beating
 * (`staleBefore`). One UPDATE, so two instances never both take it.
 */
export async function claimTask(store: Store, id: string, runToken: string, now: number, staleBefore: number): Promise<boolean> {
  const result = await store.db
    .updateTable("app_tasks")
    .set((eb) => ({ state: "running", run_token: runToken, heartbeat_at: now, updated_at: now, attempts: eb("attempts", "+", 1), started_at: sql<number>`coalesce(started_at, ${now})` }))
    .where("id", "=", id)
    .where((eb) =>
      eb.or([
        eb.and([eb("state", "=", "queued"), eb.or([eb("run_after", "is", null), eb("run_after", "<=", now)])]),
        eb.and([eb("state", "=", "running"), eb.or([eb("heartbeat_at", "is", null), eb("heartbeat_at", "<", staleBefore)])]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The runner lost the task (another took it, or it was deleted). */
export class TaskLost extends Error {
  constructor(id: string) {
    super(`task ${id} is no longer this runner's`);
    this.name = "TaskLost";
  }
}

export type ProgressWrite = { done: number; total?: number | null; message?: string | null; checkpoint?: unknown; chunk?: Uint8Array };

/**
 * Progress, checkpoint and the file's new bytes in one transaction; answers whether cancellation
 * was asked. Throws `TaskLost` when the run token no longer matches.
 */
export async function writeProgress(store: Store, id: string, runToken: string, write: ProgressWrite, now: number): Promise<{ cancelRequested: boolean }> {
  return store.db.transaction().execute(async (tx) => {
    const row = await tx.selectFrom("app_tasks").select(["open_app_id", "tenant_id", "file_size", "cancel_requested", "run_token"]).where("id", "=", id).executeTakeFirst();
    if (!row || row.run_token !== runToken) throw new TaskLost(id);
    let size = Number(row.file_size);
    if (write.chunk && write.chunk.byteLength > 0) {
      const last = await tx.selectFrom("app_task_files").select((eb) => eb.fn.max("seq").as("seq")).where("task_id", "=", id).executeTakeFirst();
      const seq = last?.seq === null || last?.seq === undefined ? 0 : Number(last.seq) + 1;
      await tx.insertInto("app_task_files").values({ task_id: id, seq, open_app_id: row.open_app_id, tenant_id: row.tenant_id, data: write.chunk }).execute();
      size += write.chunk.byteLength;
    }
    await tx
      .updateTable("app_tasks")
      .set({
        progress_done: write.done,
        ...(write.total !== undefined ? { progress_total: write.total } : {}),
        ...(write.message !== undefined ? { message: write.message === null ? null : write.message.slice(0, 500) } : {}),
        ...(write.checkpoint !== undefined ? { checkpoint: JSON.stringify(write.checkpoint) } : {}),
        file_size: size,
        heartbeat_at: now,
        updated_at: now,
      })
      .where("id", "=", id)
      .where("run_token", "=", runToken)
      .execute();
    return { cancelRequested: Number(row.cancel_requested) === 1 };
  });
}

/** A beat without progress (a long platform wait); answers whether cancellation was asked. */
export async function heartbeat(store: Store, id: string, runToken: string, now: number): Promise<{ cancelRequested: boolean; lost: boolean }> {
  const result = await store.db.updateTable("app_tasks").set({ heartbeat_at: now }).where("id", "=", id).where("run_token", "=", runToken).where("state", "=", "running").executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return { cancelRequested: false, lost: true };
  const row = await store.db.selectFrom("app_tasks").select("cancel_requested").where("id", "=", id).executeTakeFirst();
  return { cancelRequested: Number(row?.cancel_requested ?? 0) === 1, lost: false };
}

/** Starts the task's file afresh (a run that begins its export again). */
export async function beginFile(store: Store, id: string, runToken: string, name: string, contentType: string, now: number): Promise<void> {
  await store.db.transaction().execute(async (tx) => {
    const updated = await tx
      .updateTable("app_tasks")
      .set({ file_name: name.slice(0, 250), file_type: contentType.slice(0, 120), file_size: 0, file_expires_at: null, updated_at: now })
      .where("id", "=", id)
      .where("run_token", "=", runToken)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new TaskLost(id);
    await tx.deleteFrom("app_task_files").where("task_id", "=", id).execute();
  });
}

export type Finish =
  | { state: "done"; result: unknown; fileExpiresAt: number | null }
  | { state: "failed"; error: string; fileExpiresAt: number | null }
  | { state: "cancelled"; fileExpiresAt: number | null };

/** Ends the run: the last bytes of the file, then the end state (the exclusive slot is freed). */
export async function finishTask(store: Store, id: string, runToken: string, finish: Finish, chunk: Uint8Array | undefined, now: number): Promise<void> {
  if (chunk && chunk.byteLength > 0) await writeProgressChunkOnly(store, id, runToken, chunk, now);
  const result = await store.db
    .updateTable("app_tasks")
    .set({
      state: finish.state,
      exclusive_key: null,
      run_token: null,
      finished_at: now,
      updated_at: now,
      file_expires_at: finish.fileExpiresAt,
      ...(finish.state === "done" ? { result: JSON.stringify(finish.result ?? null) } : {}),
      ...(finish.state === "failed" ? { error: finish.error.slice(0, 1000) } : {}),
    })
    .where("id", "=", id)
    .where("run_token", "=", runToken)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new TaskLost(id);
}

async function writeProgressChunkOnly(store: Store, id: string, runToken: string, chunk: Uint8Array, now: number): Promise<void> {
  const row = await store.db.selectFrom("app_tasks").select(["progress_done"]).where("id", "=", id).executeTakeFirst();
  await writeProgress(store, id, runToken, { done: Number(row?.progress_done ?? 0), chunk }, now);
}

/** A failed run that will be tried again: back to the queue, due at `runAfter`. */
export async function requeueTask(store: Store, id: string, runToken: string, error: string, runAfter: number, now: number): Promise<void> {
  await store.db
    .updateTable("app_tasks")
    .set({ state: "queued", run_token: null, error: error.slice(0, 1000), run_after: runAfter, updated_at: now })
    .where("id", "=", id)
    .where("run_token", "=", runToken)
    .execute();
}

/**
 * Asks a task to stop. A queued task ends at once; a running one sees the request at its next
 * progress or beat. Answers the task as it is now (undefined: no such task of this installation).
 */
export async function requestCancel(store: Store, key: InstallationKey, id: string, actor: TaskActor, now: number): Promise<TaskRecord | undefined> {
  await store.db
    .updateTable("app_tasks")
    .set({ state: "cancelled", exclusive_key: null, cancel_requested: 1, cancelled_by: actor.userId, cancelled_by_name: actor.name, finished_at: now, updated_at: now })
    .where("id", "=", id)
    .where("open_app_id", "=", key.openAppId)
    .where("tenant_id", "=", key.tenantId)
    .where("state", "=", "queued")
    .execute();
  await store.db
    .updateTable("app_tasks")
    .set({ cancel_requested: 1, cancelled_by: actor.userId, cancelled_by_name: actor.name, updated_at: now })
    .where("id", "=", id)
    .where("open_app_id", "=", key.openAppId)
    .where("tenant_id", "=", key.tenantId)
    .where("state", "=", "running")
    .execute();
  return findTask(store, key, id);
}

/** Tasks whose job may have been lost: queued and due for a while, or running without a beat. */
export async function orphanedTasks(store: Store, now: number, queuedBefore: number, staleBefore: number, limit = 100): Promise<string[]> {
  const rows = await store.db
    .selectFrom("app_tasks")
    .select("id")
    .where((eb) =>
      eb.or([
        eb.and([eb("state", "=", "queued"), eb("updated_at", "<", queuedBefore), eb.or([eb("run_after", "is", null), eb("run_after", "<=", now)])]),
        eb.and([eb("state", "=", "running"), eb.or([eb("heartbeat_at", "is", null), eb("heartbeat_at", "<", staleBefore)])]),
      ]),
    )
    .orderBy("created_at")
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Files past their keep time are deleted (the task's row and history stay). */
export async function dropExpiredFiles(store: Store, now: number): Promise<number> {
  const expired = await store.db.selectFrom("app_tasks").select("id").where("file_expires_at", "is not", null).where("file_expires_at", "<", now).limit(500).execute();
  if (expired.length === 0) return 0;
  const ids = expired.map((r) => r.id);
  await store.db.transaction().execute(async (tx) => {
    await tx.deleteFrom("app_task_files").where("task_id", "in", ids).execute();
    await tx.updateTable("app_tasks").set({ file_name: null, file_type: null, file_size: 0, file_expires_at: null }).where("id", "in", ids).execute();
  });
  return ids.length;
}

/** The file's chunks in order, read a few at a time (a large export is not held in memory). */
export async function* readFileChunks(store: Store, id: string, batch = 8): AsyncGenerator<Uint8Array> {
  let after = -1;
  for (;;) {
    const rows = await store.db.selectFrom("app_task_files").select(["seq", "data"]).where("task_id", "=", id).where("seq", ">", after).orderBy("seq").limit(batch).execute();
    for (const row of rows) yield row.data instanceof Uint8Array ? row.data : new Uint8Array(row.data as ArrayBuffer);
    if (rows.length < batch) return;
    after = Number(rows[rows.length - 1]!.seq);
  }
}
