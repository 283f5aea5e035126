import "server-only";
import { dehydrate, HydrationBoundary, type DehydratedState, type QueryClient } from "@tanstack/react-query";
import { createElement, Suspense, type ReactElement, type ReactNode } from "react";
import { getAccessToken } from "@/lib/auth/access-token";
import { installationStatus } from "@/lib/auth/installation-status";
import type { PageSearchParams } from "@/lib/auth/page-session";
import type { ConsoleSession, ConsoleSessionInfo } from "@/lib/auth/session";
import { consolePageSession } from "@/lib/shell/server-page";
import { installationCaller } from "@/lib/platform/installation-call";
import type { InputOf } from "@/lib/platform/operations";
import type { BrowserOperationName } from "@/lib/platform/routes";
import { sessionQueryKey } from "./console-session";
import { platformKeys } from "./query-keys";
import { getServerQueryClient } from "./server-query-client";

/** One read of the operation table: what the browser's `platformQuery(name, input)` asks. */
export type PlatformRead = { [N in BrowserOperationName]: { name: N; input: InputOf<N> } }[BrowserOperationName];

/**
 * Server prefetch for console pages (ARCHITECTURE.md §2): where the request carries a session cookie, a
 * page's first queries run on the server with the installation's token (refreshed as needed by
 * app-auth), under the same keys as the browser's `platformQuery`, and reach the browser through
 * <HydrationBoundary>. A failed prefetch is not dehydrated: the browser then fetches (and follows a
 * reauth redirect) itself. No token is ever part of the dehydrated state.
 */
async function prefetchPlatform(queryClient: QueryClient, session: ConsoleSession, { name, input }: PlatformRead): Promise<void> {
  const key = { openAppId: session.openAppId, tenantId: session.tenantId };
  await queryClient.prefetchQuery({
    queryKey: platformKeys.call(name, input as never),
    queryFn: () => installationCaller(key, getAccessToken)(name, input as never),
  });
}

/**
 * Runs a page's reads when it has a session, and puts the shell's session (tenant, user,
 * installation state) in the cache too; returns the state for <HydrationBoundary>.
 */
async function prefetchForPage(session: ConsoleSession | undefined, reads: readonly PlatformRead[] = []): Promise<DehydratedState | undefined> {
  if (!session) return undefined;
  const queryClient = getServerQueryClient();
  const [status] = await Promise.all([installationStatus(session), ...reads.map((read) => prefetchPlatform(queryClient, session, read))]);
  const info: ConsoleSessionInfo = { session, installation: { status } };
  queryClient.setQueryData(sessionQueryKey(session.openAppId), info);
  return dehydrate(queryClient);
}

/**
 * A console page: its session (`consolePageSession`: a document load without one redirects to
 * authorization), then `view` with `reads` prefetched. Derive the reads from the same state the
 * view reads (e.g. `listsUrlState.parse(params)`), so the keys match. The Suspense boundary is
 * inside the page (views read the URL); none may sit above it (the redirect must not stream).
 *
 *   return consolePage(params, "/lists", [{ name: "lists.list", input: listsInput(state) }], <ListsView />);
 */
export async function consolePage(params: PageSearchParams, path: string, reads: readonly PlatformRead[], view: ReactNode): Promise<ReactElement> {
  const state = await prefetchForPage(await consolePageSession(params, path), reads);
  return createElement(HydrationBoundary, { state }, createElement(Suspense, null, view));
}
