import { withDeps } from "@/lib/http/route";
import { shopRouteDeps } from "@/lib/shops/shop-route-deps";
import { handleShopAddKnown } from "@/lib/shops/shops-routes";

export const dynamic = "force-dynamic";

export const POST = withDeps(handleShopAddKnown, shopRouteDeps);
