import type { ParserMap } from "@/lib/ui/url-parsers";
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

