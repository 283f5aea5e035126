import "server-only";
import { apiRoute, jsonResponse, type RouteInput, type RouteContext, type RouteDeps } from "@/lib/http/route";
import type { InstallationKey } from "@/lib/store/installations";
import type { SearchService } from "./service";
import { searchOperations } from "./search-operations";

export type SearchRouteDeps = RouteDeps & { search: () => SearchService };

/**
 * `GET /api/search/customers?q=&tag=&stage=&…&limit=&offset=` — the session tenant's customers from
 * the index (ids, names, mobile, email; the console reads the live records from the platform), with
 * the index's status; `?ids=` looks names up instead. Starts the tenant's sync on first use.
 */
export const handleCustomerSearch = apiRoute(
  { name: "customer search", scope: "search", operation: searchOperations["search.customers"], unavailable: "Search is unavailable; try again." },
  async ({ input, session, deps, requestId, fields }: RouteContext<SearchRouteDeps, RouteInput<(typeof searchOperations)["search.customers"]>>) => {
    const { ids, limit, offset, ...filters } = input.query;
    const key = { openAppId: session.openAppId, tenantId: session.tenantId };
    if (ids) {
      const hits = await deps.search().lookup(key, ids.split(","));
      return jsonResponse(200, JSON.stringify({ hits }), requestId);
    }
    const result = await deps.search().search(key, { ...filters, limit: limit ?? 20, offset: offset ?? 0 });
    fields.hits = result.hits.length;
    return jsonResponse(200, JSON.stringify(result), requestId);
  },
);

/** `GET /api/search/tag-counts?tags=a&tags=b` — how many indexed customers carry each tag (the tags table's counts). */
export const handleTagCounts = apiRoute(
  { name: "tag counts", scope: "search", operation: searchOperations["search.tagCounts"], unavailable: "Search is unavailable; try again." },
  async ({ input, session, deps, requestId }: RouteContext<SearchRouteDeps, RouteInput<(typeof searchOperations)["search.tagCounts"]>>) => {
    const key = { openAppId: session.openAppId, tenantId: session.tenantId };
    return jsonResponse(200, JSON.stringify({ counts: await deps.search().tagCounts(key, input.query.tags) }), requestId);
  },
);

/** The index's status as both status routes answer it. */
async function statusAnswer(deps: SearchRouteDeps, key: InstallationKey, requestId: string, status: number): Promise<Response> {
  return jsonResponse(status, JSON.stringify(await deps.search().status(key)), requestId);
}

/** `GET /api/search/status` — how far the tenant's index is (Settings, the customers page's freshness line). */
export const handleSearchStatus = apiRoute(
  { name: "search status", scope: "search", operation: searchOperations["search.status"], unavailable: "Search is unavailable; try again." },
  async ({ session, deps, requestId }: RouteContext<SearchRouteDeps, RouteInput<(typeof searchOperations)["search.status"]>>) => {
    const key = { openAppId: session.openAppId, tenantId: session.tenantId };
    await deps.search().requestSync(key);
    return statusAnswer(deps, key, requestId, 200);
  },
);

/** `POST /api/search/resync` — the index emptied and read again from the platform (Settings' "Re-sync"). */
export const handleSearchResync = apiRoute(
  { name: "search resync", scope: "search", operation: searchOperations["search.resync"], unavailable: "Re-sync could not start; try again." },
  async ({ session, deps, requestId }: RouteContext<SearchRouteDeps, RouteInput<(typeof searchOperations)["search.resync"]>>) => {
    const key = { openAppId: session.openAppId, tenantId: session.tenantId };
    await deps.search().resync(key);
    return statusAnswer(deps, key, requestId, 202);
  },
);
