import { notFound } from "next/navigation";
import { OrderEdit } from "@/components/orders/order-form";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { orderNoFromParam, orderPath } from "@/lib/orders/order-path";

export const dynamic = "force-dynamic";

/** Edit an order (§4.2 PUT /v1/deals/{orderNo}); the form starts from getDealByOrderNo (lines with custom fields). */
export default async function EditOrderPage({ params, searchParams }: { params: Promise<{ orderNo: string }>; searchParams: Promise<PageSearchParams> }) {
  const orderNo = orderNoFromParam((await params).orderNo);
  if (orderNo === undefined) notFound();
  return consolePage(await searchParams, orderPath(orderNo, "/edit"), [{ name: "deals.getByOrderNo", input: { query: { orderNo } } }], <OrderEdit orderNo={orderNo} />);
}
