import { withDeps } from "@/lib/http/route";
import { getDuplicateService } from "@/lib/duplicates";
import { handleDuplicateBulk, handleDuplicatePlan } from "@/lib/duplicates/duplicates-routes";
import { proxyDeps } from "@/lib/proxy/proxy-deps";

export const dynamic = "force-dynamic";

const deps = () => ({ ...proxyDeps(), duplicates: getDuplicateService });

export const GET = withDeps(handleDuplicatePlan, deps);
export const POST = withDeps(handleDuplicateBulk, deps);
