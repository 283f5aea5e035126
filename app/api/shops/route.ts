import { withDeps } from "@/lib/http/route";
import { shopRouteDeps } from "@/lib/shops/shop-route-deps";
import { handleShopCreate, handleShopList } from "@/lib/shops/shops-routes";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleShopList, shopRouteDeps);
export const POST = withDeps(handleShopCreate, shopRouteDeps);
