import type { InputOf } from "@/lib/platform/operations";
import { csvRecord, UTF8_BOM } from "@/lib/csv";
import { filterQuery, keysetParams, selectOf, userIdRange, type CustomerColumn, type CustomerListState } from "./customer-list-state";
import { advances, type IdOrder, type IdRange } from "./id-keyset";

/**
 * CSV export of the customers list's current filter, any size: the platform is walked by keyset
 * on id (§4.1 `idFrom`/`idTo`, `page=1`, `sidx=id`) in large pages, one request at a time, and
 * each page becomes CSV as the reader asks for it (a pull stream: a slow client holds back the
 * walk instead of the server buffering the table).
 *
 * Choices (kept in components/README.md):
 * - Rows: every filter of the list, in id order (the list's direction when it is sorted by id,
 *   ascending otherwise: only id order can be walked by keyset).
 * - Columns: the list's chosen columns (what the user sees), with `id` always included (first
 *   when the user did not choose it). Headers are the §2.1 field names, stable for scripts.
 * - Times: as the platform sends them, UTC `YYYY-MM-DDTHH:MM:SSZ` (§2), headed `… (UTC)`.
 */

type ListQuery = NonNullable<InputOf<"customers.list">["query"]>;
export type ExportRow = { id: string } & Record<string, unknown>;
/** One page of `customers.list`; `signal` aborts the request when the export is cancelled. */
export type FetchPage = (query: ListQuery, signal: AbortSignal) => Promise<readonly ExportRow[]>;

/** §8 does not show the customer query's maximum `rows`; the sandbox allows 1000. */
export const EXPORT_PAGE_SIZE = 1000;

const TIME_COLUMNS = new Set<CustomerColumn>(["dateJoin", "dateCreated", "lastUpdated"]);

export type ExportPlan = {
  filters: Omit<ListQuery, "rows" | "page" | "sidx" | "sord" | "select" | "idFrom" | "idTo">;
  userRange: IdRange;
  order: IdOrder;
  columns: CustomerColumn[];
};

/** What an export of a list state walks and writes. */
export function exportPlan(state: CustomerListState): ExportPlan {
  const { idFrom: _from, idTo: _to, ...filters } = filterQuery(state.filters);
  return {
    filters,
    userRange: userIdRange(state.filters),
    order: state.sort === "id" ? state.order : "asc",
    columns: state.columns.includes("id") ? [...state.columns] : ["id", ...state.columns],
  };
}

/** The query of the page after `after` (the first page without it). */
export function exportPageQuery(plan: ExportPlan, after: string | undefined, rows = EXPORT_PAGE_SIZE): ListQuery {
  return {
    ...plan.filters,
    ...keysetParams(plan.order, after === undefined ? undefined : { dir: "after", id: after }, plan.userRange),
    select: selectOf(plan.columns),
    rows,
    page: 1,
    sidx: "id",
  };
}

export function csvHeader(columns: readonly CustomerColumn[]): string {
  return csvRecord(columns.map((c) => (TIME_COLUMNS.has(c) ? `${c} (UTC)` : c)));
}

export function csvRows(rows: readonly ExportRow[], columns: readonly CustomerColumn[]): string {
  let out = "";
  for (const row of rows) out += csvRecord(columns.map((c) => row[c]));
  return out;
}

/**
 * The pages of an export, one request at a time (after `from` when given). It stops at the first empty page rather than at
 * a short one, so a platform that caps `rows` below what was asked still gets walked to the end;
 * a page whose last id does not move past the previous one stops it with an error (a platform
 * ignoring the id range would otherwise loop forever).
 */
export async function* walkCustomers(plan: ExportPlan, fetchPage: FetchPage, signal: AbortSignal, pageSize = EXPORT_PAGE_SIZE, from?: string): AsyncGenerator<readonly ExportRow[]> {
  // `from`: the last id an earlier run wrote (a resumed export task walks on after it).
  let after: string | undefined = from;
  for (;;) {
    signal.throwIfAborted();
    const rows = await fetchPage(exportPageQuery(plan, after, pageSize), signal);
    if (rows.length === 0) return;
    const last = rows.at(-1)!.id;
    if (after !== undefined && !advances(plan.order, after, last)) throw new Error(`the platform answered ids that do not follow ${after}; the export stopped`);
    yield rows;
    after = last;
  }
}

/** Ids asked of the platform at once by `idList` (one page of rows). */
export const ID_BATCH = 200;

/** The query of one batch of ids: the plan's filters and its id range, the ids as `idList`. */
export function idBatchQuery(plan: ExportPlan, ids: readonly string[]): ListQuery {
  return {
    ...plan.filters,
    ...keysetParams(plan.order, undefined, plan.userRange),
    idList: ids.join(","),
    select: selectOf(plan.columns),
    rows: Math.max(1, ids.length),
    page: 1,
    sidx: "id",
    sord: plan.order,
  };
}

export type ExportOutcome = { rows: number; error?: unknown; cancelled?: boolean };

/**
 * Starts an export: the first page is fetched before anything is returned, so that a refusal
 * (authorization, validation) becomes an HTTP error rather than a broken download. The stream
 * then writes the BOM, the header and the first page, and fetches each further page only when the
 * reader has taken the previous one (`highWaterMark` 1: at most one page waits in memory). An
 * error midway errors the stream (the browser sees the download fail); `onEnd` says how it ended.
 */
export async function startCsvExport(
  plan: ExportPlan,
  fetchPage: FetchPage,
  options: { pageSize?: number; onEnd?: (outcome: ExportOutcome) => void } = {},
): Promise<ReadableStream<Uint8Array>> {
  const abort = new AbortController();
  const pages = walkCustomers(plan, fetchPage, abort.signal, options.pageSize);
  const first = await pages.next();
  const encoder = new TextEncoder();
  let written = 0;
  let ended = false;
  const end = (outcome: Omit<ExportOutcome, "rows">) => {
    if (ended) return;
    ended = true;
    options.onEnd?.({ rows: written, ...outcome });
  };
  const chunk = (rows: readonly ExportRow[]) => {
    written += rows.length;
    return csvRows(rows, plan.columns);
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(UTF8_BOM + csvHeader(plan.columns) + (first.done ? "" : chunk(first.value))));
        if (first.done) {
          controller.close();
          end({});
        }
      },
      async pull(controller) {
        let next: IteratorResult<readonly ExportRow[]>;
        try {
          next = await pages.next();
        } catch (error) {
          end(abort.signal.aborted ? { cancelled: true } : { error });
          throw error;
        }
        if (next.done) {
          controller.close();
          end({});
        } else controller.enqueue(encoder.encode(chunk(next.value)));
      },
      async cancel() {
        abort.abort();
        end({ cancelled: true });
        await pages.return(undefined).catch(() => undefined);
      },
    },
    { highWaterMark: 1 },
  );
}
