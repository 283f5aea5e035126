import "server-only";
import { ApiError } from "@/lib/http/api-error";
import { apiRoute, jsonResponse, type RouteDeps } from "@/lib/http/route";
import type { Store } from "@/lib/store/database";
import { activitySince, MAX_ACTIVITY_PAGE } from "@/lib/store/webhook-inbox";
import { staleQueryKeys } from "./activity";

const invalid = (message: string) => new ApiError({ status: 400, code: "invalid_request", message });

/**
 * `GET /api/activity?after=<inbox id>&limit=` — what webhooks said changed for the session's tenant
 * (openAppId + tenantId) since the cursor, oldest first, with the query keys the console should
 * invalidate. Without `after`: no entries, only the current cursor (where "now" is).
 */
export const handleActivityRequest = apiRoute<RouteDeps & { store: () => Promise<Store> }>(
  { name: "activity", scope: "activity", session: true, unavailable: "Activity is unavailable; try again." },
  async ({ url, session, deps, requestId }) => {
    const after = url.searchParams.get("after") ?? undefined;
    const limitText = url.searchParams.get("limit") ?? undefined;
    if (after !== undefined && !/^\d{1,15}$/.test(after)) throw invalid("after must be an activity id (digits)");
    if (limitText !== undefined && (!/^\d{1,4}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > MAX_ACTIVITY_PAGE)) {
      throw invalid(`limit must be 1 to ${MAX_ACTIVITY_PAGE}`);
    }
    const { openAppId, tenantId } = session;
    const page = await activitySince(await deps.store(), { openAppId, tenantId }, after, { limit: limitText ? Number(limitText) : undefined });
    return jsonResponse(200, JSON.stringify({ ...page, staleQueryKeys: staleQueryKeys(page.entries) }), requestId);
  },
);
