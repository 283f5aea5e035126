import { OrdersView } from "@/components/orders/orders-view";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { orderListInput, orderListUrlState } from "@/lib/orders/order-list-state";

export const dynamic = "force-dynamic";

/** Orders of the last month, all or one customer's (§4.2); with a session cookie the first page arrives with the HTML. */
export default async function OrdersPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  return consolePage(params, "/orders", [{ name: "deals.list", input: orderListInput(orderListUrlState.parse(params)) }], <OrdersView />);
}
