import { withDeps } from "@/lib/http/route";
import { proxyDeps } from "@/lib/proxy/proxy-deps";
import { getSearchService } from "@/lib/search";
import { handleTagCounts } from "@/lib/search/routes";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleTagCounts, () => ({ ...proxyDeps(), search: getSearchService }));
