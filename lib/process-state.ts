/**
 * The one home of the process's single values: the store, the job queue, the customer index
 * service, the webhook topic and lifecycle registries, the overview cache. Kept on `globalThis`:
 * Next bundles instrumentation (start-up: features subscribe, interrupted refreshes resume) apart
 * from the route handlers, each bundle with its own copy of every module, so a module-level value
 * would exist once per bundle: two stores, two queues, a cache the subscriber cannot reach.
 */
export type ProcessSlot<T> = { get(): T | undefined; set(value: T | undefined): void };

export function processSlot<T>(name: string): ProcessSlot<T> {
  const key = Symbol.for(`engage-console.${name}`);
  const holder = globalThis as unknown as Record<symbol, T | undefined>;
  return {
    get: () => holder[key],
    set: (value) => {
      holder[key] = value;
    },
  };
}

/** The process's value under `name`, made by `create` on first use. */
export function processValue<T>(name: string, create: () => T): T {
  const slot = processSlot<T>(name);
  const existing = slot.get();
  if (existing !== undefined) return existing;
  const made = create();
  slot.set(made);
  return made;
}
