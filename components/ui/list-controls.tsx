"use client";
import { useId } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { inputClass } from "@/components/ui/field";

export type SortOrder = "asc" | "desc";
export type ListControlsChange<S extends string> = Partial<{ sort: S; order: SortOrder; rows: number }>;

type Props<S extends string> = {
  /** Omit to show the page size only (a table sorted by its headers, or not at all). */
  sort?: { value: S; options: ReadonlyArray<{ value: S; label: string }>; order: SortOrder };
  rows: number;
  pageSizes: readonly number[];
  onChange: (change: ListControlsChange<S>) => void;
};

/** The labelled sort / order / page-size selects every console list shows above its table. */
export function ListControls<S extends string>({ sort, rows, pageSizes, onChange }: Props<S>) {
  const { t } = useI18n();
  const sortId = useId();
  const orderId = useId();
  const rowsId = useId();
  const select = `${inputClass} w-auto`;
  return (
    <>
      {sort && (
        <>
          <div className="flex flex-col gap-1">
            <label htmlFor={sortId} className="text-sm font-medium text-slate-800">{t("list.sort")}</label>
            <select id={sortId} className={select} value={sort.value} onChange={(e) => onChange({ sort: e.target.value as S })}>
              {sort.options.map((o) => (
                <option key={o.value} value={o.value}>{o.label}</option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={orderId} className="text-sm font-medium text-slate-800">{t("list.order")}</label>
            <select id={orderId} className={select} value={sort.order} onChange={(e) => onChange({ order: e.target.value === "desc" ? "desc" : "asc" })}>
              <option value="asc">{t("list.asc")}</option>
              <option value="desc">{t("list.desc")}</option>
            </select>
          </div>
        </>
      )}
      <div className="flex flex-col gap-1">
        <label htmlFor={rowsId} className="text-sm font-medium text-slate-800">{t("list.pageSize")}</label>
        <select id={rowsId} className={select} value={rows} onChange={(e) => onChange({ rows: Number(e.target.value) })}>
          {pageSizes.map((n) => (
            <option key={n} value={n}>{n}</option>
          ))}
        </select>
      </div>
    </>
  );
}
