import "server-only";
import type { IndexEventRegistry } from "@/lib/search/index-events";
import type { DuplicateService } from "./duplicate-service";

/**
 * The duplicate finder follows the people index (subscribed in lib/composition.ts): changed and
 * removed customers' keys at once (a new duplicate reaches the queue with its webhook), a whole-tenant
 * pass after each backfill. `service` is called per event (created lazily).
 */
export function subscribeDuplicates(events: IndexEventRegistry, service: () => DuplicateService): void {
  events.on("changed", "duplicates", ({ key, tenant, ids }) => service().changed(key, tenant, ids));
  events.on("removed", "duplicates", ({ key, tenant, ids }) => service().removed(key, tenant, ids));
  events.on("backfilled", "duplicates", async ({ key, tenant }) => service().backfilled(key, tenant));
}
