import { withDeps } from "@/lib/http/route";
import { handleMediaImport, handleMediaImportList } from "@/lib/media/media-routes";
import { shopRouteDeps } from "@/lib/shops/shop-route-deps";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleMediaImportList, shopRouteDeps);
export const POST = withDeps(handleMediaImport, shopRouteDeps);
