import { NewOrder } from "@/components/orders/new-order";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";

export const dynamic = "force-dynamic";

/** Create an order with lines (§4.2 POST /v1/deals); `?customerId=` starts the form with that customer. */
export default async function NewOrderPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  return consolePage(await searchParams, "/orders/new", [], <NewOrder />);
}
