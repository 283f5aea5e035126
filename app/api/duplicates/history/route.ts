import { withDeps } from "@/lib/http/route";
import { getDuplicateService } from "@/lib/duplicates";
import { handleDuplicateHistory } from "@/lib/duplicates/duplicates-routes";
import { proxyDeps } from "@/lib/proxy/proxy-deps";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleDuplicateHistory, () => ({ ...proxyDeps(), duplicates: getDuplicateService }));
