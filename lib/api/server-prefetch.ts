import "server-only";
import { dehydrate, type DehydratedState, type QueryClient } from "@tanstack/react-query";
import { getAccessToken } from "@/lib/auth/access-token";
import { installationStatus } from "@/lib/auth/installation-status";
import type { ConsoleSession } from "@/lib/auth/session";
import { callPlatform } from "@/lib/platform/client";
import { operations, type InputOf } from "@/lib/platform/operations";
import type { BrowserOperationName } from "@/lib/platform/routes";
import { sessionQueryKey, type ConsoleSessionInfo } from "./console-session";
import { platformKeys } from "./query-keys";
import { getServerQueryClient } from "./server-query-client";

/**
 * Server prefetch for console pages (DESIGN.md §2): where the request carries a session cookie, a
 * page's first queries run on the server with the installation's token (refreshed as needed by
 * app-auth), under the same keys as the browser's `platformQuery`, and reach the browser through
 * <HydrationBoundary>. A failed prefetch is not dehydrated: the browser then fetches (and follows a
 * reauth redirect) itself. No token is ever part of the dehydrated state.
 */
export async function prefetchPlatform<N extends BrowserOperationName>(queryClient: QueryClient, session: ConsoleSession, name: N, input: InputOf<N>): Promise<void> {
  const key = { openAppId: session.openAppId, tenantId: session.tenantId };
  await queryClient.prefetchQuery({
    queryKey: platformKeys.call(name, input),
    queryFn: async () => {
      const { apiUrl } = await getAccessToken(key);
      return callPlatform(operations[name], input as never, {
        apiUrl,
        getToken: async ({ forceRefresh }) => (await getAccessToken(key, { forceRefresh })).accessToken,
      });
    },
  });
}

/**
 * Runs a page's prefetches when it has a session, and puts the shell's session (tenant, user,
 * installation state) in the cache too; returns the state for <HydrationBoundary>.
 */
export async function prefetchForPage(
  session: ConsoleSession | undefined,
  prefetch: (queryClient: QueryClient, session: ConsoleSession) => Promise<unknown>[] = () => [],
): Promise<DehydratedState | undefined> {
  if (!session) return undefined;
  const queryClient = getServerQueryClient();
  const [status] = await Promise.all([installationStatus(session), ...prefetch(queryClient, session)]);
  const info: ConsoleSessionInfo = { session, installation: { status } };
  queryClient.setQueryData(sessionQueryKey(session.openAppId), info);
  return dehydrate(queryClient);
}
