import "server-only";
import type { PlatformCall } from "@/lib/platform/installation-call";
import { lookupIndexed } from "@/lib/search/index-store";
import { findTenant } from "@/lib/search/tenant-state";
import type { Store } from "@/lib/store/database";
import type { InstallationKey } from "@/lib/store/installations";
import { bulkPlan, type BulkPlanItem } from "./bulk-merge";
import { clustersOf, pairsOf, type Cluster } from "./clusters";
import { mergeDuplicate, type MergeAnswer } from "./duplicate-merge";
import { refreshCustomers, type BirthdayReader } from "./duplicate-scan";
import { dismissedPairs, dismissPair, mergeHistory, sharedKeys, type MergeRecord } from "./duplicate-store";
import type { Rule } from "./match-keys";
import type { TaskActor, TaskRecord } from "@/lib/tasks/task-types";
import { BULK_TASK, SCAN_TASK } from "./duplicate-tasks";
import type { DuplicateCounts, DuplicateQueue, QueueCluster } from "./types";

/**
 * The duplicate finder as the app uses it: the queue (clusters, strongest first), counts, "not the
 * same person", one merge, the bulk merge of one rule with its dry run and history, the whole-tenant
 * pass, and the index events that keep the keys current. Works on the people index's tenant
 * (`search_tenants`): a tenant without an index has no duplicates yet.
 */

export type DuplicateServiceDeps = {
  store: () => Promise<Store>;
  callerFor: (key: InstallationKey) => PlatformCall;
  now?: () => number;
  /** Birthdays read from the platform (default: `customers.list` by id list, §4.1). Tests pass their own. */
  birthdaysFor?: (key: InstallationKey) => BirthdayReader;
  /** The app's background tasks (lib/tasks): the whole-tenant pass and bulk merges run there. */
  tasks: () => DuplicateTasks;
};

/** What the finder uses of the task service. */
export type DuplicateTasks = {
  start(key: InstallationKey, kind: string, input: unknown, actor: TaskActor): Promise<{ task: TaskRecord; started: boolean }>;
  list(key: InstallationKey, options: { kinds?: readonly string[]; limit?: number }): Promise<TaskRecord[]>;
};

/** Who starts the pass that follows a backfill. */
const INDEX_ACTOR: TaskActor = { userId: "system", name: "Customer index" };

/** §4.1 GET /v1/customers with `idList` and `select`: one call per 100 ids. */
export function platformBirthdays(call: PlatformCall): BirthdayReader {
  return async (ids) => {
    if (ids.length === 0) return new Map();
    const { rows } = await call("customers.list", { query: { idList: ids.join(","), select: "id,birthday", rows: ids.length, page: 1 } });
    return new Map(rows.map((r) => [String(r.id), typeof r.birthday === "string" ? r.birthday : null]));
  };
}

export type DuplicateService = ReturnType<typeof createDuplicateService>;

