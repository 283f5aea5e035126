/**
 * A short cache of the overview per tenant installation, in the process: staff opening the home page
 * again within CACHE_TTL_MS see the same figures ("as of HH:MM") without a single platform call, and
 * several tabs opening it at once share one computation (single flight). A refresh recomputes, but not
 * more often than MIN_REFRESH_MS: a double click or a refresh storm costs the platform one run. A
 * (re)install of the app from the marketplace forgets the tenant's figures (`forgetInstallationFigures`):
 * the tenant starts afresh, as its customer index does, and is never served figures of before.
 */

import { processValue } from "@/lib/process-state";

export const CACHE_TTL_MS = 2 * 60_000;
export const MIN_REFRESH_MS = 10_000;
/** Tenants kept; the oldest entry goes first beyond this. */
export const MAX_ENTRIES = 500;

type Entry<T> = { at: number; value?: T; pending?: Promise<T> };

export type DashboardCache<T> = {
  /** The fresh cached value, or undefined (no computation is started). */
  peek(key: string): { value: T; at: number } | undefined;
  /** The cached value when fresh (or the computation in flight), else a new computation. */
  get(key: string, compute: () => Promise<T>): Promise<{ value: T; at: number; cached: boolean }>;
  /** A new computation unless the last one is younger than MIN_REFRESH_MS (or one is in flight). */
  refresh(key: string, compute: () => Promise<T>): Promise<{ value: T; at: number; cached: boolean }>;
  /** Drops the key's figures; a computation in flight no longer fills the cache. */
  forget(key: string): void;
};

/** The cache key of a tenant installation. */
export const installationCacheKey = (key: { openAppId: string; tenantId: string }) => `${key.openAppId}\u0000${key.tenantId}`;

/** The process's cache of overviews, one entry per tenant installation (lib/process-state.ts: one per process, not per bundle). */
export function sharedDashboardCache<T>(): DashboardCache<T> {
  return processValue<DashboardCache<unknown>>("dashboard-cache", () => createDashboardCache<unknown>()) as DashboardCache<T>;
}

/** After a (re)install from the marketplace: the tenant's next overview is computed anew. */
export function forgetInstallationFigures(key: { openAppId: string; tenantId: string }): void {
  sharedDashboardCache().forget(installationCacheKey(key));
}

export function createDashboardCache<T>(now: () => number = Date.now, ttlMs = CACHE_TTL_MS): DashboardCache<T> {
  const entries = new Map<string, Entry<T>>();

  const start = (key: string, compute: () => Promise<T>, previous?: Entry<T>) => {
    const entry: Entry<T> = { at: previous?.at ?? 0, value: previous?.value };
    const pending = compute().then(
      (value) => {
        entry.value = value;
        entry.at = now();
        entry.pending = undefined;
        return value;
      },
      (error: unknown) => {
        // A failed run is not cached: the next request tries again (the old value stays until it expires).
        entry.pending = undefined;
        if (entry.value === undefined && entries.get(key) === entry) entries.delete(key);
        throw error;
      },
    );
    entry.pending = pending;
    entries.delete(key);
    entries.set(key, entry);
    while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    return pending.then((value) => ({ value, at: entry.at, cached: false }));
  };

  const fresh = (entry: Entry<T> | undefined, maxAge: number) => entry?.value !== undefined && now() - entry.at < maxAge;

  return {
    peek(key) {
      const entry = entries.get(key);
      return fresh(entry, ttlMs) ? { value: entry!.value!, at: entry!.at } : undefined;
    },
    get(key, compute) {
      const entry = entries.get(key);
      if (entry?.pending) return entry.pending.then((value) => ({ value, at: entry.at, cached: false }));
      if (fresh(entry, ttlMs)) return Promise.resolve({ value: entry!.value!, at: entry!.at, cached: true });
      return start(key, compute, entry);
    },
    refresh(key, compute) {
      const entry = entries.get(key);
      if (entry?.pending) return entry.pending.then((value) => ({ value, at: entry.at, cached: false }));
      if (fresh(entry, Math.min(MIN_REFRESH_MS, ttlMs))) return Promise.resolve({ value: entry!.value!, at: entry!.at, cached: true });
      return start(key, compute, entry);
    },
    forget(key) {
      entries.delete(key);
    },
  };
}
