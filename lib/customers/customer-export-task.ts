import { UTF8_BOM } from "@/lib/csv";
import type { TaskContext } from "@/lib/tasks/task-types";
import { csvHeader, csvRows, exportPlan, ID_BATCH, idBatchQuery, walkCustomers, type ExportPlan, type FetchPage } from "./customer-export";
import { countInput, parseListState, searchParamsOf, type CustomerListState } from "./customer-list-state";
import { indexRequestOf, type IndexRequest } from "./export-ids";

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
export type CustomerExportInput = {
  list: string;
  /** The members of this platform list instead (§4.4), with the list state's columns. */
  listId?: string;
};

export type CustomerExportCheckpoint = {
  /** The last id written; null before the first page. */
  after: string | null;
  rows: number;
  total: number | null;
  /** A search or tag export: how many of the index's ids were read live already (resumed after them). */
  consumed?: number;
  /** A list's export: the last member's customer id read live (resumed after it, by the list's keyset). */
  lastId?: string;
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
  /** The people index's ids of a search or tag, a batch at a time in the index's order (the customers page's search). */
  searchIds?: (request: IndexRequest, signal: AbortSignal) => AsyncIterable<readonly string[]>;
  /** The customer ids of a list's members after `since` (none: from the first), a batch at a time in customer id order (§4.4 keyset paging). */
  memberIds?: (listId: string, since: string | undefined, signal: AbortSignal) => AsyncIterable<readonly string[]>;
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
    // A list's members are not the list state's filter: no total from the customers count.
    const counted = ctx.input.listId ? undefined : countInput(state);
    // A failed count only costs the progress bar its end; the export goes on.
    const total = counted && deps.count ? await deps.count(counted, ctx.signal).catch(() => null) : null;
    await ctx.file.begin(deps.fileName, EXPORT_CONTENT_TYPE);
    ctx.file.append(UTF8_BOM + csvHeader(plan.columns));
    at = { after: null, rows: 0, total };
    await ctx.progress({ done: 0, total, message: null, checkpoint: at });
  }
  if (ctx.input.listId) {
    if (!deps.memberIds) throw new Error("this export cannot read a list's members");
    // Resumed by the list's own keyset: a member added meanwhile below the last one read is not read twice.
    return { rows: (await exportIds(ctx, deps, plan, deps.memberIds(ctx.input.listId, at.lastId, ctx.signal), at, 0)).rows };
  }
  const search = searchParamsOf(state);
  if (search && deps.searchIds) return { rows: (await exportIds(ctx, deps, plan, deps.searchIds(indexRequestOf(search), ctx.signal), at, at.consumed ?? 0)).rows };
  for await (const rows of walkCustomers(plan, deps.fetchPage, ctx.signal, deps.pageSize, at.after ?? undefined)) {
    ctx.file.append(csvRows(rows, plan.columns));
    at = { after: rows.at(-1)!.id, rows: at.rows + rows.length, total: at.total };
    await ctx.progress({ done: at.rows, total: at.total === null ? null : Math.max(at.total, at.rows), checkpoint: at });
  }
  return { rows: at.rows };
}

/**
 * An export of given ids (a search or tag: the index's ids in its order; a list: its members in
 * customer id order), each batch read live from the platform with the list's other filters (the
 * customers page shows the same), narrowed by the user's own id list. The checkpoint counts the ids
 * read and keeps the last one; a resumed search skips that many (the index's order puts a customer
 * indexed meanwhile at the end), a resumed list starts after the last one.
 */
async function exportIds(ctx: CustomerExportContext, deps: CustomerExportDeps, plan: ExportPlan, source: AsyncIterable<readonly string[]>, start: CustomerExportCheckpoint, skipFirst: number): Promise<CustomerExportCheckpoint> {
  const own = plan.filters.idList ? new Set(String(plan.filters.idList).split(",")) : undefined;
  let at = { ...start, consumed: start.consumed ?? 0 };
  let skip = skipFirst;
  for await (const batch of source) {
    let ids = batch;
    if (skip > 0) {
      const skipped = Math.min(skip, ids.length);
      ids = ids.slice(skipped);
      skip -= skipped;
    }
    for (let i = 0; i < ids.length; i += ID_BATCH) {
      const part = ids.slice(i, i + ID_BATCH);
      const wanted = own ? part.filter((id) => own.has(id)) : part;
      const rows = wanted.length > 0 ? await deps.fetchPage(idBatchQuery(plan, wanted), ctx.signal) : [];
      if (rows.length > 0) ctx.file.append(csvRows(rows, plan.columns));
      at = { ...at, after: rows.at(-1)?.id ?? at.after, rows: at.rows + rows.length, consumed: at.consumed + part.length, lastId: part.at(-1)! };
      await ctx.progress({ done: at.rows, total: null, checkpoint: at });
    }
  }
  return at;
}
