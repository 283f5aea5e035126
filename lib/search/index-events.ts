import type { InstallationKey } from "@/lib/store/installations";
import { processValue } from "@/lib/process-state";

/**
 * What happened to a tenant's people index after its backfill, for features that keep data derived
 * from it (segment counts, duplicate candidates), subscribed at start-up in lib/composition.ts:
 * - `changed`: these customers were (re)indexed by polling or a webhook (fields or tags);
 * - `removed`: these customers left the index (deleted, merged away);
 * - `backfilled`: the whole tenant was (re)read; derived data should be rebuilt from the index.
 * The backfill's own pages publish nothing: a subscriber rebuilds once, on `backfilled`.
 * A subscriber's failure is logged and reaches neither the sync nor the other subscribers.
 */
export type IndexEvent =
  | { type: "changed"; key: InstallationKey; tenant: number; ids: readonly string[] }
  | { type: "removed"; key: InstallationKey; tenant: number; ids: readonly string[] }
  | { type: "backfilled"; key: InstallationKey; tenant: number };

export type IndexEventType = IndexEvent["type"];

export type IndexEventHandler<T extends IndexEventType> = (event: Extract<IndexEvent, { type: T }>) => Promise<void>;

type Log = { warn(obj: object, msg: string): void };

export type IndexEventRegistry = {
  on<T extends IndexEventType>(type: T, feature: string, handler: IndexEventHandler<T>): void;
  /** Runs every subscriber of the event; resolves when all settled, never rejects. */
  publish(event: IndexEvent, log?: Log): Promise<void>;
};

export function createIndexEventRegistry(): IndexEventRegistry {
  const handlers = new Map<IndexEventType, Array<{ feature: string; handler: (event: IndexEvent) => Promise<void> }>>();
  return {
    on(type, feature, handler) {
      // Re-subscribing a feature (a second start-up in one process) replaces, never doubles, its handler.
      const others = (handlers.get(type) ?? []).filter((h) => h.feature !== feature);
      handlers.set(type, [...others, { feature, handler: handler as (event: IndexEvent) => Promise<void> }]);
    },
    async publish(event, log) {
      await Promise.all(
        (handlers.get(event.type) ?? []).map(({ feature, handler }) =>
          Promise.resolve()
            .then(() => handler(event))
            .catch((cause: unknown) =>
              log?.warn({ feature, event: event.type, openAppId: event.key.openAppId, tenantId: event.key.tenantId, err: cause instanceof Error ? cause.message : String(cause) }, "index event subscriber failed"),
            ),
        ),
      );
    },
  };
}

/** The process's registry (lib/process-state.ts: one per process, not per bundle). */
export function indexEvents(): IndexEventRegistry {
  return processValue("index-events", createIndexEventRegistry);
}
