"use client";
import { formatNumber } from "@/lib/i18n/icu";
import { useId, useMemo, useState, type ChangeEvent } from "react";
import { parseIds, withPickedId, type ParsedIds } from "@/lib/batch/member-ids";
import type { MessageKey } from "@/lib/i18n/messages";
import { useI18n } from "@/components/i18n/i18n-provider";
import { focusRing } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { LazyCustomerPicker as CustomerPicker } from "@/components/search/lazy-customer-picker";
import { PersonName, usePeople } from "@/components/people/person-name";

const REASONS: Record<ParsedIds["problems"][number]["reason"], MessageKey> = { notAnId: "lists.ids.notAnId", tooLarge: "lists.ids.tooLarge", zero: "lists.ids.zero" };
/** Problems listed on screen; the count covers all. */
const SHOWN_PROBLEMS = 50;
/** Customers named under the text (the first ones; the count covers all). */
const SHOWN_PEOPLE = 50;

/** The text of an `IdsInput` and its ids, parsed once per text, not on every progress update (up to 100,000 ids). */
export function useIdsText() {
  const [text, setText] = useState("");
  const parsed = useMemo(() => parseIds(text), [text]);
  return { text, setText, parsed };
}

/**
 * Customers picked by name (the customer picker, several in turn: each lands as a line of the text),
 * customer ids typed, pasted or read from a text/CSV file (the file's text lands in the textarea),
 * and a summary of what `parseIds` made of them. A file over `maxFileBytes` is refused before it is
 * read. The caller keeps `text` and its `parsed` ids (`useIdsText`); the
 * section's own wording for a file too large and for more than `max` ids comes as message keys.
 * Test ids: `<testIdPrefix>-file`, `<testIdPrefix>-summary`.
 */
export function IdsInput({ text, parsed, onChange, max, maxFileBytes, messages, testIdPrefix, disabled, autoFocus }: {
  text: string;
  parsed: ParsedIds;
  onChange: (text: string) => void;
  max: number;
  maxFileBytes: number;
  messages: { fileTooLarge: MessageKey; tooMany: MessageKey };
  testIdPrefix: string;
  disabled: boolean;
  autoFocus?: boolean;
}) {
  const { t, locale } = useI18n();
  const textId = useId();
  const fileId = useId();
  const [fileError, setFileError] = useState<string | undefined>(undefined);
  const maxText = formatNumber(max, locale);
  const shownIds = useMemo(() => parsed.ids.slice(0, SHOWN_PEOPLE), [parsed.ids]);
  const people = usePeople(shownIds);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setFileError(undefined);
    if (!file) return;
    if (file.size > maxFileBytes) {
      setFileError(t(messages.fileTooLarge));
      return;
    }
    onChange(await file.text());
  };

  return (
    <>
      {!disabled && (
        <CustomerPicker label={t("picker.addLabel")} help={t("picker.addHelp")} value="" multiple onChange={(id) => onChange(withPickedId(text, id))} testId={`${testIdPrefix}-picker`} autoFocus={autoFocus} />
      )}
      <div className="flex flex-col gap-1">
        <label htmlFor={textId} className="text-sm font-medium text-slate-800">{t("lists.batch.ids")}</label>
        <textarea id={textId} name="ids" rows={5} className={`${inputClass} font-mono`} value={text} aria-describedby={`${textId}-help`} disabled={disabled} onChange={(e) => onChange(e.target.value)} />
        <p id={`${textId}-help`} className="text-xs text-slate-700">{t("lists.batch.help", { max: maxText })}</p>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={fileId} className="text-sm font-medium text-slate-800">{t("lists.batch.file")}</label>
        <input id={fileId} type="file" accept=".txt,.csv,text/plain,text/csv" onChange={(e) => void onFile(e)} disabled={disabled} className={`text-sm text-slate-900 ${focusRing}`} data-testid={`${testIdPrefix}-file`} />
        {fileError && <p className="text-xs font-medium text-red-700" role="alert">{fileError}</p>}
      </div>

      {text.trim() !== "" && (
        <div className="text-sm text-slate-900" aria-live="polite" data-testid={`${testIdPrefix}-summary`}>
          <p>
            {t("lists.batch.valid", { count: parsed.ids.length })}
            {parsed.duplicates > 0 && <> · {t("lists.batch.duplicates", { count: parsed.duplicates })}</>}
            {parsed.problems.length > 0 && <> · {t("lists.batch.invalid", { count: parsed.problems.length })}</>}
          </p>
          {shownIds.length > 0 && (
            <ul className="mt-1 flex max-h-32 flex-wrap gap-x-4 gap-y-1 overflow-y-auto" aria-label={t("people.chosen")} data-testid={`${testIdPrefix}-people`}>
              {shownIds.map((id) => (
                <li key={id}>
                  <PersonName id={id} hit={people.get(id)} inline copy={false} />
                </li>
              ))}
              {parsed.ids.length > shownIds.length && <li className="text-slate-700">{t("people.andMore", { count: parsed.ids.length - shownIds.length })}</li>}
            </ul>
          )}
          {(parsed.tooMany || parsed.ids.length > max) && <p className="font-medium text-red-700">{t(messages.tooMany, { max: maxText })}</p>}
          {parsed.problems.length > 0 && (
            <ul className="mt-1 max-h-32 list-disc overflow-y-auto pl-5 text-xs text-red-800">
              {parsed.problems.slice(0, SHOWN_PROBLEMS).map((p, i) => (
                <li key={i}>{t("lists.batch.problem", { line: p.line, value: p.value, reason: t(REASONS[p.reason]) })}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </>
  );
}
