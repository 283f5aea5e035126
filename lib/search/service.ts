import "server-only";
import type { JobQueue } from "@/lib/jobs/queue";
import { id } from "@/lib/platform/schema-helpers";
import type { Store } from "@/lib/store/database";
import type { WebhookEvent } from "@/lib/webhooks/topics";
import { lookupIndexed, searchIndex, type IndexFilters, type SearchHit, type SearchRequest, type SearchResult } from "./index-store";
import { searchIds, tagCounts } from "./index-ids";
import type { PlatformCall } from "@/lib/platform/installation-call";
import type { InstallationKey } from "@/lib/store/installations";
import { applyChange, backfill, poll, type CustomerChange, type SyncDeps } from "./sync";
import type { IndexStatus } from "./types";
import { ensureTenant, findTenant, removeTenantIndex, restartTenant, updateTenant } from "./tenant-state";

/**
 * The customer index as the app uses it: search and lookups for a signed-in installation, the
 * sync started on first use and kept going (a poll every `pollSeconds` while the app runs, each
 * webhook applied as it arrives), status for Settings, a manual re-sync, removal with the
 * installation. Background work goes through the job queue (lib/jobs), one sync per tenant at a time.
 */

export const SYNC_QUEUE = "customer-index-sync";
export const CHANGE_QUEUE = "customer-index-change";

export type SearchServiceDeps = {
  store: () => Promise<Store>;
  queue: () => Promise<JobQueue>;
  /** A platform caller for an installation (its token, refreshed as needed). */
  callerFor: (key: InstallationKey) => PlatformCall;
  enabled: boolean;
  now?: () => number;
  pollSeconds?: number;
  sync?: Partial<Omit<SyncDeps, "store" | "call">>;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
};

export type { IndexStatus };

/** The index's error while its installation waits for a new authorization (the next good poll clears it). */
export const DISCONNECTED = "the installation must be authorized again";

type SyncJob = InstallationKey & { force?: boolean };
type ChangeJob = InstallationKey & CustomerChange;


export type SearchService = ReturnType<typeof createSearchService>;

