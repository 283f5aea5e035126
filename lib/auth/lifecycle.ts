import type { InstallationKey } from "@/lib/store/installations";
import { createEventRegistry, type EventHandler, type EventRegistry } from "@/lib/event-registry";
import { processValue } from "@/lib/process-state";

/**
 * What happens to an installation, published by auth and subscribed by features at start-up
 * (lib/composition.ts), so auth calls no feature itself:
 * - `installed`: the marketplace's Install completed for a tenant (first install or again);
 * - `disconnected`: the platform refused the installation's refresh token; it needs a new authorization;
 * - `removed`: the installation's data was deleted (its admin disconnected the app, or it stayed dead
 *   past its grace period): forget whatever the process keeps of it.
 * A subscriber's failure is logged and reaches neither auth nor the other subscribers (lib/event-registry.ts).
 */
export type LifecycleEvent = { type: "installed"; key: InstallationKey } | { type: "disconnected"; key: InstallationKey } | { type: "removed"; key: InstallationKey };

export type LifecycleType = LifecycleEvent["type"];

export type LifecycleHandler<T extends LifecycleType> = EventHandler<LifecycleEvent, T>;

export type LifecycleRegistry = EventRegistry<LifecycleEvent>;

export function createLifecycleRegistry(): LifecycleRegistry {
  return createEventRegistry<LifecycleEvent>("lifecycle subscriber failed");
}

/** The process's registry (lib/process-state.ts: one per process, not per bundle). */
export function installationLifecycle(): LifecycleRegistry {
  return processValue("installation-lifecycle", createLifecycleRegistry);
}
