import type { InstallationKey } from "@/lib/store/installations";
import { processValue } from "@/lib/process-state";

/**
 * What happens to an installation, published by auth and subscribed by features at start-up
 * (lib/composition.ts), so auth calls no feature itself:
 * - `installed`: the marketplace's Install completed for a tenant (first install or again);
 * - `disconnected`: the platform refused the installation's refresh token; it needs a new authorization;
 * - `removed`: the installation's data was deleted (its admin disconnected the app, or it stayed dead
 *   past its grace period): forget whatever the process keeps of it.
 * A subscriber's failure is logged and reaches neither auth nor the other subscribers.
 */
export type LifecycleEvent = { type: "installed"; key: InstallationKey } | { type: "disconnected"; key: InstallationKey } | { type: "removed"; key: InstallationKey };

export type LifecycleType = LifecycleEvent["type"];

export type LifecycleHandler<T extends LifecycleType> = (event: Extract<LifecycleEvent, { type: T }>) => Promise<void>;

type Log = { warn(obj: object, msg: string): void };

export type LifecycleRegistry = {
  on<T extends LifecycleType>(type: T, feature: string, handler: LifecycleHandler<T>): void;
  /** Runs every subscriber of the event; resolves when all settled, never rejects. */
  publish(event: LifecycleEvent, log?: Log): Promise<void>;
};

export function createLifecycleRegistry(): LifecycleRegistry {
  const handlers = new Map<LifecycleType, Array<{ feature: string; handler: (event: LifecycleEvent) => Promise<void> }>>();
  return {
    on(type, feature, handler) {
      handlers.set(type, [...(handlers.get(type) ?? []), { feature, handler: handler as (event: LifecycleEvent) => Promise<void> }]);
    },
    async publish(event, log) {
      await Promise.all(
        (handlers.get(event.type) ?? []).map(({ feature, handler }) =>
          Promise.resolve()
            .then(() => handler(event))
            .catch((cause: unknown) =>
              log?.warn({ feature, event: event.type, openAppId: event.key.openAppId, tenantId: event.key.tenantId, err: cause instanceof Error ? cause.message : String(cause) }, "lifecycle subscriber failed"),
            ),
        ),
      );
    },
  };
}

/** The process's registry (lib/process-state.ts: one per process, not per bundle). */
export function installationLifecycle(): LifecycleRegistry {
  return processValue("installation-lifecycle", createLifecycleRegistry);
}
