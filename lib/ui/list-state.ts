import type { ParserMap } from "#nuqs";
import type { UrlState } from "./url-params";

/**
 * A console list declared once: its URL state (`defineUrlState`: parsers with defaults, read by the
 * server page's prefetch with `parse` and by the browser through `useListController`) and where a
 * change of filter, sort or page size starts again (`firstPage`): page 1 of an offset list, no
 * boundary for a keyset one, the state itself for a list shown whole. Pure: server pages import it.
 */
export type ListDefinition<P extends ParserMap, S> = UrlState<P, S> & {
  /** The first page of the same filters and sort. */
  firstPage: (state: S) => S;
};

export function defineList<P extends ParserMap, S>(url: UrlState<P, S>, firstPage: (state: S) => S = (state) => state): ListDefinition<P, S> {
  return { ...url, firstPage };
}

/** `firstPage` of a list paged by number (`page` from 1). */
export const offsetFirstPage = <S extends { page: number }>(state: S): S => ({ ...state, page: 1 });

/** Pages of a list from its number of records (§4.1 count, §4.2 `records`); undefined when unknown. */
export function pageCount(records: number | null | undefined, rows: number): number | undefined {
  if (typeof records !== "number" || !Number.isFinite(records)) return undefined;
  return Math.max(1, Math.ceil(records / rows));
}

/** Whether there is a page after `page`: by the page count when known, else a full page came back. */
export function hasNextPage(page: number, pages: number | undefined, shown: number, rows: number): boolean {
  return pages !== undefined ? page < pages : shown >= rows;
}

type Sortable = string | number | null | undefined;
const DIGITS = /^\d+$/;

/** Two values of a column in ascending order: numbers by value, digit strings (64-bit ids, §2) by length then digits, text as the language orders it; empty last. */
export function compareValues(a: Sortable, b: Sortable): number {
  if (a === null || a === undefined || a === "") return b === null || b === undefined || b === "" ? 0 : 1;
  if (b === null || b === undefined || b === "") return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  const [x, y] = [String(a), String(b)];
  if (DIGITS.test(x) && DIGITS.test(y)) return x.length - y.length || (x < y ? -1 : x > y ? 1 : 0);
  return x.localeCompare(y);
}

/**
 * A list the app's own route answers whole (shop groups, media imports), sorted in the browser by
 * the column the URL names; `valueOf` gives each sort key's value of a row. Stable; empty values last.
 */
export function sortRows<T, K extends string>(rows: readonly T[], sort: K, order: "asc" | "desc", valueOf: Record<K, (row: T) => Sortable>): T[] {
  const direction = order === "asc" ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => {
      const [x, y] = [valueOf[sort](a.row), valueOf[sort](b.row)];
      const empty = (v: Sortable) => v === null || v === undefined || v === "";
      // Empty values stay last whichever way the column sorts.
      if (empty(x) || empty(y)) return compareValues(x, y) || a.index - b.index;
      return direction * compareValues(x, y) || a.index - b.index;
    })
    .map(({ row }) => row);
}
