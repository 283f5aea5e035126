import "server-only";
import { z } from "zod";
import { ApiError } from "@/lib/http/api-error";
import { apiRoute, jsonResponse, type RouteDeps } from "@/lib/http/route";
import type { SearchService } from "./service";
import { isPlatformIdList } from "@/lib/platform/ids";

export type SearchRouteDeps = RouteDeps & { search: () => SearchService };

const flag = z.enum(["true", "false"]).transform((v) => v === "true");
const searchQuery = z.strictObject({
  q: z.string().max(200).optional(),
  tag: z.string().min(1).max(64).optional(),
  stage: z.string().max(128).optional(),
  stageEmpty: flag.optional(),
  source: z.string().max(128).optional(),
  gender: z.enum(["0", "1", "2"]).transform(Number).optional(),
  hasMobile: flag.optional(),
  hasEmail: flag.optional(),
  limit: z.string().regex(/^\d{1,3}$/).transform(Number).pipe(z.number().min(1).max(200)).optional(),
  offset: z.string().regex(/^\d{1,7}$/).transform(Number).optional(),
  /** Names and contacts of these ids instead of a search (ids shown in lists, orders, pickers). */
  ids: z.string().refine((value) => isPlatformIdList(value, 200), "must be up to 200 comma-separated ids").optional(),
  openAppId: z.string().optional(),
});

function parseQuery(url: URL) {
  const raw: Record<string, string> = {};
  for (const [k, v] of url.searchParams) {
    if (k in raw) throw new ApiError({ status: 400, code: "invalid_request", message: `${k} is given more than once` });
    raw[k] = v;
  }
  const parsed = searchQuery.safeParse(raw);
  if (!parsed.success) {
    const fieldErrors = parsed.error.issues.map((i) => ({ field: i.path.join(".") || "query", message: i.message }));
    throw new ApiError({ status: 400, code: "invalid_request", message: "the search is not valid", fieldErrors });
  }
  return parsed.data;
}

/**
 * `GET /api/search/customers?q=&tag=&stage=&…&limit=&offset=` — the session tenant's customers from
 * the index (ids, names, mobile, email; the console reads the live records from the platform), with
 * the index's status; `?ids=` looks names up instead. Starts the tenant's sync on first use.
 */
export const handleCustomerSearch = apiRoute<SearchRouteDeps>(
  { name: "customer search", scope: "search", session: true, unavailable: "Search is unavailable; try again." },
  async ({ url, session, deps, requestId, fields }) => {
    const { ids, openAppId: _ignored, limit, offset, ...filters } = parseQuery(url);
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

/** `GET /api/search/status` — how far the tenant's index is (Settings, the customers page's freshness line). */
export const handleSearchStatus = apiRoute<SearchRouteDeps>(
  { name: "search status", scope: "search", session: true, unavailable: "Search is unavailable; try again." },
  async ({ session, deps, requestId }) => {
    const key = { openAppId: session.openAppId, tenantId: session.tenantId };
    await deps.search().requestSync(key);
    return jsonResponse(200, JSON.stringify(await deps.search().status(key)), requestId);
  },
);

/** `POST /api/search/resync` — the index emptied and read again from the platform (Settings' "Re-sync"). */
export const handleSearchResync = apiRoute<SearchRouteDeps>(
  { name: "search resync", scope: "search", session: true, unavailable: "Re-sync could not start; try again." },
  async ({ session, deps, requestId }) => {
    const key = { openAppId: session.openAppId, tenantId: session.tenantId };
    await deps.search().resync(key);
    return jsonResponse(202, JSON.stringify(await deps.search().status(key)), requestId);
  },
);
