import "server-only";
import { requireApiSession } from "@/lib/auth/session";
import type { Store } from "@/lib/store/database";
import { activitySince, MAX_ACTIVITY_PAGE } from "@/lib/store/webhook-inbox";
import { staleQueryKeys } from "./activity";

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * `GET /api/activity?after=<inbox id>&limit=` — what webhooks said changed for the session's tenant
 * (openAppId + tenantId) since the cursor, oldest first, with the query keys the console should
 * invalidate. Without `after`: no entries, only the current cursor (where "now" is).
 */
export async function handleActivityRequest(request: Request, deps: { store: () => Promise<Store> }): Promise<Response> {
  const auth = await requireApiSession(request);
  if (!auth.ok) return auth.response;
  const params = new URL(request.url).searchParams;
  const after = params.get("after") ?? undefined;
  const limitText = params.get("limit") ?? undefined;
  if (after !== undefined && !/^\d{1,15}$/.test(after)) {
    return Response.json({ error: { code: "invalid_request", message: "after must be an activity id (digits)" } }, { status: 400, headers: NO_STORE });
  }
  if (limitText !== undefined && (!/^\d{1,4}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > MAX_ACTIVITY_PAGE)) {
    return Response.json({ error: { code: "invalid_request", message: `limit must be 1 to ${MAX_ACTIVITY_PAGE}` } }, { status: 400, headers: NO_STORE });
  }
  try {
    const { openAppId, tenantId } = auth.session;
    const page = await activitySince(await deps.store(), { openAppId, tenantId }, after, { limit: limitText ? Number(limitText) : undefined });
    return Response.json({ ...page, staleQueryKeys: staleQueryKeys(page.entries) }, { headers: NO_STORE });
  } catch {
    return Response.json({ error: { code: "unavailable", message: "Activity is unavailable; try again." } }, { status: 503, headers: { ...NO_STORE, "Retry-After": "5" } });
  }
}
