import { CustomerMerge } from "@/components/customers/customer-merge";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { isPlatformId } from "@/lib/platform/ids";

export const dynamic = "force-dynamic";

/** Merge two customers (§4.1); `?fromId=` prefills the customer to merge (from its detail page). */
export default async function MergeCustomersPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  const fromId = typeof params.fromId === "string" && isPlatformId(params.fromId) ? params.fromId : "";
  return consolePage(params, "/customers/merge", [], <CustomerMerge initialFromId={fromId} />);
}
