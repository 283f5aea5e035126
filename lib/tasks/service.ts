import "server-only";
import { randomUUID } from "node:crypto";
import type { JobQueue } from "@/lib/jobs/queue";
import { backoffMs, type Backoff } from "@/lib/platform/backoff";
import type { Store } from "@/lib/store/database";
import type { InstallationKey } from "@/lib/store/installations";
import type { AnyTaskDefinition, ScheduleDefinition } from "./registry";
import {
  beginFile,
  claimTask,
  dropExpiredFiles,
  finishTask,
  findExclusiveTask,
  findTask,
  findTaskById,
  heartbeat,
  insertTask,
  listTasks,
  orphanedTasks,
  readFileChunks,
  requestCancel,
  requeueTask,
  TaskLost,
  writeProgress,
  type Finish,
} from "./task-store";
import { TaskCancelled, TaskRefused, type TaskActor, type TaskContext, type TaskFile, type TaskRecord } from "./task-types";

/**
 * Runs background tasks (task-types.ts): `start` writes the task's row and sends "run task <id>"
 * on the job queue (in-process on SQLite, pg-boss on PostgreSQL); whichever instance takes the job
 * claims the row, runs the kind's `run` with a context that stores progress, checkpoint and file
 * together, and ends the row. `sweep` (every few seconds, on every instance) sends again the tasks
 * whose job was lost (a restart of the in-process queue) or whose runner stopped beating (an
 * instance died), so they resume from their last checkpoint; it also drops expired files and runs
 * the recurring jobs that are due.
 */

export const TASK_QUEUE = "app-tasks";

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

export type TaskServiceDeps = {
  store: () => Promise<Store>;
  queue: () => Promise<JobQueue>;
  definitions: () => ReadonlyMap<string, AnyTaskDefinition>;
  schedules?: () => ReadonlyMap<string, ScheduleDefinition>;
  now?: () => number;
  log?: Log;
  /** How often a running task beats (default 10 s). */
  heartbeatMs?: number;
  /** A running task without a beat for this long is taken for dead and resumed (default 45 s). */
  staleMs?: number;
  /** A queued task not taken for this long has lost its job and is sent again (default 20 s). */
  lostAfterMs?: number;
  /** Tasks run at once per instance (default 2: the machine the app runs on has few cores). */
  concurrency?: number;
  retry?: Backoff;
  random?: () => number;
};

const DAY = 24 * 3600_000;
const RETRY: Backoff = { baseMs: 5_000, maxMs: 300_000, jitter: 0.3 };

const encoder = new TextEncoder();

