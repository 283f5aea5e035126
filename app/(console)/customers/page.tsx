import { HydrationBoundary } from "@tanstack/react-query";
import { Suspense } from "react";
import { CustomersView } from "@/components/customers/customers-view";
import { prefetchForPage, prefetchPlatform } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { consolePageSession } from "@/lib/console/console-page";
import { countInput, listInput, parseListState } from "@/lib/console/customer-list-state";

export const dynamic = "force-dynamic";

/** The customers list; with a session cookie its first page and total arrive with the HTML. */
export default async function CustomersPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  const session = await consolePageSession(params, "/customers");
  const state = parseListState(params);
  const dehydrated = await prefetchForPage(session, (queryClient, s) => {
    const count = countInput(state);
    return [prefetchPlatform(queryClient, s, "customers.list", listInput(state)), ...(count ? [prefetchPlatform(queryClient, s, "customers.count", count)] : [])];
  });
  return (
    <HydrationBoundary state={dehydrated}>
      <Suspense>
        <CustomersView />
      </Suspense>
    </HydrationBoundary>
  );
}
