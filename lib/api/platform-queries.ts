import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { invalidatedKeys, platformKeys, type InputOf, type OperationName, type OutputOf } from "@/lib/platform/operations";
import { platformFetch, type BrowserFetch } from "./browser-fetch";

/**
 * `queryOptions` for any read of the operation table: the key comes from `platformKeys.call`, the
 * fetch from the browser wrapper. The server prefetches with the same key (see `server-prefetch.ts`),
 * so a page hydrates without fetching again. Pages never list endpoints or keys themselves.
 *
 *   useQuery(platformQuery("customers.get", { params: { id } }))
 */
export function platformQuery<N extends OperationName>(name: N, input: InputOf<N>, fetcher: BrowserFetch = platformFetch) {
  return queryOptions({
    queryKey: platformKeys.call(name, input),
    queryFn: ({ signal }) => fetcher(name, input, { signal }) as Promise<OutputOf<N>>,
  });
}

/** After a successful mutation: every cached query of the resources it makes stale. */
export async function invalidateAfter(queryClient: QueryClient, name: OperationName): Promise<void> {
  await Promise.all(invalidatedKeys(name).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
