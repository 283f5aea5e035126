import { defaultShouldDehydrateQuery, isServer, MutationCache, QueryClient } from "@tanstack/react-query";
import { ApiError, ReauthRequiredError } from "@/lib/http/api-error";

/**
 * The QueryClient settings of the console (ARCHITECTURE.md §2): one client per request on the server,
 * one for the life of the page in the browser. The proxy already retries idempotent reads upstream,
 * so the browser retries only when no answer came at all.
 */
export function makeQueryClient(onMutationError?: (error: unknown) => void): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Server-prefetched data is fresh on arrival; no refetch right after hydration.
        staleTime: 30_000,
        gcTime: 5 * 60_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) =>
          !(error instanceof ReauthRequiredError) && error instanceof ApiError && error.status === 0 && failureCount < 2,
      },
      mutations: { retry: false },
      dehydrate: {
        // Streams pending prefetches too, so the page need not wait for slow ones.
        shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === "pending",
      },
    },
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => {
        if (mutation.meta?.silent || error instanceof ReauthRequiredError) return;
        onMutationError?.(error);
      },
    }),
  });
}

let browserClient: QueryClient | undefined;

/** The browser's singleton (made on first use); on the server a new client each call. */
export function getBrowserQueryClient(onMutationError?: (error: unknown) => void): QueryClient {
  if (isServer) return makeQueryClient();
  browserClient ??= makeQueryClient(onMutationError);
  return browserClient;
}
