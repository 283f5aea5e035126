"use client";
import { useQuery } from "@tanstack/react-query";
import { clientOnly } from "@/components/ui/client-only";
import { useEffect, useId, useState } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import {
  EMPTY_FILTERS,
  filterProblem,
  hasActiveFilters,
  TAG_FILTER_INPUT,
  type CustomerFilters as Filters,
  type TriState,
} from "@/lib/customers/customer-list-state";
import { useDebouncedValue } from "@/lib/hooks/use-debounced-value";
import type { MessageKey } from "@/lib/i18n/messages";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { CheckboxField, SelectField, TextField } from "@/components/ui/field";

// The time filters sit under "More filters": their input loads after the list (the /customers first
// load is over its first-load target, scripts/bench/console-first-load.ts).
const DateTimeField = clientOnly(() => import("@/components/ui/date-time-field").then((m) => m.DateTimeField));

const IDENTITY_TYPES = ["email", "mobile", "messenger", "messenger-unionid"]; // §2.2 built-in types

const sameFilters = (a: Filters, b: Filters) => (Object.keys(a) as (keyof Filters)[]).every((k) => a[k] === b[k]);

/** Filters open the "more" panel when any of its fields is set (e.g. from a shared URL). */
const MORE_KEYS: (keyof Filters)[] = ["hasMobile", "hasEmail", "identityType", "identityValue", "idList", "idFrom", "idTo", "createdFrom", "createdTo", "updatedFrom", "updatedTo"];

/**
 * The §4.1 filters. Typing is debounced; choices apply at once. The form keeps its own draft so a
 * keystroke never waits for the URL; the URL (via `onChange`) stays the source of truth.
 */
export function CustomerFilters({ value, initial = value, onChange }: { value: Filters; initial?: Filters; onChange: (filters: Filters) => void }) {
  const { t } = useI18n();
  // `initial` differs from `value` only right after a reset from outside (remount with a new key),
  // before the URL change has reached `useSearchParams`.
  const [draft, setDraft] = useState(initial);
  const [more, setMore] = useState(() => MORE_KEYS.some((k) => initial[k] !== EMPTY_FILTERS[k]));
  const settled = useDebouncedValue(draft, 400);
  const moreId = useId();
  const typesId = useId();

  // A settled draft that differs from the URL is written to it.
  useEffect(() => {
    if (!sameFilters(settled, value)) onChange(settled);
    // Only a new settled draft triggers a write; URL changes from elsewhere come through `commit`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);

  const type = (key: keyof Filters) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value }));
  const commit = (next: Filters) => {
    setDraft(next);
    onChange(next);
  };
  const problem = (key: keyof Filters) => {
    const p = filterProblem(key, String(draft[key]));
    return p ? t(`customers.${p}` as MessageKey) : undefined;
  };
  const identityHalf = Boolean(draft.identityType) !== Boolean(draft.identityValue) ? t("customers.identityPair") : undefined;
  const tri = (key: "hasMobile" | "hasEmail") => (
    <SelectField label={t(`customers.${key}`)} value={draft[key]} onChange={(e) => commit({ ...draft, [key]: e.target.value as TriState })}>
      <option value="">{t("any")}</option>
      <option value="true">{t("yes")}</option>
      <option value="false">{t("no")}</option>
    </SelectField>
  );
  const time = (key: "createdFrom" | "createdTo" | "updatedFrom" | "updatedTo") => (
    <DateTimeField label={`${t(`customers.${key}`)} (${t("customers.timeHelp")})`} value={draft[key]} onChange={(value) => setDraft((d) => ({ ...d, [key]: value }))} error={problem(key)} />
  );

  return (
    <form role="search" aria-label={t("customers.search")} onSubmit={(e) => { e.preventDefault(); commit(draft); }} className="flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-3">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-[1fr_14rem]">
        <TextField type="search" label={t("search.label")} placeholder={t("search.placeholder")} help={t("search.help")} value={draft.q} onChange={type("q")} data-testid="customer-search" maxLength={200} />
        <TagFilter value={draft.tag} onChange={(tag) => commit({ ...draft, tag })} />
      </div>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        <div className="flex flex-col gap-1">
          <TextField label={t("customers.stage")} value={draft.stage} onChange={type("stage")} disabled={draft.stageEmpty} />
          <CheckboxField label={t("customers.stageEmpty")} checked={draft.stageEmpty} onChange={(e) => commit({ ...draft, stageEmpty: e.target.checked, stage: "" })} />
        </div>
        <TextField label={t("customers.source")} value={draft.source} onChange={type("source")} />
        <TextField label={t("customers.mobile")} value={draft.mobile} onChange={type("mobile")} inputMode="tel" />
        <TextField label={t("customers.email")} value={draft.email} onChange={type("email")} inputMode="email" />
        <SelectField label={t("customers.gender")} value={draft.gender} onChange={(e) => commit({ ...draft, gender: e.target.value as Filters["gender"] })}>
          <option value="">{t("any")}</option>
          <option value="0">{t("gender.0")}</option>
          <option value="1">{t("gender.1")}</option>
          <option value="2">{t("gender.2")}</option>
        </SelectField>
        <div className="flex items-end gap-2">
          <Button aria-expanded={more} aria-controls={moreId} onClick={() => setMore((m) => !m)}>
            {more ? t("customers.fewerFilters") : t("customers.moreFilters")}
          </Button>
        </div>
      </div>
      <div id={moreId} hidden={!more} className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        {tri("hasMobile")}
        {tri("hasEmail")}
        <TextField label={t("customers.identityType")} value={draft.identityType} onChange={type("identityType")} list={typesId} error={identityHalf && !draft.identityType ? identityHalf : undefined} />
        <datalist id={typesId}>
          {IDENTITY_TYPES.map((v) => (
            <option key={v} value={v} />
          ))}
        </datalist>
        <TextField label={t("customers.identityValue")} value={draft.identityValue} onChange={type("identityValue")} error={identityHalf && !draft.identityValue ? identityHalf : undefined} />
        <TextField label={t("customers.idFrom")} value={draft.idFrom} onChange={type("idFrom")} inputMode="numeric" error={problem("idFrom")} />
        <TextField label={t("customers.idTo")} value={draft.idTo} onChange={type("idTo")} inputMode="numeric" error={problem("idTo")} />
        <TextField className="col-span-2 sm:col-span-3 lg:col-span-2" label={t("customers.idList")} help={t("customers.idListHelp")} value={draft.idList} onChange={type("idList")} error={problem("idList")} />
        {time("createdFrom")}
        {time("createdTo")}
        {time("updatedFrom")}
        {time("updatedTo")}
      </div>
      {hasActiveFilters(draft) && (
        <div>
          <Button variant="ghost" onClick={() => commit(EMPTY_FILTERS)}>
            {t("customers.clearFilters")}
          </Button>
        </div>
      )}
    </form>
  );
}

/** The tag filter: the tenant's tags (§4.5 GET /v1/tags); the customers come from the index. */
function TagFilter({ value, onChange }: { value: string; onChange: (tag: string) => void }) {
  const { t } = useI18n();
  const tags = useQuery(platformQuery("tags.list", TAG_FILTER_INPUT));
  const names = [...new Set((tags.data?.rows ?? []).map((tag) => tag.name).filter((n): n is string => typeof n === "string" && n !== ""))].sort();
  if (value && !names.includes(value)) names.unshift(value);
  return (
    <SelectField label={t("search.tag")} value={value} onChange={(e) => onChange(e.target.value)} data-testid="tag-filter">
      <option value="">{t("search.anyTag")}</option>
      {names.map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
    </SelectField>
  );
}
