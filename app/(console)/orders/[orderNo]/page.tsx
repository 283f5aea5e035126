import { HydrationBoundary } from "@tanstack/react-query";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { OrderDetail } from "@/components/orders/order-detail";
import { prefetchForPage, prefetchPlatform } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { consolePageSession } from "@/lib/console/console-page";
import { orderNoFromParam, orderPath } from "@/lib/console/order-list-state";

export const dynamic = "force-dynamic";

/** One order by its number (§4.2 getDealByOrderNo); with a session cookie it arrives with the HTML. */
export default async function OrderPage({ params, searchParams }: { params: Promise<{ orderNo: string }>; searchParams: Promise<PageSearchParams> }) {
  const orderNo = orderNoFromParam((await params).orderNo);
  if (orderNo === undefined) notFound();
  const session = await consolePageSession(await searchParams, orderPath(orderNo));
  const dehydrated = await prefetchForPage(session, (queryClient, s) => [prefetchPlatform(queryClient, s, "deals.getByOrderNo", { query: { orderNo } })]);
  return (
    <HydrationBoundary state={dehydrated}>
      <Suspense>
        <OrderDetail orderNo={orderNo} />
      </Suspense>
    </HydrationBoundary>
  );
}
