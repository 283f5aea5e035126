import { ApiError, ReauthRequiredError } from "@/lib/api/api-error";
import type { BrowserFetch } from "@/lib/api/browser-fetch";
import type { InputOf } from "@/lib/platform/operations";
import type { DuplicateRule } from "./event-fields";
import { openEventCsv } from "./event-csv";
import type { HeaderProblem, RowProblem } from "./event-rows";
import { FailureReport } from "./failure-report";
import { EventImport, type ImportOptions, type SendBatch, type SendFailure } from "./import-run";

/**
 * One event import, as the /events page runs it and the benchmark runs it in Node: the CSV byte
 * stream → rows (`openEventCsv`) → batches through `batchPushEvents` (`EventImport`) → a failure
 * report. `rule` is the §2.3 duplicate rule for rows without an `externalId`: `md5` goes to every
 * event through `commonProps` (§4.3), `date` sends nothing (the platform's default).
 */
export type StartImport = {
  stream: ReadableStream<Uint8Array>;
  send: SendBatch;
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

/** `batchPushEvents` through the app's proxy with the browser's fetcher (or the same code in Node). */
export function batchPushThrough(fetcher: BrowserFetch): SendBatch {
  return (body, signal) => fetcher("events.batchPush", { body } as InputOf<"events.batchPush">, { signal });
}

/** What the scheduler needs of a failed proxy call: retry network / 429 / 5xx, pause for sign-in. */
export function classifyApiError(error: unknown): SendFailure {
  if (error instanceof ReauthRequiredError) return { transient: false, pause: true, fieldErrors: [], message: error.message };
  if (error instanceof ApiError) return { transient: error.transient || error.status >= 500, fieldErrors: error.fieldErrors, message: error.message };
  return { transient: true, fieldErrors: [], message: error instanceof Error ? error.message : String(error) };
}
