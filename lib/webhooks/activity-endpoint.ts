import "server-only";
import { apiRoute, jsonResponse, type RouteInput, type RouteContext, type RouteDeps } from "@/lib/http/route";
import type { Store } from "@/lib/store/database";
import { activitySince } from "@/lib/store/webhook-inbox";
import { staleQueryKeys } from "./activity";
import { webhooksOperations } from "./webhooks-operations";

/**
 * `GET /api/activity?after=<inbox id>&limit=` — what webhooks said changed for the session's tenant
 * (openAppId + tenantId) since the cursor, oldest first, with the query keys the console should
 * invalidate. Without `after`: no entries, only the current cursor (where "now" is).
 */
export const handleActivityRequest = apiRoute(
  { name: "activity", scope: "activity", operation: webhooksOperations["activity.list"], unavailable: "Activity is unavailable; try again." },
  async ({ input, session, deps, requestId }: RouteContext<RouteDeps & { store: () => Promise<Store> }, RouteInput<(typeof webhooksOperations)["activity.list"]>>) => {
    const { after, limit } = input.query;
    const { openAppId, tenantId } = session;
    const page = await activitySince(await deps.store(), { openAppId, tenantId }, after, { limit });
    return jsonResponse(200, JSON.stringify({ ...page, staleQueryKeys: staleQueryKeys(page.entries) }), requestId);
  },
);
