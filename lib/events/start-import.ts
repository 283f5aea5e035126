import { ApiError, ReauthRequiredError } from "@/lib/http/api-error";
import type { AppCall } from "@/lib/api/browser-fetch";
import type { DuplicateRule } from "./event-fields";
import { openEventCsv } from "./event-csv";
import type { HeaderProblem, RowProblem } from "./event-rows";
import { FailureReport } from "./failure-report";
import { outcomeOf, type EventImportRequest } from "./import-api";
import { EventImport, type ImportOptions, type SendBatches, type SendFailure } from "./import-run";

/**
 * One event import, as the /events page runs it and the benchmark runs it in Node: the CSV byte
 * stream → rows (`openEventCsv`) → batches of `batchPushEvents`, several per request to the app's
 * import route (`EventImport`, `importThrough`) → a failure report. `rule` is the §2.3 duplicate
 * rule for rows without an `externalId`: `md5` goes to every event through `commonProps` (§4.3),
 * `date` sends nothing (the platform's default).
 */
export type StartImport = {
  stream: ReadableStream<Uint8Array>;
  send: SendBatches;
  describe: (problems: RowProblem[]) => string;
  rule: Exclude<DuplicateRule, "externalId">;
} & Pick<ImportOptions, "onProgress" | "concurrency" | "maxAttempts" | "baseDelayMs">;

export async function startEventImport(o: StartImport): Promise<{ problems: HeaderProblem[] } | { problems: []; run: EventImport; report: FailureReport }> {
  const opened = await openEventCsv(o.stream, o.describe);
  if (!opened.plan) return { problems: opened.problems };
  const report = new FailureReport(opened.header);
  const run = new EventImport({
    source: opened.rows,
    send: o.send,
    classify: classifyApiError,
    onFailure: (row, values, reason) => report.add(row, values, reason),
    onProgress: o.onProgress,
    commonProps: o.rule === "md5" ? { externalIdGenerator: "md5" } : undefined,
    concurrency: o.concurrency,
    maxAttempts: o.maxAttempts,
    baseDelayMs: o.baseDelayMs,
  });
  return { problems: [], run, report };
}

/** Batches through the app's import route (import-api.ts) with the browser's client (or the same code in Node). */
export function importThrough(call: AppCall): SendBatches {
  return async (batches, signal) => {
    const answer = await call("events.import", { body: { batches } satisfies EventImportRequest }, { signal });
    return answer.results.map((result) => outcomeOf(result));
  };
}

/** What the scheduler needs of a failed request or batch: retry network / 429 / 5xx, pause for sign-in. */
export function classifyApiError(error: unknown): SendFailure {
  if (error instanceof ReauthRequiredError) return { transient: false, pause: true, fieldErrors: [], message: error.message };
  if (error instanceof ApiError) {
    return { transient: error.transient || error.status >= 500, retryAfterSeconds: error.retryAfterSeconds, fieldErrors: error.fieldErrors, message: error.message };
  }
  return { transient: true, fieldErrors: [], message: error instanceof Error ? error.message : String(error) };
}
