"use client";
import { AppLink } from "@/components/ui/app-link";
import { useEffect, useRef, type ReactNode } from "react";
import type { Customer } from "@/lib/platform/resources";
import { pageSelection, type Selection, type SelectableRow } from "@/lib/ui/selection";
import { SORTABLE_COLUMNS, type CustomerColumn, type SortColumn } from "@/lib/customers/customer-columns";
import type { CustomerListState } from "@/lib/customers/customer-list-state";
import type { MessageKey, Translate } from "@/lib/i18n/messages";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { focusRing } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import type { SortOrder } from "@/components/ui/list-controls";
import { TimeText } from "@/components/ui/time-text";
import { TruncatedText } from "@/components/ui/truncated-text";

const TIME_COLUMNS = new Set<CustomerColumn>(["dateJoin", "dateCreated", "lastUpdated"]);
const BOOLEAN_COLUMNS = new Set<CustomerColumn>(["mobileVerified", "emailVerified"]);

export function cellText(customer: Customer, column: CustomerColumn, t: Translate): string {
  const value = (customer as Record<string, unknown>)[column];
  if (value === null || value === undefined || value === "") return "";
  if (column === "gender") return t(`gender.${value === 1 || value === 2 ? value : 0}` as MessageKey);
  if (BOOLEAN_COLUMNS.has(column)) return value ? t("yes") : t("no");
  return String(value);
}

/**
 * Widths that fit the default columns in the admin's 1024-px iframe (a 732-px pane beside the navigation), in
 * Chinese too (its dates are wider): the name and
 * email cut with an ellipsis (whole on hover and focus), a mobile number never cut.
 */
const MAX_WIDTH: Partial<Record<CustomerColumn, string>> = { displayName: "max-w-32", name: "max-w-32", nickName: "max-w-28", email: "max-w-32", mobile: "max-w-none", telephone: "max-w-none", id: "max-w-none" };
const maxWidthOf = (column: CustomerColumn) => MAX_WIDTH[column] ?? "max-w-16";

function Cell({ customer, column }: { customer: Customer; column: CustomerColumn }) {
  const { t } = useI18n();
  const value = (customer as Record<string, unknown>)[column];
  if (TIME_COLUMNS.has(column)) return <TimeText stacked value={typeof value === "string" ? value : null} />;
  const text = cellText(customer, column, t);
  return text ? <TruncatedText text={text} className={maxWidthOf(column)} /> : null;
}

/** What a customer is called in labels and summaries: the name, else the id. */
export function selectableRow(customer: Customer): SelectableRow {
  const name = [customer.displayName, customer.name].find((v) => typeof v === "string" && v.trim() !== "");
  return { id: String(customer.id), label: name ? String(name) : String(customer.id) };
}

/** The header checkbox: checked, unchecked, or indeterminate (some of the page), which only a property can set. */
function PageCheckbox({ state, onChange, label }: { state: "all" | "some" | "none"; onChange: () => void; label: string }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === "some";
  }, [state]);
  return <input ref={ref} type="checkbox" className={`h-4 w-4 accent-blue-700 ${focusRing}`} checked={state === "all"} onChange={onChange} aria-label={label} data-testid="select-page" />;
}

export type TableSelection = { selected: Selection; onToggle: (row: SelectableRow) => void; onTogglePage: (rows: SelectableRow[]) => void };

type Props = {
  rows: Customer[];
  state: CustomerListState;
  busy: boolean;
  onSort: (sort: { sort: SortColumn; order: SortOrder }) => void;
  selection?: TableSelection;
  /** While searching: why each row matched (a last column). */
  matched?: (customer: Customer) => ReactNode;
};

/**
 * The customers table: a checkbox per row and one for the page (bulk actions), sortable headers
 * (aria-sort), the name (or id) links to the customer.
 */
export function CustomerTable({ rows, state, busy, onSort, selection, matched }: Props) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const selectable = rows.map(selectableRow);
  const linkColumn: CustomerColumn = state.columns.includes("displayName") ? "displayName" : state.columns.includes("id") ? "id" : state.columns[0]!;
  const checkbox = (row: SelectableRow) => (
    <input
      type="checkbox"
      className={`h-4 w-4 accent-blue-700 ${focusRing}`}
      checked={selection!.selected.has(row.id)}
      onChange={() => selection!.onToggle(row)}
      aria-label={row.label === row.id ? t("bulk.selectRowId", { id: row.id }) : t("bulk.selectRow", { name: row.label, id: row.id })}
    />
  );
  const columns: Column<Customer, SortColumn>[] = [
    ...(selection
      ? [
          {
            key: "select",
            header: <PageCheckbox state={pageSelection(selection.selected, selectable)} onChange={() => selection.onTogglePage(selectable)} label={t("bulk.selectPage")} />,
            headClassName: "w-8 px-1.5!",
            className: "w-8 px-1.5!",
            cell: (_customer: Customer, index: number) => checkbox(selectable[index]!),
          },
        ]
      : []),
    ...state.columns.map((column) => ({
      key: column,
      header: t(`field.${column}` as MessageKey),
      sortKey: (SORTABLE_COLUMNS as readonly string[]).includes(column) ? (column as SortColumn) : undefined,
      // Narrow enough that the default columns fit the admin's 1024-px iframe (an 812-px pane):
      // times stacked (date over time), long text truncated with the full value on hover.
      className: TIME_COLUMNS.has(column) ? "px-1.5! text-xs" : column === "id" ? "px-1.5! font-mono text-xs whitespace-nowrap" : column === "mobile" || column === "telephone" ? "px-1.5! whitespace-nowrap" : "px-1.5!",
      headClassName: "px-1.5! whitespace-normal!",
      cell: (customer: Customer) =>
        column === linkColumn ? (
          <AppLink href={href(`/customers/${customer.id}`)} title={cellText(customer, column, t) || undefined}
            className={`block truncate rounded font-medium text-blue-800 underline-offset-2 hover:underline focus:whitespace-normal focus:break-all ${maxWidthOf(column)} ${focusRing}`}>
            {cellText(customer, column, t) || (column === "displayName" ? t("list.unnamed") : customer.id)}
          </AppLink>
        ) : (
          <Cell customer={customer} column={column} />
        ),
    })),
    ...(matched ? [{ key: "matched", header: t("search.matched.col"), className: "px-1.5! max-w-40", headClassName: "px-1.5!", cell: (customer: Customer) => matched(customer) }] : []),
  ];
  return (
    <DataTable
      rows={rows}
      rowKey={(customer) => String(customer.id)}
      rowId={(customer) => String(customer.id)}
      columns={columns}
      caption={t("list.caption", { page: state.page })}
      busy={busy}
      sort={{ value: state.sort, order: state.order, onChange: onSort }}
      rowClassName={(customer) => (selection?.selected.has(String(customer.id)) ? "bg-blue-50" : undefined)}
    />
  );
}
