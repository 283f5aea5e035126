import type { InstallationKey } from "@/lib/store/installations";

/**
 * A registry of a tenant's events (`{ type, key, … }`) that features subscribe to at start-up
 * (lib/composition.ts) and a publisher sends without knowing them: the installation's life cycle
 * (lib/auth/lifecycle.ts) and the people index's changes (lib/search/index-events.ts). A subscriber's
 * failure is logged and reaches neither the publisher nor the other subscribers; subscribing a
 * feature again (a second start-up in one process) replaces its handler, never doubles it.
 */
export type KeyedEvent = { type: string; key: InstallationKey };

export type EventHandler<E extends KeyedEvent, T extends E["type"]> = (event: Extract<E, { type: T }>) => Promise<void>;

type Log = { warn(obj: object, msg: string): void };

export type EventRegistry<E extends KeyedEvent> = {
  on<T extends E["type"]>(type: T, feature: string, handler: EventHandler<E, T>): void;
  /** Runs every subscriber of the event; resolves when all settled, never rejects. */
  publish(event: E, log?: Log): Promise<void>;
};

/** `failure`: the log line of a subscriber that failed ("lifecycle subscriber failed"). */
export function createEventRegistry<E extends KeyedEvent>(failure: string): EventRegistry<E> {
  const handlers = new Map<E["type"], Array<{ feature: string; handler: (event: E) => Promise<void> }>>();
  return {
    on(type, feature, handler) {
      const others = (handlers.get(type) ?? []).filter((h) => h.feature !== feature);
      handlers.set(type, [...others, { feature, handler: handler as (event: E) => Promise<void> }]);
    },
    async publish(event, log) {
      await Promise.all(
        (handlers.get(event.type) ?? []).map(({ feature, handler }) =>
          Promise.resolve()
            .then(() => handler(event))
            .catch((cause: unknown) =>
              log?.warn({ feature, event: event.type, openAppId: event.key.openAppId, tenantId: event.key.tenantId, err: cause instanceof Error ? cause.message : String(cause) }, failure),
            ),
        ),
      );
    },
  };
}
