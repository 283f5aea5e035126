import "server-only";
import { sql } from "kysely";
import type { PlatformCall } from "@/lib/platform/installation-call";
import { runBounded } from "@/lib/batch/bulk-run";
import type { Store } from "@/lib/store/database";
import { patient } from "@/lib/search/sync";

/**
 * A customer's §2.7 statistics beside the people index (`customer_facts`), for the segments'
 * conditions on orders and activity. Read through `customerStatistics` with `customerIds` in
 * batches: the operation takes no `rows`, so a batch is at most §8's default page (20 records);
 * a few batches at a time; a 429/503 waited out (the sync's `patient`, lib/platform backoff).
 * Kept fresh by the index's events (a changed customer, a rebuilt tenant) and order webhooks
 * (lib/composition.ts); "days since the last order" is worked out at query time from the date.
 */

/** §8: a customer query's default `rows`; the statistics operation takes no other. */
export const STATISTICS_BATCH = 20;

export type FactsDeps = {
  store: Store;
  call: PlatformCall;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  concurrency?: number;
  signal?: AbortSignal;
};

type Stat = { customerId?: unknown; orderTotal?: unknown; orderTotalAmount?: unknown; lastOrderDate?: unknown; totalScore?: unknown };

const number = (v: unknown): number | null => {
  if (v === null || v === undefined || v === "") return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};
const time = (v: unknown): string | null => (typeof v === "string" ? (/^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})/.exec(v)?.[1] ?? null) : null);

function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Reads and stores the statistics of these customers; one without a record gets an empty row (no orders). */
export async function refreshFacts(deps: FactsDeps, tenant: number, ids: readonly string[]): Promise<{ calls: number }> {
  const now = deps.now ?? Date.now;
  const unique = [...new Set(ids)];
  let calls = 0;
  const outcome = await runBounded(
    batches(unique, STATISTICS_BATCH),
    async (part) => {
      calls += 1;
      const answer = (await patient(deps, () => deps.call("customers.statistics", { query: { customerIds: part.join(",") } }))) as { items?: Stat[] };
      const found = new Map<string, Stat>();
      for (const item of answer.items ?? []) if (item.customerId !== undefined && item.customerId !== null) found.set(String(item.customerId), item);
      const at = now();
      const rows = part.map((id) => {
        const s = found.get(id);
        return {
          tenant,
          customer_id: id,
          order_count: s ? number(s.orderTotal) : null,
          order_amount: s ? number(s.orderTotalAmount) : null,
          last_order_at: s ? time(s.lastOrderDate) : null,
          activity_score: s ? number(s.totalScore) : null,
          refreshed_at: at,
        };
      });
      await deps.store.db
        .insertInto("customer_facts")
        .values(rows)
        .onConflict((oc) =>
          oc.columns(["tenant", "customer_id"]).doUpdateSet((eb) => ({
            order_count: eb.ref("excluded.order_count"),
            order_amount: eb.ref("excluded.order_amount"),
            last_order_at: eb.ref("excluded.last_order_at"),
            activity_score: eb.ref("excluded.activity_score"),
            refreshed_at: eb.ref("excluded.refreshed_at"),
          })),
        )
        .execute();
    },
    { concurrency: deps.concurrency ?? 4, ...(deps.signal ? { signal: deps.signal } : {}) },
  );
  const failed = outcome.results.find((r) => r.status === "failed");
  if (failed?.status === "failed") throw failed.error;
  return { calls };
}

/** Drops the statistics of customers who left the index. */
export async function removeFacts(store: Store, tenant: number, ids: readonly string[]): Promise<void> {
  for (const part of batches([...new Set(ids)], 400)) await store.db.deleteFrom("customer_facts").where("tenant", "=", tenant).where("customer_id", "in", part).execute();
}

/**
 * Every indexed customer's statistics, oldest refresh first, a page of ids at a time (after a
 * backfill, and on the daily schedule). `limit` bounds one run; the next run continues.
 */
export async function refreshStaleFacts(deps: FactsDeps, tenant: number, options: { olderThan: number; limit: number }): Promise<{ refreshed: number; calls: number }> {
  const { rows } = await sql<{ id: string }>`
    SELECT ci.customer_id AS id FROM customer_index ci LEFT JOIN customer_facts cf ON cf.tenant = ci.tenant AND cf.customer_id = ci.customer_id
    WHERE ci.tenant = ${tenant} AND (cf.refreshed_at IS NULL OR cf.refreshed_at < ${options.olderThan})
    ORDER BY cf.refreshed_at IS NOT NULL, cf.refreshed_at
    LIMIT ${options.limit}`.execute(deps.store.db);
  const ids = rows.map((r) => r.id);
  const { calls } = await refreshFacts(deps, tenant, ids);
  return { refreshed: ids.length, calls };
}
