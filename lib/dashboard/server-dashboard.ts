import "server-only";
import { apiRoute, jsonResponse } from "@/lib/http/route";
import { callerWith, type PlatformCall } from "@/lib/platform/installation-call";
import { callOptionsFor, type PlatformRouteContext, type ProxyDeps } from "@/lib/proxy/proxy";
import type { InstallationKey } from "@/lib/store/installations";
import { computeDashboard } from "./compute-dashboard";
import { installationCacheKey, sharedDashboardCache, type DashboardCache } from "./dashboard-cache";
import type { DashboardAnswer, DashboardData } from "./dashboard-data";
import { dashboardOperations } from "./dashboard-operations";

/**
 * The overview's figures on the server, per tenant installation (openAppId + tenantId): computed by
 * compute-dashboard.ts with the installation's token, kept briefly by dashboard-cache.ts.
 *
 *   GET  /api/dashboard  the cached figures, or new ones (the first open of the home page)
 *   POST /api/dashboard  refresh (the page's Refresh button; CSRF-checked like every write)
 *
 * The answer is `{ data: DashboardData, cached }`. A computation is shared by every request of the
 * tenant, so it is not tied to one browser's abort signal: a tab closed mid-way still fills the cache.
 */

const cacheKey = installationCacheKey;

/** The process's cache (the home page peeks into it to render warm figures with the HTML). */
export function dashboardCache(): DashboardCache<DashboardData> {
  return sharedDashboardCache<DashboardData>();
}

/** Fresh cached figures of an installation, if any; never calls the platform. */
export function peekDashboard(key: InstallationKey): DashboardData | undefined {
  return dashboardCache().peek(cacheKey(key))?.value;
}

export type DashboardDeps = ProxyDeps & { dashboard?: { cache?: DashboardCache<DashboardData>; now?: () => number } };

async function platformCallFor(ctx: PlatformRouteContext): Promise<PlatformCall> {
  const { signal: _browserSignal, onRetry: _onRetry, ...options } = await callOptionsFor(ctx);
  return callerWith(options);
}

export const handleDashboardRequest = apiRoute(
  // GET and POST (a refresh) share the table's policy: the session, CSRF on the POST.
  { name: "dashboard", op: "dashboard", operation: dashboardOperations["dashboard.get"] },
  async (ctx: PlatformRouteContext & { deps: DashboardDeps }) => {
    const cache = ctx.deps.dashboard?.cache ?? dashboardCache();
    const now = ctx.deps.dashboard?.now ?? Date.now;
    // The token is checked here: an installation that must authorize again answers 401 reauth_required.
    const call = await platformCallFor(ctx);
    const compute = () => computeDashboard(call, now());
    const key = cacheKey(ctx.session);
    const result = ctx.request.method === "POST" ? await cache.refresh(key, compute) : await cache.get(key, compute);
    ctx.fields.cached = result.cached;
    if (!result.cached) ctx.fields.calls = result.value.calls;
    const answer: DashboardAnswer = { data: result.value, cached: result.cached };
    return jsonResponse(200, JSON.stringify(answer), ctx.requestId);
  },
);
