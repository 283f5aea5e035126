import "server-only";
import { sql } from "kysely";
import type { Store } from "@/lib/store/database";
import { searchIndex, type IndexFilters } from "./index-store";

/**
 * Whole id sets of the people index, for work that covers every match rather than one page: the
 * ids of a search or a tag (an export of what the customers page shows) and how many customers
 * carry each tag (the tags table, a tag's people).
 */

/** Ids read from the index per query. */
export const ID_PAGE = 500;

/**
 * Every id matching a search, in the index's order, a page at a time (the same matching as the
 * customers page: `searchIndex`). Stops when `signal` aborts.
 */
export async function* searchIds(store: Store, tenant: number, request: IndexFilters & { q?: string }, signal?: AbortSignal, pageSize = ID_PAGE): AsyncGenerator<string[]> {
  for (let offset = 0; ; offset += pageSize) {
    signal?.throwIfAborted();
    const page = await searchIndex(store, tenant, { ...request, limit: pageSize, offset });
    if (page.hits.length > 0) yield page.hits.map((hit) => hit.id);
    if (!page.hasMore) return;
  }
}

/** How many indexed customers carry each of these tags (a tag nobody carries counts 0). */
export async function tagCounts(store: Store, tenant: number, tags: readonly string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = Object.fromEntries(tags.map((tag) => [tag, 0]));
  if (tags.length === 0) return counts;
  const rows = await store.db
    .selectFrom("customer_index_tags")
    .select(["tag", sql<number | string>`count(*)`.as("n")])
    .where("tenant", "=", tenant)
    .where("tag", "in", [...new Set(tags)])
    .groupBy("tag")
    .execute();
  for (const row of rows) counts[row.tag] = Number(row.n);
  return counts;
}
