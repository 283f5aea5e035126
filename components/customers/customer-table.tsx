"use client";
import Link from "next/link";
import type { Customer } from "@/lib/platform/resources";
import { SORTABLE_COLUMNS, type CustomerColumn, type CustomerListState, type SortColumn } from "@/lib/console/customer-list-state";
import type { MessageKey, Translate } from "@/lib/i18n/messages";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { focusRing } from "@/components/ui/button";
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

type Props = {
  rows: Customer[];
  state: CustomerListState;
  busy: boolean;
  onSort: (column: SortColumn) => void;
};

/** The customers table: sortable headers (aria-sort), the name (or id) links to the customer. */
export function CustomerTable({ rows, state, busy, onSort }: Props) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const linkColumn: CustomerColumn = state.columns.includes("displayName") ? "displayName" : state.columns.includes("id") ? "id" : state.columns[0]!;
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-300 bg-white" aria-busy={busy}>
      <table className={`min-w-full text-left text-sm ${busy ? "opacity-70 transition-opacity delay-300" : ""}`}>
        <caption className="sr-only">{t("list.caption", { page: state.page })}</caption>
        <thead className="border-b border-slate-300 bg-slate-100">
          <tr>
            {state.columns.map((column) => {
              const sortable = (SORTABLE_COLUMNS as readonly string[]).includes(column);
              const sorted = state.sort === column;
              const label = t(`field.${column}` as MessageKey);
              return (
                <th key={column} scope="col" aria-sort={sorted ? (state.order === "asc" ? "ascending" : "descending") : undefined} className="px-3 py-2 font-semibold whitespace-nowrap text-slate-900">
                  {sortable ? (
                    <button type="button" onClick={() => onSort(column as SortColumn)} className={`inline-flex items-center gap-1 rounded ${focusRing}`} title={t("list.sortByColumn", { column: label })}>
                      {label}
                      <span aria-hidden="true" className="text-xs text-slate-700">
                        {sorted ? (state.order === "asc" ? "▲" : "▼") : "↕"}
                      </span>
                      {sorted && <span className="sr-only">, {state.order === "asc" ? t("list.sortedAsc") : t("list.sortedDesc")}</span>}
                    </button>
                  ) : (
                    label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {rows.map((customer) => (
            <tr key={customer.id} className="hover:bg-slate-50">
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
