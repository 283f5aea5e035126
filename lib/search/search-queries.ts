import { appQuery } from "@/lib/api/app-queries";
import { isPlatformId } from "@/lib/platform/ids";
import type { SearchAnswer, SearchHit, SearchParams } from "./types";

/** The console's queries of the app's search routes (the customer index), from the app's route table. */

export function customerSearchQuery(params: SearchParams) {
  return { ...appQuery("search.customers", { query: params }), staleTime: 2_000 };
}

/** The most ids one lookup asks for (the route's limit). */
export const LOOKUP_MAX = 200;

/** Names and contacts of ids (at most 200) from the index; ids it does not hold are simply absent. */
export function customerLookupQuery(ids: readonly string[]) {
  const unique = [...new Set(ids)].filter(isPlatformId).sort().slice(0, LOOKUP_MAX);
  const query = appQuery("search.customers", { query: { ids: unique.join(",") } });
  return {
    ...query,
    queryFn: unique.length === 0 ? () => Promise.resolve({ hits: [] as SearchHit[] } as SearchAnswer) : query.queryFn,
    staleTime: 30_000,
  };
}

/** How many indexed customers carry each tag (the tags table, a tag's people). */
export function tagCountsQuery(tags: readonly string[]) {
  return { ...appQuery("search.tagCounts", { query: { tags: [...new Set(tags)].sort() } }), staleTime: 30_000 };
}

/**
 * The result count of a search page: exact when the index gave it (a tag alone) or when this page
 * is the last; else "more than" the matches up to this page.
 */
export function searchCount(params: Pick<SearchParams, "offset">, page: Pick<SearchAnswer, "hits" | "hasMore">, exact?: number): { count: number; exact: boolean } {
  if (exact !== undefined) return { count: exact, exact: true };
  const seen = (params.offset ?? 0) + page.hits.length;
  return { count: seen, exact: !page.hasMore };
}

export function indexStatusQuery() {
  return {
    ...appQuery("search.status", {}),
    // Faster while the index is being built, so progress moves on screen.
    refetchInterval: (query: { state: { data?: { phase: string } } }) => (query.state.data?.phase === "ready" ? 15_000 : 2_000),
  };
}

/** A display name for a hit: name, else nickName, else undefined. */
export const hitName = (hit: Pick<SearchHit, "displayName" | "name" | "nickName">): string | undefined => hit.displayName || hit.name || hit.nickName || undefined;

/** A hit's contact for a line beside its id: mobile, else email, else undefined. */
export const hitContact = (hit: Pick<SearchHit, "mobile" | "email">): string | undefined => hit.mobile || hit.email || undefined;

/** The hits of a lookup by id, for a page's rows to find their customer's name in one batched query. */
export function hitsById(hits: readonly SearchHit[] | undefined): ReadonlyMap<string, SearchHit> {
  return new Map((hits ?? []).map((hit) => [hit.id, hit]));
}
