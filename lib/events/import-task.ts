import { csvRecord, UTF8_BOM } from "@/lib/csv";
import type { TaskContext } from "@/lib/tasks/task-types";
import { openEventCsv } from "./event-csv";
import type { RowProblem } from "./event-rows";
import { MAX_REPORT_ROWS } from "./failure-report";
import { EventImport, type ImportOptions, type SendBatches, type SendFailure } from "./import-run";

/**
 * The event import as a background task (lib/tasks): the CSV staff chose is uploaded to the app's
 * store first (import-uploads.ts), and the task reads it from there and sends its rows with the
 * same scheduler the page used (`EventImport`: batches of ≤ 100, §4.3, §8; retries, refusals per
 * row), straight to the platform with the installation's token. The task's file is the failure
 * report (row, reason, the row's own cells), in file order.
 *
 * Resuming after a restart: batches finish out of order, so the checkpoint is the row up to which
 * every row is settled (stored or failed); the report's lines of those rows are appended with it
 * (the task store writes both in one transaction, lib/tasks), and a resumed run reads the file
 * again from the next row on. A row sent twice this way is stored once: every row has a `date` and so an
 * `externalId` (§2.3).
 */

export type ImportRule = "date" | "md5";

export type EventImportInput = {
  /** The upload holding the CSV (import-uploads.ts). */
  upload: string;
  /** The file's name and size as the browser gave them (shown; the size is the progress's end). */
  name: string;
  size: number;
  /** The §2.3 duplicate rule for rows without an `externalId` (see start-import.ts). */
  rule: ImportRule;
  /** The language the reasons of the failure report are written in (the starter's). */
  locale: string;
};

export type EventImportCheckpoint = {
  /** Every data row up to this row number (the file's own numbering) is settled. */
  row: number;
  bytesRead: number;
  sent: number;
  failed: number;
  invalid: number;
  /** The failure lines in the report at that row. */
  reportRows: number;
};

export type EventImportResult = { rows: number; sent: number; failed: number; invalid: number; sourceError: string | null; reportRows: number; bytesRead: number };

export type EventImportContext = Pick<TaskContext<EventImportInput, EventImportCheckpoint>, "input" | "checkpoint" | "progress" | "signal" | "file">;

export type EventImportDeps = {
  /** The uploaded CSV from its first byte. */
  open: () => ReadableStream<Uint8Array>;
  send: SendBatches;
  classify: (error: unknown) => SendFailure;
  describe: (problems: RowProblem[]) => string;
  /** The report's first two column headers, in the input's language. */
  labels: { row: string; reason: string };
  /** Thrown when the file's header cannot be imported (the page checks it before the upload). */
  headerError: (problems: string[]) => Error;
  /** The progress's sentence for people ("1,200 sent, 3 failed"), in the input's language. */
  message?: (at: EventImportCheckpoint) => string;
} & Pick<ImportOptions, "concurrency" | "maxAttempts" | "baseDelayMs" | "sleep">;

export const REPORT_NAME = "events-import-failures.csv";

type Settled = { line: string | null; invalid: boolean; bytesRead: number };

export async function runEventImport(ctx: EventImportContext, deps: EventImportDeps): Promise<EventImportResult> {
  const opened = await openEventCsv(deps.open(), deps.describe);
  if (!opened.plan) throw deps.headerError(opened.problems.map((p) => ("column" in p ? String(p.column) : p.code)));
  let at = ctx.checkpoint;
  if (at === undefined) {
    await ctx.file.begin(REPORT_NAME, "text/csv; charset=utf-8");
    ctx.file.append(UTF8_BOM + csvRecord([deps.labels.row, deps.labels.reason, ...opened.header]));
    at = { row: 0, bytesRead: 0, sent: 0, failed: 0, invalid: 0, reportRows: 0 };
    await ctx.progress({ done: 0, total: ctx.input.size, message: null, checkpoint: at });
  }
  const from = at.row;

  // Rows handed to the scheduler, in file order, and what became of those settled so far.
  const order: number[] = [];
  let head = 0;
  const settled = new Map<number, Settled>();
  const bytesOf = new Map<number, number>();
  const invalidRows = new Set<number>();
  async function* source() {
    for await (const row of opened.rows) {
      if (row.row <= from) continue;
      order.push(row.row);
      bytesOf.set(row.row, row.bytesRead);
      if (!row.event) invalidRows.add(row.row);
      yield row;
    }
  }

  // The checkpoint moves over the settled rows at the front, one store write at a time.
  let flushing: Promise<void> | null = null;
  let again = false;
  let failure: unknown;
  const advance = async () => {
    let lines = "";
    let next = at!;
    while (head < order.length && settled.has(order[head]!)) {
      const row = order[head++]!;
      const s = settled.get(row)!;
      settled.delete(row);
      const keep = s.line !== null && next.reportRows < MAX_REPORT_ROWS;
      if (keep) lines += s.line;
      next = {
        ...next,
        row,
        bytesRead: s.bytesRead,
        sent: next.sent + (s.line === null ? 1 : 0),
        failed: next.failed + (s.line === null ? 0 : 1),
        invalid: next.invalid + (s.invalid ? 1 : 0),
        reportRows: next.reportRows + (keep ? 1 : 0),
      };
    }
    if (head > 4096) {
      order.splice(0, head);
      head = 0;
    }
    if (next === at) return;
    if (lines) ctx.file.append(lines);
    at = next;
    await ctx.progress({ done: Math.min(at.bytesRead, ctx.input.size), total: ctx.input.size, message: deps.message?.(at) ?? null, checkpoint: at });
  };
  const flush = () => {
    if (failure !== undefined) return;
    if (flushing) {
      again = true;
      return;
    }
    flushing = advance()
      .catch((error: unknown) => {
        // Cancelled (or the store failed): stop sending; the run ends with this error.
        failure ??= error;
        importer.cancel();
      })
      .finally(() => {
        flushing = null;
        if (again && failure === undefined) {
          again = false;
          flush();
        }
      });
  };
  const settle = (row: number, s: Omit<Settled, "bytesRead">) => {
    settled.set(row, { ...s, bytesRead: bytesOf.get(row) ?? 0 });
    bytesOf.delete(row);
  };

  const importer = new EventImport({
    source: source(),
    send: deps.send,
    classify: deps.classify,
    onFailure: (row, values, reason) => settle(row, { line: csvRecord([String(row), reason, ...values]), invalid: invalidRows.delete(row) }),
    onStored: (rows) => rows.forEach((row) => settle(row, { line: null, invalid: false })),
    onProgress: () => flush(),
    commonProps: ctx.input.rule === "md5" ? { externalIdGenerator: "md5" } : undefined,
    concurrency: deps.concurrency,
    maxAttempts: deps.maxAttempts,
    baseDelayMs: deps.baseDelayMs,
    sleep: deps.sleep,
  });
  const onAbort = () => importer.cancel();
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  let result;
  try {
    result = await importer.done;
  } finally {
    ctx.signal.removeEventListener("abort", onAbort);
  }
  while (flushing) await flushing;
  if (failure !== undefined) throw failure;
  ctx.signal.throwIfAborted();
  flush();
  while (flushing) await flushing;
  if (failure !== undefined) throw failure;
  return { rows: at.sent + at.failed, sent: at.sent, failed: at.failed, invalid: at.invalid, sourceError: result.sourceError ?? null, reportRows: at.reportRows, bytesRead: at.bytesRead };
}
