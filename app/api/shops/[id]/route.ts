import { withDeps } from "@/lib/http/route";
import { shopRouteDeps } from "@/lib/shops/shop-route-deps";
import { handleShopDelete, handleShopGet, handleShopUpdate } from "@/lib/shops/shops-routes";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleShopGet, shopRouteDeps);
export const PUT = withDeps(handleShopUpdate, shopRouteDeps);
export const DELETE = withDeps(handleShopDelete, shopRouteDeps);
