import "server-only";
import { apiRoute, jsonResponse } from "@/lib/http/route";
import { callerWith, type PlatformCall } from "@/lib/platform/installation-call";
import { callOptionsFor, type PlatformRouteContext, type ProxyDeps } from "@/lib/proxy/proxy";
import { getStore, type Store } from "@/lib/store";
import { getTaskService, type TaskActor } from "@/lib/tasks";
import { taskView } from "@/lib/tasks/task-routes";
import type { TaskStartAnswer } from "@/lib/tasks/task-api";
import type { TaskRecord } from "@/lib/tasks/task-types";
import type { InstallationKey } from "@/lib/store/installations";
import { computeDashboard } from "./compute-dashboard";
import { installationCacheKey, sharedDashboardCache, type DashboardCache } from "./dashboard-cache";
import type { DashboardAnswer, DashboardData } from "./dashboard-data";
import { dashboardOperations } from "./dashboard-operations";
import { readFigures, saveFigures, type StoredFigures } from "./figures-store";
import { FIGURES_TASK } from "./figures-task";

/**
 * The overview's figures on the server, per tenant installation (openAppId + tenantId). They are
 * computed in the background (figures-task.ts: at install, on a schedule, after changes, on Refresh)
 * and kept in the app's store, so every instance answers them at once, whatever the tenant's size.
 *
 *   GET  /api/dashboard  the stored figures; a tenant that has none yet (the first open before the
 *                        first background run ended) has them computed in the request, once for
 *                        every request of the tenant in this process (dashboard-cache.ts)
 *   POST /api/dashboard  Refresh: starts the computation as the tenant's background task (one at a
 *                        time: a second click answers the running one) and answers it; the page
 *                        follows its progress and reads the figures again when it is done
 *
 * GET answers `{ data, cached, staleSince }`: `staleSince`, when changes arrived that the figures
 * do not show yet (they are computed again shortly).
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

type StartTask = (key: InstallationKey, kind: string, input: unknown, actor: TaskActor) => Promise<{ task: TaskRecord; started: boolean }>;

export type DashboardDeps = ProxyDeps & { dashboard?: { cache?: DashboardCache<DashboardData>; now?: () => number; store?: () => Promise<Store>; startTask?: StartTask } };

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
    if (ctx.request.method === "POST") {
      const startTask: StartTask = ctx.deps.dashboard?.startTask ?? ((...args) => getTaskService().start(...args));
      // The proxy's deps type the session as its installation; the console session behind it names the user.
      const who = ctx.session as Partial<{ userId: string; userName: string }>;
      const { task, started } = await startTask(key, FIGURES_TASK, {}, { userId: who.userId ?? "", name: who.userName ?? "" });
      Object.assign(ctx.fields, { taskId: task.id, started });
      const answer: TaskStartAnswer = { task: taskView(task), started };
      return jsonResponse(started ? 202 : 200, JSON.stringify(answer), ctx.requestId);
    }
    const stored = await readFigures(store, key);
    if (stored) {
      ctx.fields.cached = true;
      return jsonResponse(200, JSON.stringify(answerOf(stored)), ctx.requestId);
    }
    // The token is checked here: an installation that must authorize again answers 401 reauth_required.
    const call = await platformCallFor(ctx);
    const compute = async () => {
      const startedAt = now();
      const data = await computeDashboard(call, startedAt);
      await saveFigures(store, key, data, now(), startedAt);
      return data;
    };
    const result = await cache.get(cacheKey(key), compute);
    ctx.fields.cached = result.cached;
    if (!result.cached) ctx.fields.calls = result.value.calls;
    const answer: DashboardAnswer = { data: result.value, cached: result.cached, staleSince: null };
    return jsonResponse(200, JSON.stringify(answer), ctx.requestId);
  },
);
