import { ShopGroupsView } from "@/components/shops/shop-groups-view";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";

export const dynamic = "force-dynamic";

/** The shop groups the app created or opened (§4.8). */
export default async function ShopGroupsPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  return consolePage(await searchParams, "/shops/groups", [], <ShopGroupsView />);
}
