import { HydrationBoundary } from "@tanstack/react-query";
import { Suspense } from "react";
import { OrdersView } from "@/components/orders/orders-view";
import { prefetchForPage, prefetchPlatform } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { consolePageSession } from "@/lib/console/console-page";
import { orderListInput, parseOrderListState } from "@/lib/console/order-list-state";
import { toUrlParams } from "@/lib/console/url-params";

export const dynamic = "force-dynamic";

/** Orders of the last month, all or one customer's (§4.2); with a session cookie the first page arrives with the HTML. */
export default async function OrdersPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  const session = await consolePageSession(params, "/orders");
  const state = parseOrderListState(toUrlParams(params));
  const dehydrated = await prefetchForPage(session, (queryClient, s) => [prefetchPlatform(queryClient, s, "deals.list", orderListInput(state))]);
  return (
    <HydrationBoundary state={dehydrated}>
      <Suspense>
        <OrdersView />
      </Suspense>
    </HydrationBoundary>
  );
}
