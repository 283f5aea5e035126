import { withDeps } from "@/lib/http/route";
import { proxyDeps } from "@/lib/proxy/proxy-deps";
import { getStore } from "@/lib/store";
import { handleViewList, handleViewSave } from "@/lib/views/views-routes";

export const dynamic = "force-dynamic";

const deps = () => ({ ...proxyDeps(), store: getStore });

export const GET = withDeps(handleViewList, deps);
export const POST = withDeps(handleViewSave, deps);
