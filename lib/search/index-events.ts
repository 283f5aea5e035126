import type { InstallationKey } from "@/lib/store/installations";
import { createEventRegistry, type EventHandler, type EventRegistry } from "@/lib/event-registry";
import { processValue } from "@/lib/process-state";

/**
 * What happened to a tenant's people index after its backfill, for features that keep data derived
 * from it (segment counts, duplicate candidates), subscribed at start-up in lib/composition.ts:
 * - `changed`: these customers were (re)indexed by polling or a webhook (fields or tags);
 * - `removed`: these customers left the index (deleted, merged away);
 * - `backfilled`: the whole tenant was (re)read; derived data should be rebuilt from the index.
 * The backfill's own pages publish nothing: a subscriber rebuilds once, on `backfilled`.
 * A subscriber's failure is logged and reaches neither the sync nor the other subscribers (lib/event-registry.ts).
 */
export type IndexEvent =
  | { type: "changed"; key: InstallationKey; tenant: number; ids: readonly string[] }
  | { type: "removed"; key: InstallationKey; tenant: number; ids: readonly string[] }
  | { type: "backfilled"; key: InstallationKey; tenant: number };

export type IndexEventType = IndexEvent["type"];

export type IndexEventHandler<T extends IndexEventType> = EventHandler<IndexEvent, T>;

export type IndexEventRegistry = EventRegistry<IndexEvent>;

export function createIndexEventRegistry(): IndexEventRegistry {
  return createEventRegistry<IndexEvent>("index event subscriber failed");
}

/** The process's registry (lib/process-state.ts: one per process, not per bundle). */
export function indexEvents(): IndexEventRegistry {
  return processValue("index-events", createIndexEventRegistry);
}
