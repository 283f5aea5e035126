import { HydrationBoundary } from "@tanstack/react-query";
import { Suspense } from "react";
import { TagsView } from "@/components/tags/tags-view";
import { prefetchForPage, prefetchPlatform } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { consolePageSession } from "@/lib/console/console-page";
import { dimensionsInput, parseTagsState, tagsInput } from "@/lib/console/tags-state";
import { toUrlParams } from "@/lib/console/url-params";

export const dynamic = "force-dynamic";

/** Tag dimensions and tags (§2.6, §4.5); with a session cookie both first answers arrive with the HTML. */
export default async function TagsPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  const session = await consolePageSession(params, "/tags");
  const state = parseTagsState(toUrlParams(params));
  const dehydrated = await prefetchForPage(session, (queryClient, s) => [
    prefetchPlatform(queryClient, s, "tags.list", tagsInput(state)),
    prefetchPlatform(queryClient, s, "tagDimensions.list", dimensionsInput(state)),
  ]);
  return (
    <HydrationBoundary state={dehydrated}>
      <Suspense>
        <TagsView />
      </Suspense>
    </HydrationBoundary>
  );
}
