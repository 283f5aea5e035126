import { withDeps } from "@/lib/http/route";
import { handleDashboardRequest } from "@/lib/dashboard/server-dashboard";
import { proxyDeps } from "@/lib/proxy/proxy-deps";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleDashboardRequest, proxyDeps);
export const POST = withDeps(handleDashboardRequest, proxyDeps);
