import "server-only";
import type { PlatformCall } from "@/lib/platform/installation-call";
import { processValue } from "@/lib/process-state";
import { findTenant } from "@/lib/search/tenant-state";
import type { Store } from "@/lib/store/database";
import type { InstallationKey } from "@/lib/store/installations";
import { getSegment, listSegments, type Actor } from "./segment-store";
import { runSegmentSync, type SegmentSyncCheckpoint, type SegmentSyncInput, type SegmentSyncResult } from "./segment-sync";

/**
 * Runs segment syncs in this process until the app's background tasks (lib/tasks) carry them:
 * one sync per segment at a time (a second start answers the running one), progress and history
 * in the store's `segment_sync_runs` (every staff member and instance reads them), the checkpoint
 * kept for a retry in this process. After a restart a sync is not resumed on its own; started
 * again (by staff or the schedule) it sends only what the snapshot lacks, so nothing is doubled.
 */

export type RunnerDeps = { store: () => Promise<Store>; callerFor: (key: InstallationKey) => PlatformCall; now?: () => number; log?: { warn(obj: object, msg: string): void } };

const running = () => processValue("segment-syncs", () => new Map<string, Promise<SegmentSyncResult | undefined>>());
const slot = (key: InstallationKey, segmentId: string) => `${key.openAppId}:${key.tenantId}:${segmentId}`;

export function isSyncRunning(key: InstallationKey, segmentId: string): boolean {
  return running().has(slot(key, segmentId));
}

/** Starts a sync unless one of the segment runs (then `started` is false and `done` is the running one's). */
export async function startSegmentSync(deps: RunnerDeps, key: InstallationKey, input: SegmentSyncInput, actor: Actor | null): Promise<{ started: boolean; done: Promise<SegmentSyncResult | undefined> }> {
  const id = slot(key, input.segmentId);
  const current = running().get(id);
  if (current) return { started: false, done: current };
  const store = await deps.store();
  const now = deps.now ?? Date.now;
  let checkpoint: SegmentSyncCheckpoint | undefined;
  const attempt = () =>
    runSegmentSync(
      {
        key,
        input,
        checkpoint,
        actor,
        signal: new AbortController().signal,
        now,
        async progress(update) {
          if (update.checkpoint) checkpoint = update.checkpoint;
        },
      },
      { store, call: deps.callerFor(key), tenantOf: async (k) => (await findTenant(store, k))?.tenant },
    );
  // The route checked what would refuse the sync (segment-routes.ts); what fails now is logged and kept in the run.
  const done = attempt()
    .catch(async (error: unknown) => {
      if (checkpoint === undefined) throw error;
      // One more try from the checkpoint (an outage that outlasted the backoff).
      deps.log?.warn({ segmentId: input.segmentId, err: error instanceof Error ? error.message : String(error) }, "segment sync failed; trying again from its checkpoint");
      return attempt();
    })
    .catch((error: unknown) => {
      deps.log?.warn({ segmentId: input.segmentId, err: error instanceof Error ? error.message : String(error) }, "segment sync failed");
      return undefined;
    })
    .finally(() => running().delete(id));
  running().set(id, done);
  return { started: true, done };
}

/** Segments on a schedule whose last sync is older than their period: synced now (the schedule's work). */
export async function syncDueSegments(deps: RunnerDeps, keys: readonly InstallationKey[], now = Date.now()): Promise<number> {
  const store = await deps.store();
  let started = 0;
  for (const key of keys) {
    for (const segment of await listSegments(store, key)) {
      if (segment.schedule === "off" || !segment.listId) continue;
      const period = segment.schedule === "hourly" ? 3_600_000 : 86_400_000;
      if (segment.lastSyncedAt !== null && now - segment.lastSyncedAt < period) continue;
      const fresh = await getSegment(store, key, segment.id);
      if (!fresh?.listId) continue;
      const result = await startSegmentSync(deps, key, { segmentId: segment.id, listId: fresh.listId, confirmEveryone: true }, null).catch(() => undefined);
      if (result?.started) started += 1;
    }
  }
  return started;
}
