"use client";
import Link from "next/link";
import { useEffect, useRef } from "react";
import type { Customer } from "@/lib/platform/resources";
import { pageSelection, type Selection, type SelectableRow } from "@/lib/console/customer-selection";
import { SORTABLE_COLUMNS, type CustomerColumn, type CustomerListState, type SortColumn } from "@/lib/console/customer-list-state";
import type { MessageKey, Translate } from "@/lib/i18n/messages";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { focusRing } from "@/components/ui/button";
import { SortableHeader } from "@/components/ui/sortable-header";
import { TimeText } from "@/components/ui/time-text";

const TIME_COLUMNS = new Set<CustomerColumn>(["dateJoin", "dateCreated", "lastUpdated"]);
const BOOLEAN_COLUMNS = new Set<CustomerColumn>(["mobileVerified", "emailVerified"]);

export function cellText(customer: Customer, column: CustomerColumn, t: Translate): string {
  const value = (customer as Record<string, unknown>)[column];
  if (value === null || value === undefined || value === "") return "";
  if (column === "gender") return t(`gender.${value === 1 || value === 2 ? value : 0}` as MessageKey);
  if (BOOLEAN_COLUMNS.has(column)) return value ? t("yes") : t("no");
  return String(value);
}

function Cell({ customer, column }: { customer: Customer; column: CustomerColumn }) {
  const { t } = useI18n();
  const value = (customer as Record<string, unknown>)[column];
  if (TIME_COLUMNS.has(column)) return <TimeText value={typeof value === "string" ? value : null} />;
  return <>{cellText(customer, column, t)}</>;
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
  onSort: (column: SortColumn) => void;
  selection?: TableSelection;
};

/**
 * The customers table: a checkbox per row and one for the page (bulk actions), sortable headers
 * (aria-sort), the name (or id) links to the customer.
 */
export function CustomerTable({ rows, state, busy, onSort, selection }: Props) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const selectable = rows.map(selectableRow);
  const linkColumn: CustomerColumn = state.columns.includes("displayName") ? "displayName" : state.columns.includes("id") ? "id" : state.columns[0]!;
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-300 bg-white" aria-busy={busy}>
      <table className={`min-w-full text-left text-sm ${busy ? "opacity-70 transition-opacity delay-300" : ""}`}>
        <caption className="sr-only">{t("list.caption", { page: state.page })}</caption>
        <thead className="border-b border-slate-300 bg-slate-100">
          <tr>
            {selection && (
              <th scope="col" className="w-10 px-3 py-2">
                <PageCheckbox state={pageSelection(selection.selected, selectable)} onChange={() => selection.onTogglePage(selectable)} label={t("bulk.selectPage")} />
              </th>
            )}
            {state.columns.map((column) => {
              const label = t(`field.${column}` as MessageKey);
              return (SORTABLE_COLUMNS as readonly string[]).includes(column) ? (
                <SortableHeader key={column} label={label} sorted={state.sort === column} order={state.order} onSort={() => onSort(column as SortColumn)} />
              ) : (
                <th key={column} scope="col" className="px-3 py-2 font-semibold whitespace-nowrap text-slate-900">
                  {label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {rows.map((customer, index) => (
            <tr key={customer.id} className={selection?.selected.has(String(customer.id)) ? "bg-blue-50" : "hover:bg-slate-50"}>
              {selection && (
                <td className="w-10 px-3 py-2">
                  <input
                    type="checkbox"
                    className={`h-4 w-4 accent-blue-700 ${focusRing}`}
                    checked={selection.selected.has(selectable[index]!.id)}
                    onChange={() => selection.onToggle(selectable[index]!)}
                    aria-label={selectable[index]!.label === selectable[index]!.id ? t("bulk.selectRowId", { id: selectable[index]!.id }) : t("bulk.selectRow", { name: selectable[index]!.label, id: selectable[index]!.id })}
                  />
                </td>
              )}
              {state.columns.map((column) => (
                <td key={column} className="max-w-64 truncate px-3 py-2 text-slate-900">
                  {column === linkColumn ? (
                    <Link href={href(`/customers/${customer.id}`)} className={`rounded font-medium text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>
                      {cellText(customer, column, t) || (column === "displayName" ? t("list.unnamed") : customer.id)}
                    </Link>
                  ) : (
                    <Cell customer={customer} column={column} />
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
