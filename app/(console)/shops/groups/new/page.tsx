import { GroupCreate } from "@/components/shops/group-create";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";

export const dynamic = "force-dynamic";

/** Create a shop group from the register's shops (§4.8 POST /v1/storesGroups). */
export default async function NewShopGroupPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  return consolePage(await searchParams, "/shops/groups/new", [], <GroupCreate />);
}