function joined(parts: readonly Uint8Array[]): Uint8Array | undefined {
  if (parts.length === 0) return undefined;
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** A reason for people: the error's message, never its stack (and never more than a line). */
const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split("\n")[0]!.slice(0, 500) || "failed";

export type TaskService = ReturnType<typeof createTaskService>;

export function createTaskService(deps: TaskServiceDeps) {
  const now = deps.now ?? Date.now;
  const heartbeatMs = deps.heartbeatMs ?? 10_000;
  const staleMs = deps.staleMs ?? 45_000;
  const lostAfterMs = deps.lostAfterMs ?? 20_000;
  const running = new Set<Promise<void>>();
  let defined: Promise<JobQueue> | undefined;

  const queue = (): Promise<JobQueue> =>
    (defined ??= (async () => {
      const q = await deps.queue();
      await q.define<{ taskId: string }>({ name: TASK_QUEUE, policy: "standard", concurrency: deps.concurrency ?? 2, handler: (job) => track(runTask(job.taskId)) });
      return q;
    })().catch((error: unknown) => {
      defined = undefined;
      throw error;
    }));

  function track(run: Promise<void>): Promise<void> {
    running.add(run);
    return run.finally(() => running.delete(run));
  }

  async function send(taskId: string, afterMs = 0): Promise<void> {
    try {
      await (await queue()).send(TASK_QUEUE, { taskId }, afterMs > 0 ? { startAfterSeconds: Math.ceil(afterMs / 1000) } : {});
    } catch (error) {
      // The row stays queued: the next sweep sends it again.
      deps.log?.warn({ taskId, err: reasonOf(error) }, "task not sent to the job queue");
    }
  }

  /** One run of one task, if this runner can claim it. Never throws (the queue has nothing to do with a failure). */
  async function runTask(id: string): Promise<void> {
    const store = await deps.store();
    const token = randomUUID();
    if (!(await claimTask(store, id, token, now(), now() - staleMs))) return;
    const found = await findTaskById(store, id);
    if (!found) return;
    const { checkpoint, runToken: _token, ...task } = found;
    const definition = deps.definitions().get(task.kind);
    const key: InstallationKey = { openAppId: task.openAppId, tenantId: task.tenantId };
    const fileTtl = definition?.fileTtlMs ?? DAY;
    const controller = new AbortController();
    let pending: Uint8Array[] = [];
    let written = task.file?.size ?? 0;
    let hasFile = task.file !== null;
    let cancelSeen = false;
    const take = () => {
      const chunk = joined(pending);
      pending = [];
      return chunk;
    };
    const stop = (cancelled: boolean) => {
      if (cancelled) cancelSeen = true;
      controller.abort(new TaskCancelled());
    };
    const beat = setInterval(() => {
      heartbeat(store, id, token, now())
        .then((b) => {
          if (b.cancelRequested || b.lost) stop(b.cancelRequested);
        })
        .catch(() => undefined);
    }, heartbeatMs);
    beat.unref?.();

    const finish = async (outcome: Finish, chunk?: Uint8Array) => {
      try {
        await finishTask(store, id, token, outcome, chunk, now());
      } catch (error) {
        if (!(error instanceof TaskLost)) throw error;
        return;
      }
      await ended(definition, task);
    };

    try {
      if (!definition) {
        await finish({ state: "failed", error: `no task of kind ${task.kind} is defined`, fileExpiresAt: null });
        return;
      }
      const input = definition.parseInput ? definition.parseInput(task.input) : task.input;
      const ctx: TaskContext<unknown, unknown> = {
        task,
        key,
        input,
        checkpoint: checkpoint === null ? undefined : checkpoint,
        signal: controller.signal,
        now,
        async progress(update) {
          const chunk = take();
          const answer = await writeProgress(store, id, token, { ...update, ...(chunk ? { chunk } : {}) }, now());
          written += chunk?.byteLength ?? 0;
          if (answer.cancelRequested) {
            stop(true);
            throw new TaskCancelled();
          }
        },
        async throwIfCancelled() {
          if (!controller.signal.aborted) {
            const b = await heartbeat(store, id, token, now());
            if (b.cancelRequested || b.lost) stop(b.cancelRequested);
          }
          if (controller.signal.aborted) throw new TaskCancelled();
        },
        file: {
          async begin(name, contentType) {
            pending = [];
            await beginFile(store, id, token, name, contentType, now());
            written = 0;
            hasFile = true;
          },
          append(chunk) {
            pending.push(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
          },
          writtenBytes: () => written,
        },
      };
      const result = await definition.run(ctx);
      await finish({ state: "done", result, fileExpiresAt: hasFile ? now() + fileTtl : null }, take());
      deps.log?.info({ taskId: id, kind: task.kind, openAppId: key.openAppId, tenantId: key.tenantId }, "task done");
    } catch (error) {
      if (error instanceof TaskLost) return;
      if (error instanceof TaskCancelled || cancelSeen) {
        // What a cancelled task wrote is half a file: dropped by the next sweep.
        await finish({ state: "cancelled", fileExpiresAt: hasFile ? now() : null });
        return;
      }
      if (controller.signal.aborted) return; // lost to another runner while running
      const reason = reasonOf(error);
      const maxAttempts = definition?.maxAttempts ?? 3;
      // `attempts` counts this run (the claim added it).
      if (task.attempts < maxAttempts && !(error instanceof TaskRefused)) {
        const wait = backoffMs(task.attempts, deps.retry ?? RETRY, deps.random);
        await requeueTask(store, id, token, reason, now() + wait, now());
        deps.log?.warn({ taskId: id, kind: task.kind, attempt: task.attempts, err: reason }, "task failed; tried again later");
        await send(id, wait);
      } else {
        await finish({ state: "failed", error: reason, fileExpiresAt: hasFile ? now() : null });
        deps.log?.warn({ taskId: id, kind: task.kind, err: reason }, "task failed");
      }
    } finally {
      clearInterval(beat);
    }
  }

  /** The definition's `ended`, never throwing (the task's row is already final). */
  async function ended(definition: AnyTaskDefinition | undefined, task: TaskRecord): Promise<void> {
    if (!definition?.ended) return;
    try {
      await definition.ended(task);
    } catch (error) {
      deps.log?.warn({ taskId: task.id, kind: task.kind, err: reasonOf(error) }, "task end hook failed");
    }
  }

  async function runDueSchedules(store: Store): Promise<void> {
    const schedules = deps.schedules?.();
    if (!schedules) return;
    for (const schedule of schedules.values()) {
      const at = now();
      await store.db.insertInto("task_schedules").values({ name: schedule.name, next_run_at: at }).onConflict((oc) => oc.column("name").doNothing()).execute();
      const claimed = await store.db
        .updateTable("task_schedules")
        .set({ next_run_at: at + schedule.everyMs, last_run_at: at })
        .where("name", "=", schedule.name)
        .where("next_run_at", "<=", at)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) continue;
      try {
        await schedule.run(at);
        await store.db.updateTable("task_schedules").set({ last_error: null }).where("name", "=", schedule.name).execute();
      } catch (error) {
        const reason = reasonOf(error);
        deps.log?.warn({ schedule: schedule.name, err: reason }, "scheduled job failed");
        await store.db.updateTable("task_schedules").set({ last_error: reason }).where("name", "=", schedule.name).execute();
      }
    }
  }

  return {
    /**
     * Starts a task of `kind` for the installation. An exclusive kind with one already queued or
     * running answers that one (`started: false`), so a double click starts one task.
     */
    async start(key: InstallationKey, kind: string, input: unknown, actor: TaskActor): Promise<{ task: TaskRecord; started: boolean }> {
      const definition = deps.definitions().get(kind);
      if (!definition) throw new Error(`no task of kind ${kind} is defined`);
      const store = await deps.store();
      for (let attempt = 0; attempt < 3; attempt++) {
        const id = randomUUID();
        if (await insertTask(store, { id, key, kind, input, actor, exclusive: definition.exclusive === "tenant", now: now() })) {
          const task = (await findTask(store, key, id))!;
          await send(id);
          return { task, started: true };
        }
        const existing = await findExclusiveTask(store, kind, key);
        if (existing) return { task: existing, started: false };
        // The one in the way ended between the insert and the read: try again.
      }
      throw new Error(`task ${kind} could not be started`);
    },

    async list(key: InstallationKey, options: { kinds?: readonly string[]; limit?: number } = {}): Promise<TaskRecord[]> {
      return listTasks(await deps.store(), key, { ...(options.kinds ? { kinds: options.kinds } : {}), limit: options.limit ?? 20 });
    },

    /** The task of an exclusive kind queued or running for the installation, if any. */
    async active(key: InstallationKey, kind: string): Promise<TaskRecord | undefined> {
      return findExclusiveTask(await deps.store(), kind, key);
    },

    async get(key: InstallationKey, id: string): Promise<TaskRecord | undefined> {
      return findTask(await deps.store(), key, id);
    },

    /** Asks the task to stop; answers it as it is now (undefined: no such task of this installation). */
    async cancel(key: InstallationKey, id: string, actor: TaskActor): Promise<TaskRecord | undefined> {
      const task = await requestCancel(await deps.store(), key, id, actor, now());
      // A queued task ends here (a running one ends in its runner, which calls `ended`).
      if (task?.state === "cancelled") await ended(deps.definitions().get(task.kind), task);
      return task;
    },

    /** The task's file, streamed from the store, while it is kept (undefined: none, or expired). */
    async openFile(key: InstallationKey, id: string): Promise<{ file: TaskFile; body: ReadableStream<Uint8Array> } | undefined> {
      const store = await deps.store();
      const task = await findTask(store, key, id);
      if (!task?.file || task.state !== "done" || task.file.expiresAt <= now()) return undefined;
      const chunks = readFileChunks(store, id);
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        async cancel() {
          await chunks.return(undefined);
        },
      });
      return { file: task.file, body };
    },

    /** Lost jobs sent again, dead runners' tasks resumed, expired files dropped, due schedules run. */
    async sweep(): Promise<{ resent: number; droppedFiles: number }> {
      const store = await deps.store();
      await queue();
      const at = now();
      const orphans = await orphanedTasks(store, at, at - lostAfterMs, at - staleMs);
      for (const id of orphans) await send(id);
      const droppedFiles = await dropExpiredFiles(store, at);
      await runDueSchedules(store);
      return { resent: orphans.length, droppedFiles };
    },

    /** Defines the queue so this instance takes task jobs (pg-boss: jobs other instances sent). */
    async listen(): Promise<void> {
      await queue();
    },

    /** Waits for this instance's task runs in progress (tests, shutdown). */
    async settled(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running]);
    },

    /** Tests: one run of a task now, as the queue's handler would. */
    runTask: (id: string) => track(runTask(id)),
  };
}
