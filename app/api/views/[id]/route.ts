import { withDeps } from "@/lib/http/route";
import { proxyDeps } from "@/lib/proxy/proxy-deps";
import { getStore } from "@/lib/store";
import { handleViewDelete } from "@/lib/views/views-routes";

export const dynamic = "force-dynamic";

export const DELETE = withDeps(handleViewDelete, () => ({ ...proxyDeps(), store: getStore }));
