import { handleAuditExport } from "@/lib/audit/audit-routes";
import { withDeps } from "@/lib/http/route";
import { proxyDeps } from "@/lib/proxy/proxy-deps";
import { getStore } from "@/lib/store";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleAuditExport, () => ({ ...proxyDeps(), store: getStore }));
