import "server-only";
import type { IndexEventRegistry } from "@/lib/search/index-events";
import { findTenant } from "@/lib/search/tenant-state";
import type { PlatformCall } from "@/lib/platform/installation-call";
import type { Store } from "@/lib/store/database";
import type { InstallationKey } from "@/lib/store/installations";
import { processValue } from "@/lib/process-state";
import { WEBHOOK_TOPICS, type TopicRegistry, type WebhookTopic } from "@/lib/webhooks/topics";
import { refreshFacts, refreshStaleFacts, removeFacts } from "./customer-facts";

/**
 * Keeps `customer_facts` (§2.7 statistics beside the index) in step: a customer (re)indexed by a
 * webhook or a poll gets its statistics read again; one who left the index loses them; an order
 * or event webhook refreshes its customer (statistics change with orders, not with the customer);
 * a rebuilt tenant has every customer's statistics read, in the background, oldest first.
 */

export type FactsSubscriberDeps = { store: () => Promise<Store>; callerFor: (key: InstallationKey) => PlatformCall; now?: () => number; log?: { warn(obj: object, msg: string): void } };

/** Order and event topics: their `data.customerId` names whose statistics changed. */
export const FACTS_TOPICS: readonly WebhookTopic[] = WEBHOOK_TOPICS.filter((topic) => /^(order|event)\./.test(topic));

/** Statistics per background pass after a rebuild (a pass is repeated until every customer has them). */
const REBUILD_PASS = 2_000;

export function subscribeCustomerFacts(registries: { events: IndexEventRegistry; topics: TopicRegistry }, deps: FactsSubscriberDeps): void {
  const now = deps.now ?? Date.now;
  const factsDeps = async (key: InstallationKey) => ({ store: await deps.store(), call: deps.callerFor(key), now });

  registries.events.on("changed", "segments", async ({ key, tenant, ids }) => {
    await refreshFacts(await factsDeps(key), tenant, ids);
  });
  registries.events.on("removed", "segments", async ({ key, tenant, ids }) => {
    await removeFacts((await factsDeps(key)).store, tenant, ids);
  });
  registries.events.on("backfilled", "segments", async ({ key, tenant }) => {
    // Not awaited: the sync's publish waits for its subscribers, and a large tenant takes a while.
    const rebuilding = processValue("segment-facts-rebuilds", () => new Set<number>());
    if (rebuilding.has(tenant)) return;
    rebuilding.add(tenant);
    const startedAt = now();
    void (async () => {
      const d = await factsDeps(key);
      for (;;) {
        const { refreshed } = await refreshStaleFacts(d, tenant, { olderThan: startedAt, limit: REBUILD_PASS });
        if (refreshed < REBUILD_PASS) break;
      }
    })()
      .catch((error: unknown) => deps.log?.warn({ tenant, err: error instanceof Error ? error.message : String(error) }, "customer statistics rebuild stopped"))
      .finally(() => rebuilding.delete(tenant));
  });
  registries.topics.on(FACTS_TOPICS, "segments", async (event) => {
    const customerId = event.data.customerId;
    const id = typeof customerId === "string" || typeof customerId === "number" || typeof customerId === "bigint" ? String(customerId) : undefined;
    if (!id || !/^\d{1,19}$/.test(id)) return;
    const key = { openAppId: event.delivery.openAppId, tenantId: event.delivery.tenantId };
    const d = await factsDeps(key);
    const state = await findTenant(d.store, key);
    if (state) await refreshFacts(d, state.tenant, [id]);
  });
}
