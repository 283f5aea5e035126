import "server-only";
import { apiRoute, jsonResponse } from "@/lib/http/route";
import { callerWith, type PlatformCall } from "@/lib/platform/installation-call";
import { callOptionsFor, type PlatformRouteContext, type ProxyDeps } from "@/lib/proxy/proxy";
import { getStore, type Store } from "@/lib/store";
import type { InstallationKey } from "@/lib/store/installations";
import { computeDashboard } from "./compute-dashboard";
import { installationCacheKey, sharedDashboardCache, type DashboardCache } from "./dashboard-cache";
import type { DashboardAnswer, DashboardData } from "./dashboard-data";
import { dashboardOperations } from "./dashboard-operations";
import { readFigures, saveFigures, type StoredFigures } from "./figures-store";

/**
 * The overview's figures on the server, per tenant installation (openAppId + tenantId). They are
 * computed in the background (figures-task.ts: at install, on a schedule, after changes, on Refresh)
 * and kept in the app's store, so every instance answers them at once, whatever the tenant's size.
 *
 *   GET  /api/dashboard  the stored figures; a tenant that has none yet (the first open before the
 *                        first background run ended) has them computed in the request, once for
 *                        every request of the tenant in this process (dashboard-cache.ts)
 *   POST /api/dashboard  refresh (the page's Refresh button; CSRF-checked like every write)
 *
 * The answer is `{ data, cached, staleSince }`: `staleSince`, when changes arrived that the figures
 * do not show yet (they are being computed again).
 */

const cacheKey = installationCacheKey;

/** The process's single flight of first computations. */
export function dashboardCache(): DashboardCache<DashboardData> {
  return sharedDashboardCache<DashboardData>();
}

export const answerOf = (stored: StoredFigures): DashboardAnswer => ({
  data: stored.data,
  cached: true,
  staleSince: stored.staleSince === null ? null : new Date(stored.staleSince).toISOString(),
});

/** The stored figures of an installation, if any, as the route answers them; never calls the platform. */
export async function storedDashboard(key: InstallationKey, store?: Store): Promise<DashboardAnswer | undefined> {
  const stored = await readFigures(store ?? (await getStore()), key);
  return stored ? answerOf(stored) : undefined;
}

export type DashboardDeps = ProxyDeps & { dashboard?: { cache?: DashboardCache<DashboardData>; now?: () => number; store?: () => Promise<Store> } };

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
    const store = await (ctx.deps.dashboard?.store ?? getStore)();
    const key = { openAppId: ctx.session.openAppId, tenantId: ctx.session.tenantId };
    const refresh = ctx.request.method === "POST";
    if (!refresh) {
      const stored = await readFigures(store, key);
      if (stored) {
        ctx.fields.cached = true;
        return jsonResponse(200, JSON.stringify(answerOf(stored)), ctx.requestId);
      }
    }
    // The token is checked here: an installation that must authorize again answers 401 reauth_required.
    const call = await platformCallFor(ctx);
    const compute = async () => {
      const startedAt = now();
      const data = await computeDashboard(call, startedAt);
      await saveFigures(store, key, data, now(), startedAt);
      return data;
    };
    const result = refresh ? await cache.refresh(cacheKey(key), compute) : await cache.get(cacheKey(key), compute);
    ctx.fields.cached = result.cached;
    if (!result.cached) ctx.fields.calls = result.value.calls;
    const answer: DashboardAnswer = { data: result.value, cached: result.cached, staleSince: null };
    return jsonResponse(200, JSON.stringify(answer), ctx.requestId);
  },
);
