/**
 * One task per item (a platform call per customer, or per chunk of customers) with at most
 * `concurrency` in flight, cancellable, and a result per item. The platform has no bulk endpoint for
 * deleting or tagging customers (§4.1, §4.5), so bulk actions are many small calls; bounding them
 * keeps the proxy and the platform's (unstated, §8) rate limits out of trouble.
 *
 * Cancelling stops *starting* tasks; a task already sent is awaited and reported, because a request
 * that left may have taken effect (a delete cannot be "un-sent"). Items never started are listed.
 */

/** Calls at once for a bulk action: a few, not hundreds. */
export const BULK_CONCURRENCY = 4;

export type Settled<I, T> = { item: I; status: "done"; value: T } | { item: I; status: "failed"; error: unknown };

export type RunProgress = { done: number; total: number; succeeded: number; failed: number };

export type RunOutcome<I, T> = {
  /** A result per started item, in the order of the input (not of completion). */
  results: Settled<I, T>[];
  /** Items not started because the run was cancelled, in input order. */
  notStarted: I[];
  cancelled: boolean;
};

export type RunOptions<I, T> = {
  concurrency?: number;
  signal?: AbortSignal;
  /** After every settled task: counts so far, and the result that just settled. */
  onProgress?: (progress: RunProgress, last: Settled<I, T>) => void;
};

export function progressOf(results: readonly Settled<unknown, unknown>[], total: number): RunProgress {
  const failed = results.filter((r) => r.status === "failed").length;
  return { done: results.length, total, succeeded: results.length - failed, failed };
}

export async function runBounded<I, T>(items: readonly I[], task: (item: I, index: number) => Promise<T>, options: RunOptions<I, T> = {}): Promise<RunOutcome<I, T>> {
  const concurrency = options.concurrency ?? BULK_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError("concurrency must be a positive integer");
  const slots: (Settled<I, T> | undefined)[] = new Array(items.length);
  const progress: RunProgress = { done: 0, total: items.length, succeeded: 0, failed: 0 };
  let next = 0;

  const settle = (index: number, result: Settled<I, T>) => {
    slots[index] = result;
    progress.done += 1;
    if (result.status === "done") progress.succeeded += 1;
    else progress.failed += 1;
    options.onProgress?.({ ...progress }, result);
  };

  // Each worker takes the next item until none is left or the run is cancelled.
  const worker = async () => {
    while (next < items.length && !options.signal?.aborted) {
      const index = next++;
      const item = items[index]!;
      let result: Settled<I, T>;
      try {
        result = { item, status: "done", value: await task(item, index) };
      } catch (error) {
        result = { item, status: "failed", error };
      }
      settle(index, result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));

  const results = slots.filter((r): r is Settled<I, T> => r !== undefined);
  return { results, notStarted: items.slice(next), cancelled: next < items.length };
}
