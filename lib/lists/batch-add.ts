import { ApiError } from "@/lib/http/api-error";
import type { ListMember } from "@/lib/platform/resources";
import { runBounded } from "@/lib/batch/bulk-run";
import { chunk } from "@/lib/batch/member-ids";

/**
 * Adding many customers to a list through `listMembersBatch` (§4.4), chunk by chunk, with a result
 * per id. §4.4 does not say how a batch with one bad item fails; the sandbox refuses the whole
 * batch. So a refused chunk is split in halves and retried until the ids that fail stand alone,
 * each with the platform's reason; the others are added. A transient failure (network, 429, 5xx)
 * is not split: its ids are reported failed with that reason, and can be retried. Chunks go one
 * after another through `runBounded` (bulk-run.ts), which also stops between chunks when aborted.
 */

export type ItemResult = { customerId: string; status: "added"; memberId: string } | { customerId: string; status: "failed"; reason: string; error: unknown };

export type BatchProgress = { done: number; total: number; added: number; failed: number };

export type SendBatch = (items: { customerId: string; listId: string }[]) => Promise<{ items: ListMember[] }>;

export async function addInBatches(
  listId: string,
  ids: readonly string[],
  send: SendBatch,
  options: { chunkSize?: number; onProgress?: (progress: BatchProgress, results: readonly ItemResult[]) => void; signal?: AbortSignal } = {},
): Promise<ItemResult[]> {
  const results: ItemResult[] = [];
  const progress: BatchProgress = { done: 0, total: ids.length, added: 0, failed: 0 };
  const record = (items: ItemResult[]) => {
    for (const item of items) {
      results.push(item);
      progress.done += 1;
      if (item.status === "added") progress.added += 1;
      else progress.failed += 1;
    }
  };

  const attempt = async (part: readonly string[]): Promise<void> => {
    try {
      const answer = await send(part.map((customerId) => ({ customerId, listId })));
      const byCustomer = new Map(answer.items.map((m) => [String(m.customerId), m] as const));
      record(
        part.map((customerId) => {
          const member = byCustomer.get(customerId);
          return member?.id
            ? { customerId, status: "added" as const, memberId: String(member.id) }
            : { customerId, status: "failed" as const, reason: "missing from the answer", error: undefined };
        }),
      );
    } catch (error) {
      const transient = error instanceof ApiError ? error.transient || error.status === 401 : true;
      if (part.length === 1 || transient) {
        const reason = error instanceof Error ? error.message : String(error);
        record(part.map((customerId) => ({ customerId, status: "failed" as const, reason, error })));
        return;
      }
      const half = Math.ceil(part.length / 2);
      await attempt(part.slice(0, half));
      await attempt(part.slice(half));
    }
  };

  // `attempt` records its own results (a split chunk yields several), so it never rejects.
  await runBounded(chunk(ids, options.chunkSize), attempt, {
    concurrency: 1,
    signal: options.signal,
    onProgress: () => options.onProgress?.({ ...progress }, results),
  });
  return results;
}
