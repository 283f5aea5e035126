import { ApiError } from "@/lib/http/api-error";
import type { BatchBody, BatchOutcome } from "./import-run";

/**
 * The app's event import route, shared by the browser and the server (no schemas here).
 *
 * `POST /api/events/import` with `{ batches: [{ events, commonProps? }, ...] }`, 1 to
 * `MAX_BATCHES_PER_REQUEST` batches that each are a `batchPushEvents` body (§4.3, at most 100
 * events, §8). The app validates each batch as the platform proxy would and sends them to the
 * platform one after another, so one request never has more than one batch at the platform. It
 * answers `{ results }`, one per batch in order:
 * - `stored`;
 * - `failed` with the HTTP status and the `error` object the proxy would have answered for that
 *   batch alone (`fieldErrors` name items as `events.3.date` or `events[3].date`);
 * - `not_sent`: an earlier batch failed in a way that may pass (network, 429, 5xx), so the rest
 *   were not tried, to spare a platform in trouble.
 * A failure of the whole request is the proxy's usual error answer: 401 `reauth_required` when the
 * session or the authorization is gone (even midway: the batches are sent again after sign-in and
 * none is stored twice, §2.3), 403 CSRF, 413, 415, 400, 422 for the envelope.
 *
 * Why a route of its own: through the proxy every batch of 100 is a request, whose cost in the
 * browser and in the app (HTTP, session, CSRF, logging) is of the order of the platform's own work
 * for the batch; ten batches a request take most of that out (scripts/bench/events-import.ts).
 */
export const MAX_BATCHES_PER_REQUEST = 10;

export type BatchError = { code: string; message: string; fieldErrors?: { field: string; message: string }[]; retryAfterSeconds?: number };
export type BatchResult = { status: "stored" } | { status: "not_sent" } | { status: "failed"; httpStatus: number; error: BatchError };
export type EventImportRequest = { batches: BatchBody[] };
export type EventImportAnswer = { results: BatchResult[] };

/** One result as the import's scheduler takes it: a failure is the ApiError the proxy's answer would have given. */
export function outcomeOf(result: BatchResult, requestId?: string): BatchOutcome {
  if (result.status === "stored") return { stored: true };
  if (result.status === "not_sent") return { stored: false };
  const { code, message, fieldErrors, retryAfterSeconds } = result.error;
  return { stored: false, error: new ApiError({ status: result.httpStatus, code, message, fieldErrors, retryAfterSeconds, requestId }) };
}
