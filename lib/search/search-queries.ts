import { queryOptions } from "@tanstack/react-query";
import { appGet } from "@/lib/api/browser-fetch";
import type { IndexStatus, SearchAnswer, SearchHit, SearchParams } from "./types";
import { isPlatformId } from "@/lib/platform/ids";

/** The console's queries of the app's search routes (the customer index). */

export const searchKeys = {
  all: ["search"] as const,
  customers: (params: SearchParams) => ["search", "customers", params] as const,
  lookup: (ids: readonly string[]) => ["search", "lookup", [...ids].sort().join(",")] as const,
  status: ["search", "status"] as const,
};

export function searchPath(params: SearchParams): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === "" || value === false) continue;
    query.set(key, String(value));
  }
  return `/api/search/customers?${query.toString()}`;
}

export function customerSearchQuery(params: SearchParams) {
  return queryOptions({
    queryKey: searchKeys.customers(params),
    queryFn: ({ signal }) => appGet<SearchAnswer>(searchPath(params), { signal }),
    staleTime: 2_000,
  });
}

/** Names and contacts of ids (at most 200) from the index; ids it does not hold are simply absent. */
export function customerLookupQuery(ids: readonly string[]) {
  const unique = [...new Set(ids)].filter(isPlatformId).slice(0, 200);
  return queryOptions({
    queryKey: searchKeys.lookup(unique),
    queryFn: ({ signal }) =>
      unique.length === 0 ? Promise.resolve({ hits: [] as SearchHit[] }) : appGet<{ hits: SearchHit[] }>(`/api/search/customers?ids=${unique.join(",")}`, { signal }),
    staleTime: 30_000,
  });
}

export function indexStatusQuery() {
  return queryOptions({
    queryKey: searchKeys.status,
    queryFn: ({ signal }) => appGet<IndexStatus>("/api/search/status", { signal }),
    // Faster while the index is being built, so progress moves on screen.
    refetchInterval: (query) => (query.state.data?.phase === "ready" ? 15_000 : 2_000),
  });
}

/** A display name for a hit: name, else nickName, else undefined. */
export const hitName = (hit: Pick<SearchHit, "displayName" | "name" | "nickName">): string | undefined => hit.displayName || hit.name || hit.nickName || undefined;

/** A hit's contact for a line beside its id: mobile, else email, else undefined. */
export const hitContact = (hit: Pick<SearchHit, "mobile" | "email">): string | undefined => hit.mobile || hit.email || undefined;

/** The hits of a lookup by id, for a page's rows to find their customer's name in one batched query. */
export function hitsById(hits: readonly SearchHit[] | undefined): ReadonlyMap<string, SearchHit> {
  return new Map((hits ?? []).map((hit) => [hit.id, hit]));
}
