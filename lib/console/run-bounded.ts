/**
 * Runs `work` over `items` with at most `limit` calls in flight: one request per item (the tag
 * services take one customer per call, §4.5) without flooding the proxy or the platform's rate limit.
 * Results come back in the order of `items`; a failure is a result, not a throw. After `signal`
 * aborts, no new item starts (those in flight finish) and the unstarted ones are left out.
 */

export type Outcome<T, R> = { item: T; ok: true; value: R } | { item: T; ok: false; error: unknown };

export async function runBounded<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
  options: { signal?: AbortSignal; onSettled?: (outcome: Outcome<T, R>, settled: number) => void } = {},
): Promise<Outcome<T, R>[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError("limit must be a positive integer");
  const outcomes: Array<Outcome<T, R> | undefined> = new Array(items.length);
  let next = 0;
  let settled = 0;
  const lane = async () => {
    while (next < items.length && !options.signal?.aborted) {
      const index = next++;
      const item = items[index]!;
      let outcome: Outcome<T, R>;
      try {
        outcome = { item, ok: true, value: await work(item) };
      } catch (error) {
        outcome = { item, ok: false, error };
      }
      outcomes[index] = outcome;
      settled += 1;
      options.onSettled?.(outcome, settled);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return outcomes.filter((o): o is Outcome<T, R> => o !== undefined);
}
