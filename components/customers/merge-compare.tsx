"use client";
import type { MessageKey } from "@/lib/i18n/messages";
import type { Customer } from "@/lib/platform/resources";
import { useI18n } from "@/components/i18n/i18n-provider";
import { TimeText } from "@/components/ui/time-text";

export const COMPARE_FIELDS = ["id", "name", "nickName", "mobile", "email", "birthday", "stage", "source", "company", "dateCreated"] as const;

const shown = (v: unknown) => (v === null || v === undefined || v === "" ? null : String(v));

/** Whether two customers differ in a field (both empty is the same). */
export function differs(a: Customer, b: Customer, field: string): boolean {
  return shown((a as Record<string, unknown>)[field]) !== shown((b as Record<string, unknown>)[field]);
}

/**
 * Two customers side by side before a merge (§4.1): one row per field, a row whose values differ is
 * marked (a colour and the words "differs", so it is not told by colour alone). The merge page and
 * the duplicates queue both show it.
 */
export function MergeCompare({ left, right, leftLabel, rightLabel, testId = "merge-compare" }: { left: Customer; right: Customer; leftLabel: string; rightLabel: string; testId?: string }) {
  const { t } = useI18n();
  return (
    <table className="w-full text-left text-sm" data-testid={testId}>
      <thead>
        <tr className="border-b border-slate-200">
          <th scope="col" className="py-1 font-semibold"><span className="sr-only">{t("customerMerge.field")}</span></th>
          <th scope="col" className="py-1 font-semibold">{leftLabel}</th>
          <th scope="col" className="py-1 font-semibold">{rightLabel}</th>
        </tr>
      </thead>
      <tbody>
        {COMPARE_FIELDS.map((field) => {
          const different = field !== "id" && differs(left, right, field);
          return (
            <tr key={field} className={`border-b border-slate-100 ${different ? "bg-amber-50" : ""}`} data-differs={different ? "true" : undefined}>
              <th scope="row" className="py-1 pr-2 font-normal text-slate-700">
                {t(`field.${field}` as MessageKey)}
                {different && <span className="ml-1 text-xs font-semibold text-amber-900">({t("customerMerge.differs")})</span>}
              </th>
              {[left, right].map((c, i) => {
                const v = (c as Record<string, unknown>)[field];
                return (
                  <td key={i} className="py-1 pr-2 break-all">
                    {field === "dateCreated" ? <TimeText value={typeof v === "string" ? v : null} /> : (shown(v) ?? "—")}
                  </td>
                );
              })}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
