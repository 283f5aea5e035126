import { HydrationBoundary } from "@tanstack/react-query";
import { Suspense } from "react";
import { CustomersView } from "@/components/customers/customers-view";
import { prefetchForPage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { consolePageSession } from "@/lib/console/console-page";

export const dynamic = "force-dynamic";

/** The customers list; with a session cookie its first page and total arrive with the HTML. */
export default async function CustomersPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  const session = await consolePageSession(params, "/customers");
  // The list's own prefetch joins when the proxy's server client is on main (client-proxy).
  const dehydrated = await prefetchForPage(session);
  return (
    <HydrationBoundary state={dehydrated}>
      <Suspense>
        <CustomersView />
      </Suspense>
    </HydrationBoundary>
  );
}
