import "server-only";
import { callPlatform } from "@/lib/platform/client";
import { operations } from "@/lib/platform/operations";
import { authenticate, callOptionsFor, errorField, platformFailure, requestIdOf, type ProxyDeps } from "@/lib/platform/proxy";
import { exportFileName } from "./csv";
import { exportPlan, startCsvExport, type ExportRow, type FetchPage } from "./customer-export";
import { parseListState } from "./customer-list-state";

/**
 * `GET /api/export/customers?<the customers list's URL state>`: the list's current filter as a
 * CSV file (see customer-export.ts for the walk and the file's choices). It authenticates exactly
 * like the platform proxy, with the proxy's own deps (`proxy-deps.ts`): the session of the
 * `X-Open-App-Id` environment from the cookie or the fallback `Authorization: Bearer` session
 * token, the installation's access token, the same `401 reauth_required` answer. An export is
 * costly, so like a proxy mutation it needs `X-Engage-Request: 1` from the console's own origin
 * (a cross-site page cannot start one). Platform tokens never reach the browser or the logs.
 */
export async function handleCustomerExport(request: Request, deps: ProxyDeps): Promise<Response> {
  const started = performance.now();
  const requestId = requestIdOf(request);
  const url = new URL(request.url);
  const logBase = { requestId, method: "GET", path: url.pathname, op: "customers.export" };

  const auth = await authenticate(request, url, requestId, deps, { csrf: true });
  if (!auth.ok) return auth.response;
  const key = auth.key;
  // The list's own parser: unknown or malformed values fall back or are left out, as on the page.
  const plan = exportPlan(parseListState(url.searchParams));

  const fetchPage: FetchPage = async (query, signal) => {
    const page = await callPlatform(operations["customers.list"], { query }, { ...(await callOptionsFor(key, request, requestId, deps, logBase)), signal });
    return page.rows as unknown as ExportRow[];
  };

  let stream: ReadableStream<Uint8Array>;
  try {
    stream = await startCsvExport(plan, fetchPage, {
      onEnd: ({ rows, error, cancelled }) => {
        const line = { ...logBase, rows, cancelled: cancelled ?? false, ms: Math.round(performance.now() - started) };
        if (error) deps.log.warn({ ...line, err: errorField(error) }, "customer export failed midway");
        else deps.log.info(line, "customer export");
      },
    });
  } catch (error) {
    const failure = platformFailure(error, request, requestId, key, deps);
    if (failure.unexpected) deps.log.error({ ...logBase, err: errorField(error) }, "customer export failed");
    else deps.log.info({ ...logBase, status: failure.response.status, ...failure.log }, "customer export refused");
    return failure.response;
  }
  // A client that goes away cancels the stream, which aborts the request in flight and ends the walk.
  return new Response(stream, {
    status: 200,
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${exportFileName("customers")}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "x-request-id": requestId,
    },
  });
}
