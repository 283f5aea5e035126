/**
 * Exponential backoff, the one rule for every retry (the platform client, the browser's event
 * import, the sandbox's webhook sender). Zod-free and browser-safe; randomness is injected so that
 * tests choose it.
 */
export type Backoff = {
  baseMs: number;
  /** The exponential part never exceeds this. */
  maxMs: number;
  /** The share of the delay left to chance: 1 = full jitter (0…delay), 0.5 = equal jitter (delay/2…delay), 0 = none. */
  jitter: number;
  /** A `Retry-After` longer than this is waited for only this long (default: as long as it says). */
  maxRetryAfterMs?: number;
};

/**
 * The wait before retry number `retry` (1 for the first): up to min(maxMs, baseMs · 2^(retry−1)),
 * `jitter` of it random; a `Retry-After` (seconds) is a floor.
 */
export function backoffMs(retry: number, policy: Backoff, random: () => number = Math.random, retryAfterSeconds?: number): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** (retry - 1));
  const delay = Math.round(ceiling * (1 - policy.jitter) + ceiling * policy.jitter * random());
  if (retryAfterSeconds === undefined) return delay;
  return Math.max(delay, Math.min(retryAfterSeconds * 1000, policy.maxRetryAfterMs ?? Infinity));
}
