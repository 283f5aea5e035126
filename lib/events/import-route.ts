import "server-only";
import { z } from "zod";
import { parseOperationInput, sendPlatformRequest } from "@/lib/platform/client";
import { operations } from "@/lib/platform/operations";
import { answerLogger, authenticate, callOptionsFor, errorField, errorResponse, jsonResponse, platformFailure, readJsonBody, requestIdOf, type ProxyDeps } from "@/lib/platform/proxy";
import { MAX_BATCHES_PER_REQUEST, type BatchResult, type EventImportAnswer } from "./import-api";

/**
 * `POST /api/events/import` (the contract is in import-api.ts): several `batchPushEvents` batches
 * of the /events import in one request. It authenticates like the proxy, with the proxy's deps
 * (CSRF, the `X-Open-App-Id` session, the installation's token), validates each batch against the
 * operation's schema (§4.3, §8: at most 100 events) and sends the batches to the platform one after
 * another. Platform tokens never reach the browser or the logs.
 */

const op = operations["events.batchPush"];

const envelope = z.strictObject({
  batches: z.array(z.unknown()).min(1, "at least one batch").max(MAX_BATCHES_PER_REQUEST, `at most ${MAX_BATCHES_PER_REQUEST} batches per request`),
});

/** After a failure that may pass (429, network, 5xx), the platform is spared the request's other batches. */
const mayPass = (status: number) => status === 429 || status >= 500;

export async function handleEventImport(request: Request, deps: ProxyDeps): Promise<Response> {
  const requestId = requestIdOf(request);
  const url = new URL(request.url);
  const logBase = { requestId, method: "POST", path: url.pathname, op: "events.import" };
  const finish = answerLogger(deps.log, logBase, "event import");

  const auth = await authenticate(request, url, requestId, deps, { csrf: true });
  if (!auth.ok) return finish(auth.response);
  const read = await readJsonBody(request, requestId);
  if (!read.ok) return finish(read.response);
  const parsed = envelope.safeParse(read.value ?? null);
  if (!parsed.success) {
    const fieldErrors = parsed.error.issues.map((issue) => ({ field: issue.path.join(".") || "body", message: issue.message }));
    return finish(errorResponse(requestId, 422, "invalid_input", "the request is not valid", { fieldErrors }));
  }

  const results: BatchResult[] = [];
  let stopped = false;
  try {
    const options = await callOptionsFor(auth.key, request, requestId, deps, logBase);
    const { batches } = parsed.data;
    const validate = (i: number) => parseOperationInput(op, { body: batches[i] });
    let next = validate(0);
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
        const failed = platformFailure(error, request, requestId, auth.key, deps);
        // Sign-in needed, or the browser went away: the request as a whole (see import-api.ts).
        if (failed.failure.status === 401 || failed.failure.status === 499) return finish(failed.response, { ...failed.log, batches: results.length + 1, stored: count(results, "stored") });
        if (failed.unexpected) deps.log.error({ ...logBase, err: errorField(error) }, "event import batch failed");
        const { status, code, message, fieldErrors, retryAfterSeconds } = failed.failure;
        results.push({ status: "failed", httpStatus: status, error: { code, message, fieldErrors, retryAfterSeconds } });
        stopped = mayPass(status);
      }
    }
  } catch (error) {
    const failure = platformFailure(error, request, requestId, auth.key, deps);
    if (failure.unexpected) deps.log.error({ ...logBase, err: errorField(error) }, "event import failed");
    return finish(failure.response, failure.log);
  }
  const answer: EventImportAnswer = { results };
  return finish(jsonResponse(200, JSON.stringify(answer), requestId), {
    batches: results.length,
    stored: count(results, "stored"),
    failed: count(results, "failed"),
    notSent: count(results, "not_sent"),
  });
}

const count = (results: BatchResult[], status: BatchResult["status"]) => results.filter((r) => r.status === status).length;
