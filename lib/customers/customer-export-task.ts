import { UTF8_BOM } from "@/lib/csv";
import type { TaskContext } from "@/lib/tasks/task-types";
import { csvHeader, csvRows, exportPlan, walkCustomers, type ExportPlan, type FetchPage } from "./customer-export";
import { countInput, parseListState, type CustomerListState } from "./customer-list-state";

/**
 * The customers export as a background task (lib/tasks): the same walk and the same CSV as the
 * streamed download (customer-export.ts), written into the task's file in the app's store instead
 * of to one browser. So it goes on when the tab is closed, every staff member sees its progress,
 * and an app restart resumes it where it stopped.
 *
 * Resuming without a duplicate or a missing row: a page's CSV is appended and then the page's last
 * id saved as the checkpoint with the progress; the task store writes both in one transaction
 * (lib/tasks), so the file always ends where the checkpoint says and a resumed run walks on after
 * the checkpoint's id.
 */

/**
 * What the task is started with: the customers list's URL state (`serializeListState`), the same
 * text the list's address bar carries, so the export is the list the user saw (filters, columns,
 * order). Anything added to the list's filters travels with it.
 */
export type CustomerExportInput = { list: string };

export type CustomerExportCheckpoint = {
  /** The last id written; null before the first page. */
  after: string | null;
  rows: number;
  total: number | null;
};

export type CustomerExportResult = { rows: number };

/** The part of a task's context the export uses (tests give a fake one). */
export type CustomerExportContext = Pick<TaskContext<CustomerExportInput, CustomerExportCheckpoint>, "input" | "checkpoint" | "progress" | "signal" | "file">;

export type CustomerExportDeps = {
  fetchPage: FetchPage;
  /** The §4.1 count of the filter, when the platform can count it (progress shows "n of total"). */
  count?: (input: NonNullable<ReturnType<typeof countInput>>, signal: AbortSignal) => Promise<number>;
  fileName: string;
  pageSize?: number;
};

export const EXPORT_CONTENT_TYPE = "text/csv; charset=utf-8";

/** The list state of a task's input (the list's own parser: unknown values fall back as on the page). */
export function exportState(input: CustomerExportInput): CustomerListState {
  return parseListState(new URLSearchParams(input.list));
}

export async function runCustomerExport(ctx: CustomerExportContext, deps: CustomerExportDeps): Promise<CustomerExportResult> {
  const state = exportState(ctx.input);
  const plan: ExportPlan = exportPlan(state);
  let at = ctx.checkpoint;
  if (at === undefined) {
    const counted = countInput(state);
    // A failed count only costs the progress bar its end; the export goes on.
    const total = counted && deps.count ? await deps.count(counted, ctx.signal).catch(() => null) : null;
    await ctx.file.begin(deps.fileName, EXPORT_CONTENT_TYPE);
    ctx.file.append(UTF8_BOM + csvHeader(plan.columns));
    at = { after: null, rows: 0, total };
    await ctx.progress({ done: 0, total, message: null, checkpoint: at });
  }
  for await (const rows of walkCustomers(plan, deps.fetchPage, ctx.signal, deps.pageSize, at.after ?? undefined)) {
    ctx.file.append(csvRows(rows, plan.columns));
    at = { after: rows.at(-1)!.id, rows: at.rows + rows.length, total: at.total };
    await ctx.progress({ done: at.rows, total: at.total === null ? null : Math.max(at.total, at.rows), checkpoint: at });
  }
  return { rows: at.rows };
}
