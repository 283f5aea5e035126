import { HydrationBoundary } from "@tanstack/react-query";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { ListDetail } from "@/components/lists/list-detail";
import { prefetchForPage, prefetchPlatform } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { consolePageSession } from "@/lib/console/console-page";
import { countInput, membersInput, parseMembersState } from "@/lib/console/list-members-state";
import { toUrlParams } from "@/lib/console/url-params";

export const dynamic = "force-dynamic";

/** One list's members and count (§4.4); with a session cookie the first page and count arrive with the HTML. */
export default async function ListPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<PageSearchParams> }) {
  const { id } = await params;
  // §2: ids are 64-bit integers; anything else is no list.
  if (!/^\d{1,19}$/.test(id)) notFound();
  const query = await searchParams;
  const session = await consolePageSession(query, `/lists/${id}`);
  const state = parseMembersState(toUrlParams(query));
  const dehydrated = await prefetchForPage(session, (queryClient, s) => [
    prefetchPlatform(queryClient, s, "listMembers.list", membersInput(id, state)),
    prefetchPlatform(queryClient, s, "listMembers.count", countInput(id, { joinedFrom: "", joinedTo: "" })),
  ]);
  return (
    <HydrationBoundary state={dehydrated}>
      <Suspense>
        <ListDetail id={id} />
      </Suspense>
    </HydrationBoundary>
  );
}
