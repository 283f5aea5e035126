import { withDeps } from "@/lib/http/route";
import { tenantRouteDeps } from "@/lib/tenant-data/tenant-route-deps";
import { handleTenantDisconnect } from "@/lib/tenant-data/tenant-routes";

export const dynamic = "force-dynamic";

export const POST = withDeps(handleTenantDisconnect, tenantRouteDeps);