export function createDuplicateService(deps: DuplicateServiceDeps) {
  const now = deps.now ?? Date.now;
  const birthdaysFor = deps.birthdaysFor ?? ((key: InstallationKey) => platformBirthdays(deps.callerFor(key)));

  async function tenantOf(key: InstallationKey): Promise<{ store: Store; tenant: number | null }> {
    const store = await deps.store();
    const state = await findTenant(store, key);
    return { store, tenant: state?.tenant ?? null };
  }

  async function clusters(store: Store, tenant: number, rule?: Rule): Promise<Cluster[]> {
    const groups = (await sharedKeys(store, tenant)).filter((g) => !rule || g.rule === rule);
    return clustersOf(pairsOf(groups, await dismissedPairs(store, tenant)));
  }

  const countsOf = (all: readonly Cluster[]): DuplicateCounts => ({ clusters: all.length, pairs: all.reduce((n, c) => n + c.pairs.length, 0) });

  const startScan = (key: InstallationKey, tenant: number, actor: TaskActor) => deps.tasks().start(key, SCAN_TASK, { tenant }, actor);
  const lastScan = async (key: InstallationKey) => (await deps.tasks().list(key, { kinds: [SCAN_TASK], limit: 1 }))[0] ?? null;

  return {
    async queue(key: InstallationKey, options: { offset: number; limit: number; rule?: Rule }): Promise<DuplicateQueue> {
      const { store, tenant } = await tenantOf(key);
      const scan = await lastScan(key);
      if (tenant === null) return { clusters: [], total: 0, counts: { clusters: 0, pairs: 0 }, scan };
      const all = await clusters(store, tenant);
      const chosen = options.rule ? all.filter((c) => c.rules.includes(options.rule!)) : all;
      const page = chosen.slice(options.offset, options.offset + options.limit);
      const names = new Map((await lookupIndexed(store, tenant, page.flatMap((c) => c.members))).map((h) => [h.id, h]));
      const view = (c: Cluster): QueueCluster => ({
        id: c.id,
        score: c.score,
        rules: c.rules,
        pairs: c.pairs,
        members: c.members.map((id) => {
          const hit = names.get(id);
          return { id, displayName: hit?.displayName ?? null, mobile: hit?.mobile ?? null, email: hit?.email ?? null };
        }),
      });
      return { clusters: page.map(view), total: chosen.length, counts: countsOf(all), scan };
    },

    async counts(key: InstallationKey): Promise<DuplicateCounts> {
      const { store, tenant } = await tenantOf(key);
      return tenant === null ? { clusters: 0, pairs: 0 } : countsOf(await clusters(store, tenant));
    },

    async dismiss(key: InstallationKey, a: string, b: string, by: string | null): Promise<boolean> {
      const { store, tenant } = await tenantOf(key);
      if (tenant === null) return false;
      await dismissPair(store, tenant, a, b, by, now());
      return true;
    },

    async merge(key: InstallationKey, request: { fromId: string; toId: string; rule: Rule | null; by: string | null }, call: PlatformCall): Promise<MergeAnswer | null> {
      const { store, tenant } = await tenantOf(key);
      if (tenant === null) return null;
      return mergeDuplicate({ store, tenant, call, now }, request);
    },

    async plan(key: InstallationKey, rule: Rule): Promise<BulkPlanItem[]> {
      const { store, tenant } = await tenantOf(key);
      return tenant === null ? [] : bulkPlan(store, tenant, rule);
    },

    async history(key: InstallationKey, options: { limit: number; taskId?: string }): Promise<MergeRecord[]> {
      const { store, tenant } = await tenantOf(key);
      return tenant === null ? [] : mergeHistory(store, tenant, options);
    },

    async scan(key: InstallationKey, actor: TaskActor): Promise<{ task: TaskRecord; started: boolean } | null> {
      const { tenant } = await tenantOf(key);
      return tenant === null ? null : startScan(key, tenant, actor);
    },

    async bulk(key: InstallationKey, rule: Rule, actor: TaskActor): Promise<{ task: TaskRecord; started: boolean } | null> {
      const { tenant } = await tenantOf(key);
      return tenant === null ? null : deps.tasks().start(key, BULK_TASK, { tenant, rule }, actor);
    },

    // Index events (lib/search/index-events.ts), subscribed in lib/composition.ts.
    async changed(key: InstallationKey, tenant: number, ids: readonly string[]): Promise<void> {
      await refreshCustomers({ store: await deps.store(), birthdays: birthdaysFor(key) }, tenant, ids);
    },
    async removed(key: InstallationKey, tenant: number, ids: readonly string[]): Promise<void> {
      await refreshCustomers({ store: await deps.store() }, tenant, ids);
    },
    async backfilled(key: InstallationKey, tenant: number): Promise<void> {
      await startScan(key, tenant, INDEX_ACTOR);
    },
  };
}
