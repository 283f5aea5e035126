"use client";
import { CUSTOMER_COLUMNS, type CustomerColumn } from "@/lib/customers/customer-columns";
import type { MessageKey } from "@/lib/i18n/messages";
import { useI18n } from "@/components/i18n/i18n-provider";
import { buttonClass } from "@/components/ui/button";
import { CheckboxField } from "@/components/ui/field";

/** Chooses the table's columns; only they are fetched (`select`, §4.1). At least one stays. */
export function ColumnChooser({ columns, onChange }: { columns: CustomerColumn[]; onChange: (columns: CustomerColumn[]) => void }) {
  const { t } = useI18n();
  const toggle = (column: CustomerColumn, on: boolean) => {
    // Keep the table's order stable: the catalogue's order.
    const next = CUSTOMER_COLUMNS.filter((c) => (c === column ? on : columns.includes(c)));
    if (next.length) onChange(next);
  };
  return (
    <details
      className="relative"
      onKeyDown={(e) => {
        // Escape closes the panel and returns focus to its button, as a menu would.
        if (e.key !== "Escape" || !e.currentTarget.open) return;
        e.currentTarget.open = false;
        e.currentTarget.querySelector("summary")?.focus();
      }}
    >
      <summary className={buttonClass("secondary", "cursor-pointer list-none")}>{t("list.columns")}</summary>
      <fieldset className="absolute right-0 z-20 mt-1 w-72 rounded-lg border border-slate-300 bg-white p-3 shadow-lg">
        <legend className="sr-only">{t("list.columns")}</legend>
        <p className="mb-2 text-xs text-slate-700">{t("list.columnsHelp")}</p>
        <div className="grid max-h-80 grid-cols-2 gap-1 overflow-y-auto">
          {CUSTOMER_COLUMNS.map((column) => (
            <CheckboxField
              key={column}
              label={t(`field.${column}` as MessageKey)}
              checked={columns.includes(column)}
              disabled={columns.length === 1 && columns.includes(column)}
              onChange={(e) => toggle(column, e.target.checked)}
            />
          ))}
        </div>
      </fieldset>
    </details>
  );
}
