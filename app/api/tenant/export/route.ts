import { withDeps } from "@/lib/http/route";
import { tenantRouteDeps } from "@/lib/tenant-data/tenant-route-deps";
import { handleTenantExport } from "@/lib/tenant-data/tenant-routes";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleTenantExport, tenantRouteDeps);
