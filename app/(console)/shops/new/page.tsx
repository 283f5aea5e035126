import { ShopFormView } from "@/components/shops/shop-form";
import { consolePage } from "@/lib/api/server-prefetch";
import type { PageSearchParams } from "@/lib/auth/page-session";

export const dynamic = "force-dynamic";

/** Create a shop (§4.8 POST /v1/stores). */
export default async function NewShopPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  return consolePage(await searchParams, "/shops/new", [], <ShopFormView mode="create" />);
}
