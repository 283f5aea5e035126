"use client";
import type { ReactNode } from "react";
import type { SortOrder } from "./list-controls";
import { SortableHeader } from "./sortable-header";

export type Column<T, S extends string = string> = {
  key: string;
  /** The header; a string where the column sorts (also the sort button's title). */
  header: ReactNode;
  /** Said to screen readers only (an actions column). */
  hideHeader?: boolean;
  /** The `sidx` this column sorts by. */
  sortKey?: S;
  align?: "right";
  /** Classes of the column's cells (and `headClassName` of its header), after the common ones. */
  className?: string;
  headClassName?: string;
  cell: (row: T, index: number) => ReactNode;
};

export type TableSort<S extends string> = {
  value: S;
  order: SortOrder;
  /** Headers sort on click (again: the other way); without it they only say how the rows are sorted. */
  onChange?: (sort: { sort: S; order: SortOrder }) => void;
};

type Props<T, S extends string> = {
  rows: readonly T[];
  rowKey: (row: T, index: number) => string;
  columns: readonly Column<T, S>[];
  /** The table's name for screen readers (visually hidden). */
  caption: string;
  testId?: string;
  /** A refetch is running: `aria-busy`, and the rows dim if it is slow. */
  busy?: boolean;
  sort?: TableSort<S>;
  rowClassName?: (row: T) => string | undefined;
  /** The row's record id as `data-row-id` (tests and scripts find a row by it when no id column is shown). */
  rowId?: (row: T) => string;
  /** A box of its own height that scrolls: focusable (keyboard scrolling) and named by this element id. */
  scrollLabelledBy?: string;
  /** A row drawn across every column instead of cell by cell (a folded group), in a `<tbody>` of its own. */
  fullRow?: (row: T, index: number) => { content: ReactNode; testId?: string } | undefined;
};

const align = (column: { align?: "right" }) => (column.align === "right" ? "text-right" : "");

/**
 * The console's table: a caption, headers (`SortableHeader` for the sorting ones, `aria-sort` on
 * all sorted ones), a row per item. Every list uses it; a column is a header and a cell renderer.
 */
export function DataTable<T, S extends string = string>({ rows, rowKey, columns, caption, testId, busy = false, sort, rowClassName, rowId, scrollLabelledBy, fullRow }: Props<T, S>) {
  const row = (item: T, index: number) => (
    <tr key={rowKey(item, index)} className={rowClassName?.(item) ?? "hover:bg-slate-50"} data-row-id={rowId?.(item)}>
      {columns.map((column) => (
        <td key={column.key} data-column={column.key} className={`px-3 py-2 text-slate-900 ${align(column)} ${column.className ?? ""}`}>
          {column.cell(item, index)}
        </td>
      ))}
    </tr>
  );
  // Runs of plain rows share a <tbody>; a full row gets its own (a group a test or a reader can address).
  const bodies: ReactNode[] = [];
  let run: ReactNode[] = [];
  const endRun = () => {
    if (run.length) bodies.push(<tbody key={`run-${bodies.length}`} className="divide-y divide-slate-200">{run}</tbody>);
    run = [];
  };
  rows.forEach((item, index) => {
    const full = fullRow?.(item, index);
    if (!full) return void run.push(row(item, index));
    endRun();
    bodies.push(
      <tbody key={rowKey(item, index)} data-testid={full.testId} className="border-t border-slate-200">
        <tr className="bg-slate-50">
          <td colSpan={columns.length} className="px-3 py-2 text-slate-900">{full.content}</td>
        </tr>
      </tbody>,
    );
  });
  endRun();
  const frame = scrollLabelledBy ? "max-h-72 overflow-auto rounded border border-slate-200" : "overflow-x-auto rounded-lg border border-slate-300 bg-white";
  return (
    <div className={frame} aria-busy={busy} {...(scrollLabelledBy ? { tabIndex: 0, "aria-labelledby": scrollLabelledBy } : {})}>
      <table className={`min-w-full text-left text-sm ${busy ? "opacity-70 transition-opacity delay-300" : ""}`} data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 border-b border-slate-300 bg-slate-100">
          <tr>
            {columns.map((column) => {
              const sorted = sort !== undefined && column.sortKey === sort.value;
              if (column.sortKey !== undefined && sort?.onChange && typeof column.header === "string") {
                const key = column.sortKey;
                const onChange = sort.onChange;
                return (
                  <SortableHeader key={column.key} label={column.header} sorted={sorted} order={sort.order} onSort={() => onChange({ sort: key, order: sorted && sort.order === "asc" ? "desc" : "asc" })} className={`${align(column)} ${column.headClassName ?? ""}`} />
                );
              }
              return (
                <th
                  key={column.key}
                  scope="col"
                  aria-sort={sorted ? (sort.order === "asc" ? "ascending" : "descending") : undefined}
                  className={`px-3 py-2 font-semibold whitespace-nowrap text-slate-900 ${align(column)} ${column.headClassName ?? ""}`}
                >
                  {column.hideHeader ? <span className="sr-only">{column.header}</span> : column.header}
                </th>
              );
            })}
          </tr>
        </thead>
        {bodies.length ? bodies : <tbody />}
      </table>
    </div>
  );
}
