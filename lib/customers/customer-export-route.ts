import "server-only";
import { apiRoute, errorField } from "@/lib/http/route";
import { callPlatform } from "@/lib/platform/client";
import { operations } from "@/lib/platform/operations";
import { callOptionsFor, type ProxyDeps } from "@/lib/proxy/proxy";
import type { RouteContext } from "@/lib/http/route";
import { exportFileName } from "@/lib/csv";
import { exportPlan, startCsvExport, type ExportRow, type FetchPage } from "./customer-export";
import { parseListState, searchParamsOf } from "./customer-list-state";
import { exportIdSource, type ExportSearch } from "./export-ids";
import { exportOperations } from "./export-operations";

/**
 * `GET /api/export/customers?<the customers list's URL state>`: the list's current filter as a
 * CSV file (see customer-export.ts for the walk and the file's choices). A route like the platform
 * proxy, with the proxy's own deps (`proxy-deps.ts`): the session of the `X-Open-App-Id`
 * environment, the installation's access token, the same `401 reauth_required` answer. An export
 * is costly, so like a proxy mutation it needs `X-Engage-Request: 1` from the console's own origin
 * (a cross-site page cannot start one). Platform tokens never reach the browser or the logs.
 */
export const handleCustomerExport = apiRoute(
  { name: "customer export", operation: exportOperations["customers.export"], streams: true },
  async (ctx: RouteContext<ProxyDeps & { search: () => ExportSearch }>) => {
    // The list's own parser: unknown or malformed values fall back or are left out, as on the page.
    const state = parseListState(ctx.url.searchParams);
    const plan = exportPlan(state);
    const key = { openAppId: ctx.session.openAppId, tenantId: ctx.session.tenantId };
    const ids = exportIdSource(searchParamsOf(state), (request, signal) => ctx.deps.search().ids(key, request, signal));
    const fetchPage: FetchPage = async (query, signal) => {
      const page = await callPlatform(operations["customers.list"], { query }, { ...(await callOptionsFor(ctx)), signal });
      return page.rows as unknown as ExportRow[];
    };
    // The first page is fetched here: a refusal is the usual error answer, not a broken file.
    const stream = await startCsvExport(plan, fetchPage, {
      ...(ids ? { ids } : {}),
      onEnd: ({ rows, error, cancelled }) => {
        const line = { ...ctx.fields, rows, cancelled: cancelled ?? false, ms: Math.round(performance.now() - ctx.started) };
        if (error) ctx.log.warn({ ...line, err: errorField(error) }, "customer export failed midway");
        else ctx.log.info(line, "customer export");
      },
    });
    // A client that goes away cancels the stream, which aborts the request in flight and ends the walk.
    return new Response(stream, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${exportFileName("customers")}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        "x-request-id": ctx.requestId,
      },
    });
  },
);
