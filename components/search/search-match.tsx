"use client";
import { matchedField } from "@/lib/search/matched-field";
import type { MessageKey } from "@/lib/i18n/messages";
import type { SearchHit } from "@/lib/search/types";
import { useI18n } from "@/components/i18n/i18n-provider";

/** Why a search result matched: the field's name and its value with the matched part marked. */
export function SearchMatch({ hit, query }: { hit: SearchHit | undefined; query: string }) {
  const { t } = useI18n();
  const match = hit && matchedField(hit, query);
  if (!match) return null;
  if (match.field === "other") return <span className="text-xs text-slate-700" data-testid="search-match" data-field="other">{t("search.matched.other")}</span>;
  const { value, start, end } = match;
  return (
    <span className="text-xs text-slate-800" data-testid="search-match" data-field={match.field}>
      <span className="text-slate-700">{t(`field.${match.field}` as MessageKey)}: </span>
      {value.slice(0, start)}
      <mark className="rounded-sm bg-yellow-200 px-0.5 text-slate-950">{value.slice(start, end)}</mark>
      {value.slice(end)}
    </span>
  );
}
