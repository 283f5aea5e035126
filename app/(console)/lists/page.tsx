import { HydrationBoundary } from "@tanstack/react-query";
import { Suspense } from "react";
import { ListsView } from "@/components/lists/lists-view";
import { prefetchForPage, prefetchPlatform } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { consolePageSession } from "@/lib/console/console-page";
import { listsInput, parseListsState } from "@/lib/console/lists-state";
import { toUrlParams } from "@/lib/console/url-params";

export const dynamic = "force-dynamic";

/** All lists (§4.4); with a session cookie the first page arrives with the HTML. */
export default async function ListsPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  const session = await consolePageSession(params, "/lists");
  const state = parseListsState(toUrlParams(params));
  const dehydrated = await prefetchForPage(session, (queryClient, s) => [prefetchPlatform(queryClient, s, "lists.list", listsInput(state))]);
  return (
    <HydrationBoundary state={dehydrated}>
      <Suspense>
        <ListsView />
      </Suspense>
    </HydrationBoundary>
  );
}
