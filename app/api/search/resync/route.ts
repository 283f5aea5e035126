import { withDeps } from "@/lib/http/route";
import { proxyDeps } from "@/lib/proxy/proxy-deps";
import { getSearchService } from "@/lib/search";
import { handleSearchResync } from "@/lib/search/routes";

export const dynamic = "force-dynamic";

export const POST = withDeps(handleSearchResync, () => ({ ...proxyDeps(), search: getSearchService }));
