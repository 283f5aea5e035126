import "server-only";
import { z } from "zod";
import type { PlatformCall } from "@/lib/platform/installation-call";
import { findTenant } from "@/lib/search/tenant-state";
import type { Store } from "@/lib/store/database";
import type { InstallationKey } from "@/lib/store/installations";
import type { TaskActor, TaskDefinition, TaskRecord } from "@/lib/tasks/task-types";
import { listSegments } from "./segment-store";
import { runSegmentSync, type SegmentSyncCheckpoint, type SegmentSyncInput, type SegmentSyncResult } from "./segment-sync";

/**
 * The segment sync as a background task (lib/tasks): its row carries the input and the checkpoint,
 * so progress is every staff member's to see, and a sync stopped by a restart or a dead instance
 * is resumed by the task runner from the checkpoint (the same run of the history). The schedule
 * starts the syncs of segments kept in step hourly or daily.
 */

export const SEGMENT_SYNC = "segments.sync";

const inputSchema = z.strictObject({
  segmentId: z.string().uuid(),
  listId: z.string().regex(/^\d{1,19}$/).optional(),
  newListName: z.string().min(1).max(255).optional(),
  confirmEveryone: z.boolean().optional(),
});

export type SegmentTaskDeps = { store: () => Promise<Store>; callerFor: (key: InstallationKey) => PlatformCall };

export function segmentSyncTask(deps: SegmentTaskDeps): TaskDefinition<SegmentSyncInput, SegmentSyncResult, SegmentSyncCheckpoint> {
  return {
    kind: SEGMENT_SYNC,
    // Syncs of different segments run side by side; the route and the schedule keep one per segment.
    exclusive: "none",
    maxAttempts: 5,
    parseInput: (raw) => inputSchema.parse(raw),
    async run(ctx) {
      const store = await deps.store();
      const actor = ctx.task.startedBy.userId || ctx.task.startedBy.name ? ctx.task.startedBy : null;
      return runSegmentSync({ ...ctx, actor }, { store, call: deps.callerFor(ctx.key), tenantOf: async (key) => (await findTenant(store, key))?.tenant });
    },
  };
}

export type TaskStarter = {
  start(key: InstallationKey, kind: string, input: unknown, actor: TaskActor): Promise<{ task: TaskRecord; started: boolean }>;
  list(key: InstallationKey, options: { kinds?: readonly string[]; limit?: number }): Promise<TaskRecord[]>;
};

/** The segment's sync queued or running, if any. */
export async function runningSync(tasks: TaskStarter, key: InstallationKey, segmentId: string): Promise<TaskRecord | undefined> {
  const recent = await tasks.list(key, { kinds: [SEGMENT_SYNC], limit: 50 });
  return recent.find((t) => (t.state === "queued" || t.state === "running") && (t.input as { segmentId?: unknown } | null)?.segmentId === segmentId);
}

/** Starts the segment's sync unless one is queued or running (then that one is answered). */
export async function startSync(tasks: TaskStarter, key: InstallationKey, input: SegmentSyncInput, actor: TaskActor): Promise<{ task: TaskRecord; started: boolean }> {
  const running = await runningSync(tasks, key, input.segmentId);
  if (running) return { task: running, started: false };
  return tasks.start(key, SEGMENT_SYNC, input, actor);
}

/** The schedule's actor: no staff member (the history shows "Schedule"). */
const SCHEDULE: TaskActor = { userId: "", name: "" };

/** Segments on a schedule whose last sync is older than their period get a sync started. */
export async function syncDueSegments(store: Store, tasks: TaskStarter, now: number): Promise<number> {
  const tenants = await store.db.selectFrom("segments").select(["open_app_id", "tenant_id"]).distinct().where("schedule", "<>", "off").where("list_id", "is not", null).execute();
  let started = 0;
  for (const row of tenants) {
    const key = { openAppId: row.open_app_id, tenantId: row.tenant_id };
    for (const segment of await listSegments(store, key)) {
      if (segment.schedule === "off" || !segment.listId) continue;
      const period = segment.schedule === "hourly" ? 3_600_000 : 86_400_000;
      if (segment.lastSyncedAt !== null && now - segment.lastSyncedAt < period) continue;
      const result = await startSync(tasks, key, { segmentId: segment.id, listId: segment.listId, confirmEveryone: true }, SCHEDULE);
      if (result.started) started += 1;
    }
  }
  return started;
}
