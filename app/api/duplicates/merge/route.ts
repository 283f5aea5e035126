import { withDeps } from "@/lib/http/route";
import { getDuplicateService } from "@/lib/duplicates";
import { handleDuplicateMerge } from "@/lib/duplicates/duplicates-routes";
import { proxyDeps } from "@/lib/proxy/proxy-deps";

export const dynamic = "force-dynamic";

export const POST = withDeps(handleDuplicateMerge, () => ({ ...proxyDeps(), duplicates: getDuplicateService }));
