import { notFound } from "next/navigation";
import { OrderDetail } from "@/components/orders/order-detail";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { orderNoFromParam, orderPath } from "@/lib/orders/order-path";

export const dynamic = "force-dynamic";

/** One order by its number (§4.2 getDealByOrderNo); with a session cookie it arrives with the HTML. */
export default async function OrderPage({ params, searchParams }: { params: Promise<{ orderNo: string }>; searchParams: Promise<PageSearchParams> }) {
  const orderNo = orderNoFromParam((await params).orderNo);
  if (orderNo === undefined) notFound();
  return consolePage(await searchParams, orderPath(orderNo), [{ name: "deals.getByOrderNo", input: { query: { orderNo } } }], <OrderDetail orderNo={orderNo} />);
}
