import { withDeps } from "@/lib/http/route";
import { shopRouteDeps } from "@/lib/shops/shop-route-deps";
import { handleGroupRead } from "@/lib/shops/shops-routes";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleGroupRead, shopRouteDeps);
