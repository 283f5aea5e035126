import { withDeps } from "@/lib/http/route";
import { shopRouteDeps } from "@/lib/shops/shop-route-deps";
import { handleGroupCreate, handleGroupList } from "@/lib/shops/shops-routes";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleGroupList, shopRouteDeps);
export const POST = withDeps(handleGroupCreate, shopRouteDeps);
