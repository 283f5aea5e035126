import { queryOptions, type QueryClient } from "@tanstack/react-query";
import type { InputOf, OutputOf } from "@/lib/platform/operations";
import type { BrowserOperationName } from "@/lib/platform/routes";
import { platformFetch, type BrowserFetch } from "./browser-fetch";
import { invalidatedKeys, platformKeys } from "./query-keys";

/**
 * `queryOptions` for any read of the operation table: the key is `platformKeys.call`, the fetch
 * is the browser wrapper. The server prefetches with the same key (see
 * `server-prefetch.ts`), so a page hydrates without fetching again. Pages never list endpoints or
 * keys themselves.
 *
 *   useQuery(platformQuery("customers.get", { params: { id } }))
 */
export function platformQuery<N extends BrowserOperationName>(name: N, input: InputOf<N>, fetcher: BrowserFetch = platformFetch) {
  return queryOptions({
    queryKey: platformKeys.call(name, input),
    queryFn: ({ signal }) => fetcher(name, input, { signal }) as Promise<OutputOf<N>>,
  });
}

/** After a successful mutation: every cached query of the resources it makes stale. */
export async function invalidateAfter(queryClient: QueryClient, name: BrowserOperationName): Promise<void> {
  await Promise.all(invalidatedKeys(name).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
