"use client";
import { useCallback, useMemo, useState } from "react";
import type { ParserMap } from "@/lib/ui/url-parsers";
import { useUrlState } from "@/lib/hooks/use-url-state";
import type { ListDefinition } from "./list-state";
import { EMPTY_SELECTION, togglePage, toggleOne, withoutIds, type SelectableRow, type Selection } from "./selection";

type SortOrder = "asc" | "desc";
type SortOf<S> = S extends { sort: infer K extends string; order: SortOrder } ? K : never;
type Setter<S> = (next: S | ((previous: S) => S)) => void;

/**
 * The one controller of a console list (customers, lists, list members, tags, orders, events,
 * shops, shop groups, media imports, activity): its state lives in the URL (`defineList`,
 * lib/ui/list-state.ts; written with history *replace*: the console lives in the admin's iframe),
 * and it gives the pieces every list shows, so each page wires them the same way:
 * - `update(patch)`: a filter, sort or page size changed: back to the first page (`firstPage`);
 * - `tableSort` for `DataTable` (header clicks) and `controls` for `ListControls` (sort / size);
 * - `pager(...)` for `Pagination` by number, `set` for keyset steps (links: the list's `serialize`);
 * - `selection` for bulk actions, kept in memory (never in a shared link), across pages.
 * The total comes from the list's own answer (`pageCount`, `hasNextPage` in list-state.ts).
 */
export function useListController<P extends ParserMap, S>(list: ListDefinition<P, S>, options?: { shallow?: boolean }) {
  const [state, set] = useUrlState(list, options);
  const [selected, setSelected] = useState<Selection>(EMPTY_SELECTION);

  const update = useCallback((patch: Partial<S>) => set((s) => list.firstPage({ ...s, ...patch })), [list, set]);
  const selection = useMemo(
    () => ({
      selected,
      toggle: (row: SelectableRow) => setSelected((s) => toggleOne(s, row)),
      togglePage: (rows: readonly SelectableRow[]) => setSelected((s) => togglePage(s, rows)),
      remove: (ids: Iterable<string>) => setSelected((s) => withoutIds(s, ids)),
      clear: () => setSelected(EMPTY_SELECTION),
    }),
    [selected],
  );
  const sorted = state as S & { sort?: SortOf<S>; order?: SortOrder; rows?: number; page?: number };

  return {
    state,
    /** Any new state, as is (a keyset step, a column choice). */
    set: set as Setter<S>,
    update,
    /** Sorting by the table's headers (`DataTable`'s `sort`). */
    tableSort: { value: sorted.sort as SortOf<S>, order: sorted.order ?? "asc", onChange: (sort: { sort: SortOf<S>; order: SortOrder }) => update(sort as unknown as Partial<S>) },
    /** The sort / order / size selects (`ListControls`): a change starts from the first page. */
    controls: { rows: sorted.rows ?? 0, onChange: (change: Partial<{ sort: SortOf<S>; order: SortOrder; rows: number }>) => update(change as unknown as Partial<S>) },
    /**
     * `Pagination` by number: the page shown, the count where known, whether a next page exists;
     * `move` makes the state of another page (the customers' keyset steps), else `page` is set.
     */
    pager: ({ pages, hasNext, move }: { pages: number | undefined; hasNext: boolean; move?: (state: S, page: number) => S }) => ({
      page: sorted.page ?? 1,
      pages,
      hasNext,
      onPage: (page: number) => set((s) => (move ? move(s, page) : { ...s, page })),
    }),
    selection,
  };
}

export type ListController<S> = ReturnType<typeof useListController<ParserMap, S>>;
