import { handleAuditSettings, handleAuditSettingsPut } from "@/lib/audit/audit-routes";
import { withDeps } from "@/lib/http/route";
import { proxyDeps } from "@/lib/proxy/proxy-deps";
import { getStore } from "@/lib/store";

export const dynamic = "force-dynamic";

const deps = () => ({ ...proxyDeps(), store: getStore });

export const GET = withDeps(handleAuditSettings, deps);
export const PUT = withDeps(handleAuditSettingsPut, deps);
