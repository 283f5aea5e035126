"use client";
import { useI18n } from "@/components/i18n/i18n-provider";
import { focusRing } from "./button";

/**
 * A table's column header that sorts on click: `aria-sort` on the cell, the direction said to
 * screen readers and drawn as ▲ ▼ (↕ when another column sorts). One for every console table.
 */
export function SortableHeader({ label, sorted, order, onSort, className = "" }: { label: string; sorted: boolean; order: "asc" | "desc"; onSort: () => void; /** The column's own header classes (padding, wrapping). */ className?: string }) {
  const { t } = useI18n();
  return (
    <th scope="col" aria-sort={sorted ? (order === "asc" ? "ascending" : "descending") : undefined} className={`px-3 py-2 font-semibold whitespace-nowrap text-slate-900 ${className}`}>
      <button type="button" onClick={onSort} className={`inline-flex items-center gap-1 rounded ${focusRing}`} title={t("list.sortByColumn", { column: label })}>
        {label}
        <span aria-hidden="true" className="text-xs text-slate-700">{sorted ? (order === "asc" ? "▲" : "▼") : "↕"}</span>
        {sorted && <span className="sr-only">, {order === "asc" ? t("list.sortedAsc") : t("list.sortedDesc")}</span>}
      </button>
    </th>
  );
}
