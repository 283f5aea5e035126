"use client";
import type { FormEvent } from "react";
import type { ActivityListState } from "@/lib/activity/activity-list";
import { useDraft } from "@/lib/hooks/use-draft";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { DateTimeField } from "@/components/ui/date-time-field";
import { SelectField } from "@/components/ui/field";

export type ActivityFilterValues = Pick<ActivityListState, "kind" | "resource" | "from" | "to">;
const draftOf = ({ kind, resource, from, to }: ActivityFilterValues): ActivityFilterValues => ({ kind, resource, from, to });

/**
 * The Activity page's filters: a draft applied to the URL (the list controller) by "Apply filters".
 * The boxes follow the URL when it changes elsewhere (Clear, a link). Times are typed in UTC+8.
 */
export function ActivityFilters({ values, kinds, resources, problems, onApply, onClear }: {
  values: ActivityFilterValues;
  kinds: string[];
  resources: string[];
  problems: { from?: boolean; to?: boolean };
  onApply: (values: ActivityFilterValues) => void;
  onClear: () => void;
}) {
  const { t } = useI18n();
  const [draft, setDraft] = useDraft(draftOf(values));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form onSubmit={submit} role="search" aria-label={t("activity.filters")} className="grid grid-cols-2 items-end gap-3 rounded-lg border border-slate-300 bg-white p-3 lg:grid-cols-5">
      <SelectField label={t("activity.filter.kind")} value={draft.kind} onChange={(e) => setDraft({ ...draft, kind: e.target.value })}>
        <option value="">{t("activity.filter.any")}</option>
        {kinds.map((k) => (
          <option key={k} value={k}>{k}</option>
        ))}
      </SelectField>
      <SelectField label={t("activity.filter.resource")} value={draft.resource} onChange={(e) => setDraft({ ...draft, resource: e.target.value })}>
        <option value="">{t("activity.filter.any")}</option>
        {resources.map((r) => (
          <option key={r} value={r}>{r}</option>
        ))}
      </SelectField>
      <DateTimeField label={t("activity.filter.from")} value={draft.from} onChange={(from) => setDraft({ ...draft, from })} error={problems.from ? t("activity.filter.invalidTime") : undefined} />
      <DateTimeField label={t("activity.filter.to")} value={draft.to} onChange={(to) => setDraft({ ...draft, to })} error={problems.to ? t("activity.filter.invalidTime") : undefined} />
      <div className="flex gap-2">
        <Button type="submit" variant="primary">{t("activity.filter.apply")}</Button>
        <Button variant="ghost" onClick={onClear}>{t("activity.filter.clear")}</Button>
      </div>
    </form>
  );
}
