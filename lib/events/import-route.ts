import "server-only";
import { apiErrorOf, apiRoute, errorField, jsonResponse, type RouteContext, type RouteInput } from "@/lib/http/route";
import { parseOperationInput, sendPlatformRequest } from "@/lib/platform/client";
import { operations } from "@/lib/platform/operations";
import { callOptionsFor, type ProxyDeps } from "@/lib/proxy/proxy";
import type { BatchResult, EventImportAnswer } from "./import-api";
import { importOperations } from "./import-operations";

/**
 * `POST /api/events/import` (the contract is in import-api.ts): several `batchPushEvents` batches
 * of the /events import in one request. It is a route like the proxy, with the proxy's deps
 * (CSRF, the `X-Open-App-Id` session, the installation's token), validates each batch against the
 * operation's schema (§4.3, §8: at most 100 events) and sends the batches to the platform one after
 * another. Platform tokens never reach the browser or the logs.
 */

const op = operations["events.batchPush"];

/** After a failure that may pass (429, network, 5xx), the platform is spared the request's other batches. */
const mayPass = (status: number) => status === 429 || status >= 500;

export const handleEventImport = apiRoute({ name: "event import", operation: importOperations["events.import"] }, async (ctx: RouteContext<ProxyDeps, RouteInput<(typeof importOperations)["events.import"]>>) => {
  const results: BatchResult[] = [];
  const options = await callOptionsFor(ctx);
  const { batches } = ctx.input.body;
  const validate = (i: number) => parseOperationInput(op, { body: batches[i] });
  let next = validate(0);
  let stopped = false;
  for (let i = 0; i < batches.length; i++) {
    const input = next;
    if (stopped) {
      results.push({ status: "not_sent" });
      continue;
    }
    if (!input.ok) {
      results.push({ status: "failed", httpStatus: 422, error: { code: "invalid_input", message: input.error.message, fieldErrors: input.error.fieldErrors } });
      if (i + 1 < batches.length) next = validate(i + 1);
      continue;
    }
    const sending = sendPlatformRequest(op, input.value, { ...options, inputParsed: true, relayOnly: true });
    // The next batch is validated while this one is at the platform: the platform does not wait for the app.
    if (i + 1 < batches.length) next = validate(i + 1);
    try {
      await sending;
      results.push({ status: "stored" });
    } catch (error) {
      const failed = apiErrorOf(error, ctx);
      const { status, code, message, fieldErrors, retryAfterSeconds } = failed.error;
      // Sign-in needed, or the browser went away: the request as a whole (see import-api.ts).
      if (status === 401 || status === 499) {
        Object.assign(ctx.fields, failed.log, { batches: results.length + 1, stored: count(results, "stored") });
        throw failed.error;
      }
      if (failed.unexpected) ctx.log.error({ ...ctx.fields, err: errorField(error) }, "event import batch failed");
      results.push({ status: "failed", httpStatus: status, error: { code, message, fieldErrors, retryAfterSeconds } });
      stopped = mayPass(status);
    }
  }
  const answer: EventImportAnswer = { results };
  Object.assign(ctx.fields, { batches: results.length, stored: count(results, "stored"), failed: count(results, "failed"), notSent: count(results, "not_sent") });
  return jsonResponse(200, JSON.stringify(answer), ctx.requestId);
});

const count = (results: BatchResult[], status: BatchResult["status"]) => results.filter((r) => r.status === status).length;
