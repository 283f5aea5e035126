"use client";
import { useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { buttonClass } from "@/components/ui/button";
import { DateTimeField } from "@/components/ui/date-time-field";
import { SelectField } from "@/components/ui/field";

export type ActivityFilterValues = { kind: string; resource: string; from: string; to: string };

/**
 * The Activity page's filters: a plain GET form (the page is rendered on the server), so the URL
 * holds the filter and a reload or a shared link keeps it. Times are typed in UTC+8 (DateTimeField).
 */
export function ActivityFilters({ openAppId, values, kinds, resources, problems }: { openAppId: string; values: ActivityFilterValues; kinds: string[]; resources: string[]; problems: { from?: boolean; to?: boolean } }) {
  const { t } = useI18n();
  const [from, setFrom] = useState(values.from);
  const [to, setTo] = useState(values.to);
  return (
    <form method="get" role="search" aria-label={t("activity.filters")} className="mt-4 grid grid-cols-2 items-end gap-3 rounded-lg border border-slate-300 bg-white p-3 lg:grid-cols-5">
      <input type="hidden" name="openAppId" value={openAppId} />
      <SelectField label={t("activity.filter.kind")} name="kind" defaultValue={values.kind}>
        <option value="">{t("activity.filter.any")}</option>
        {kinds.map((k) => (
          <option key={k} value={k}>{k}</option>
        ))}
      </SelectField>
      <SelectField label={t("activity.filter.resource")} name="resource" defaultValue={values.resource}>
        <option value="">{t("activity.filter.any")}</option>
        {resources.map((r) => (
          <option key={r} value={r}>{r}</option>
        ))}
      </SelectField>
      <DateTimeField label={t("activity.filter.from")} name="from" value={from} onChange={setFrom} error={problems.from ? t("activity.filter.invalidTime") : undefined} />
      <DateTimeField label={t("activity.filter.to")} name="to" value={to} onChange={setTo} error={problems.to ? t("activity.filter.invalidTime") : undefined} />
      <div className="flex gap-2">
        <button type="submit" className={buttonClass("primary")}>{t("activity.filter.apply")}</button>
        <a href={`/activity?${new URLSearchParams({ openAppId })}`} className={buttonClass("ghost")}>{t("activity.filter.clear")}</a>
      </div>
    </form>
  );
}
