import { withDeps } from "@/lib/http/route";
import { getDuplicateService } from "@/lib/duplicates";
import { handleDuplicateQueue } from "@/lib/duplicates/duplicates-routes";
import { proxyDeps } from "@/lib/proxy/proxy-deps";
import { getSearchService } from "@/lib/search";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleDuplicateQueue, () => ({ ...proxyDeps(), duplicates: getDuplicateService, search: getSearchService }));
