import { HydrationBoundary } from "@tanstack/react-query";
import { Suspense } from "react";
import { NewOrder } from "@/components/orders/new-order";
import { prefetchForPage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { consolePageSession } from "@/lib/console/console-page";

export const dynamic = "force-dynamic";

/** Create an order with lines (§4.2 POST /v1/deals); `?customerId=` starts the form with that customer. */
export default async function NewOrderPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const session = await consolePageSession(await searchParams, "/orders/new");
  return (
    <HydrationBoundary state={await prefetchForPage(session)}>
      <Suspense>
        <NewOrder />
      </Suspense>
    </HydrationBoundary>
  );
}
