import { HydrationBoundary } from "@tanstack/react-query";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { OrderEdit } from "@/components/orders/order-form";
import { prefetchForPage, prefetchPlatform } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { consolePageSession } from "@/lib/console/console-page";
import { orderNoFromParam, orderPath } from "@/lib/console/order-list-state";

export const dynamic = "force-dynamic";

/** Edit an order (§4.2 PUT /v1/deals/{orderNo}); the form starts from getDealByOrderNo (lines with custom fields). */
export default async function EditOrderPage({ params, searchParams }: { params: Promise<{ orderNo: string }>; searchParams: Promise<PageSearchParams> }) {
  const orderNo = orderNoFromParam((await params).orderNo);
  if (orderNo === undefined) notFound();
  const session = await consolePageSession(await searchParams, orderPath(orderNo, "/edit"));
  const dehydrated = await prefetchForPage(session, (queryClient, s) => [prefetchPlatform(queryClient, s, "deals.getByOrderNo", { query: { orderNo } })]);
  return (
    <HydrationBoundary state={dehydrated}>
      <Suspense>
        <OrderEdit orderNo={orderNo} />
      </Suspense>
    </HydrationBoundary>
  );
}
