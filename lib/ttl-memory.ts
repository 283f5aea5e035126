/**
 * The one short-lived memory of look-ups in a process (the proxy's sessions and installation tokens,
 * app-auth's sign-in checks): a value per key until a given time, at most `maxEntries` of them (the
 * oldest written goes first), and `sharedLookups` so that who asks while a look-up of the same key
 * runs shares it instead of starting another. Times are passed in: callers own their clock.
 * (The overview's cache, lib/dashboard/dashboard-cache.ts, does another job: it keeps figures past
 * their freshness to show "as of" and throttles refreshes.)
 */
export class TtlMemory<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();

  constructor(private readonly maxEntries: number) {}

  /** The value remembered for `key`, unless it expired by `now`. */
  get(key: string, now: number): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Remembers `value` until `until` (epoch ms). */
  set(key: string, value: T, until: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, until });
  }

  get size(): number {
    return this.entries.size;
  }
}

/** One look-up per key at a time: who asks while it runs shares it (its value or its failure). */
export function sharedLookups<T>(): (key: string, lookup: () => Promise<T>) => Promise<T> {
  const running = new Map<string, Promise<T>>();
  return (key, lookup) => {
    const known = running.get(key);
    if (known) return known;
    const promise = lookup().finally(() => running.delete(key));
    running.set(key, promise);
    return promise;
  };
}