export function createSearchService(deps: SearchServiceDeps) {
  const now = deps.now ?? Date.now;
  const pollSeconds = deps.pollSeconds ?? 30;
  let defined: Promise<JobQueue> | undefined;
  const singletonKey = (key: InstallationKey) => `${key.openAppId}:${key.tenantId}`;

  const syncDeps = async (key: InstallationKey): Promise<SyncDeps> => ({ ...deps.sync, store: await deps.store(), call: deps.callerFor(key), now, ...(deps.log ? { log: deps.log } : {}) });

  const queue = (): Promise<JobQueue> =>
    (defined ??= (async () => {
      const q = await deps.queue();
      await q.define<SyncJob>({
        name: SYNC_QUEUE,
        policy: "stately",
        concurrency: 2,
        handler: async (job) => {
          const key = { openAppId: job.openAppId, tenantId: job.tenantId };
          const sd = await syncDeps(key);
          try {
            const state = await backfill(sd, key);
            if (state.phase === "ready") await poll(sd, key);
          } catch (error) {
            const state = await findTenant(sd.store, key);
            if (state) await updateTenant(sd.store, state.tenant, { error: error instanceof Error ? error.message.slice(0, 500) : "sync failed" });
            throw error;
          } finally {
            // The next poll while the app runs (dropped when one already waits).
            if (pollSeconds > 0) await q.send<SyncJob>(SYNC_QUEUE, { ...key }, { singletonKey: singletonKey(key), startAfterSeconds: pollSeconds }).catch(() => false);
          }
        },
      });
      await q.define<ChangeJob>({
        name: CHANGE_QUEUE,
        policy: "standard",
        concurrency: 4,
        handler: async (job) => {
          const key = { openAppId: job.openAppId, tenantId: job.tenantId };
          await applyChange(await syncDeps(key), key, { resource: job.resource, action: job.action, id: job.id, data: job.data });
        },
      });
      return q;
    })().catch((error: unknown) => {
      defined = undefined;
      throw error;
    }));

  /** Starts (or resumes) the backfill, or a poll when the last one is older than `pollSeconds`. */
  async function requestSync(key: InstallationKey, options: { force?: boolean } = {}): Promise<void> {
    if (!deps.enabled) return;
    const store = await deps.store();
    const state = await findTenant(store, key);
    const stale = !state || state.phase === "backfill" || state.syncedAt === null || now() - state.syncedAt >= pollSeconds * 1000;
    if (!stale && !options.force) return;
    if (!state) await ensureTenant(store, key);
    await (await queue()).send<SyncJob>(SYNC_QUEUE, { ...key }, { singletonKey: singletonKey(key) });
  }

  return {
    requestSync,

    async search(key: InstallationKey, request: SearchRequest): Promise<SearchResult & { status: IndexStatus }> {
      const store = await deps.store();
      const state = await findTenant(store, key);
      void requestSync(key).catch((error: unknown) => deps.log?.warn({ err: String(error) }, "customer index sync not started"));
      const result = state ? await searchIndex(store, state.tenant, request) : { hits: [], hasMore: false };
      return { ...result, status: await this.status(key) };
    },

    async lookup(key: InstallationKey, ids: readonly string[]): Promise<SearchHit[]> {
      const store = await deps.store();
      const state = await findTenant(store, key);
      return state ? lookupIndexed(store, state.tenant, ids) : [];
    },

    /** Every id a search or tag matches, a page at a time (an export of what the customers page shows). */
    async *ids(key: InstallationKey, request: IndexFilters & { q?: string }, signal?: AbortSignal): AsyncGenerator<string[]> {
      const store = await deps.store();
      const state = await findTenant(store, key);
      if (state) yield* searchIds(store, state.tenant, request, signal);
    },

    /** How many indexed customers carry each tag. */
    async tagCounts(key: InstallationKey, tags: readonly string[]): Promise<Record<string, number>> {
      const store = await deps.store();
      const state = await findTenant(store, key);
      return state ? tagCounts(store, state.tenant, tags) : Object.fromEntries(tags.map((tag) => [tag, 0]));
    },

    async status(key: InstallationKey): Promise<IndexStatus> {
      const state = await findTenant(await deps.store(), key);
      if (!state) return { enabled: deps.enabled, phase: "none", indexed: 0, total: null, secondsLeft: null, lastChangeAt: null, syncedAt: null, error: null };
      let secondsLeft: number | null = null;
      if (state.phase === "backfill" && state.startedAt !== null && state.total !== null && state.indexed > 0) {
        const rate = state.indexed / Math.max(1, now() - state.startedAt);
        secondsLeft = Math.max(0, Math.round((state.total - state.indexed) / rate / 1000));
      }
      return { enabled: deps.enabled, phase: state.phase, indexed: state.indexed, total: state.total, secondsLeft, lastChangeAt: state.lastChangeAt, syncedAt: state.syncedAt, error: state.error };
    },

    /** Manual re-sync: the index emptied and read again from the platform. */
    async resync(key: InstallationKey): Promise<void> {
      const store = await deps.store();
      const state = await ensureTenant(store, key);
      await restartTenant(store, state.tenant);
      await requestSync(key, { force: true });
    },

    /**
     * A stored webhook delivery (lib/search/webhooks.ts lists the topics): queued as a change with
     * its ids as decimal strings (the job's data is plain JSON); `data` comes parsed, losslessly.
     */
    async applyWebhook({ delivery, data }: Pick<WebhookEvent, "delivery" | "data">): Promise<void> {
      const { resource, action, resourceId } = delivery;
      if (!deps.enabled || !resource || !action || !resourceId) return;
      const key = { openAppId: delivery.openAppId, tenantId: delivery.tenantId };
      if (!(await findTenant(await deps.store(), key))) return;
      const fromId = id.safeParse(data.fromId);
      const change: CustomerChange = { resource, action, id: resourceId, ...(fromId.success ? { data: { fromId: fromId.data } } : {}) };
      await (await queue()).send<ChangeJob>(CHANGE_QUEUE, { ...key, ...change });
    },

    /** A (re)install from the marketplace: the tenant's index starts afresh, read again from the platform. */
    async reinstalled(key: InstallationKey): Promise<void> {
      await removeTenantIndex(await deps.store(), key);
      await requestSync(key);
    },

    /** The platform refused the installation's refresh token: the index status (`GET /api/search/status`) says why it stops following. */
    async disconnected(key: InstallationKey): Promise<void> {
      const store = await deps.store();
      const state = await findTenant(store, key);
      if (state) await updateTenant(store, state.tenant, { error: DISCONNECTED });
    },

    /** The installation reset or removed: its index and sync state leave the store. */
    async remove(key: InstallationKey): Promise<void> {
      await removeTenantIndex(await deps.store(), key);
    },

    /** Tests and benches: waits for the queue to drain. */
    async idle(): Promise<void> {
      await (await queue()).idle();
    },
  };
}
