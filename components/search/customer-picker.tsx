"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState, type KeyboardEvent } from "react";
import { useDebouncedValue } from "@/lib/hooks/use-debounced-value";
import { customerLookupQuery, customerSearchQuery, hitName } from "@/lib/search/search-queries";
import type { SearchHit } from "@/lib/search/types";
import { useI18n } from "@/components/i18n/i18n-provider";
import { FieldNotes, inputClass } from "@/components/ui/field";

/** Text that is a customer id (pasted or typed): used as the value at once. */
const ID_TEXT = /^\d{6,20}$/;

type Props = {
  label: string;
  /** The chosen customer id ("" for none). */
  value: string;
  onChange: (id: string) => void;
  help?: string;
  error?: string;
  "data-field"?: string;
  testId?: string;
  autoFocus?: boolean;
  /**
   * Pick several (batch add): each pick is passed to `onChange` and the box empties for the next
   * one; the caller keeps the picked ids (pass `value=""`).
   */
  multiple?: boolean;
};

/**
 * The one customer picker (ARIA combobox): type part of a name, email, mobile or identity and
 * pick from the customer index's matches (name, mobile, email, id), or paste an id. The value is
 * always a customer id; the choice is shown by name beside it.
 */
export function CustomerPicker({ label, value, onChange, help, error, testId, autoFocus, multiple, ...rest }: Props) {
  const { t } = useI18n();
  const id = useId();
  const listId = `${id}-list`;
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const [text, setText] = useState(value);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const query = useDebouncedValue(text.trim(), 250);
  const searching = open && query !== "" && !ID_TEXT.test(query);
  const found = useQuery({
    ...customerSearchQuery({ q: query, limit: 8 }),
    enabled: searching,
    placeholderData: keepPreviousData,
    // While the index is still being built (its first use starts it), ask again: the customer may arrive.
    refetchInterval: (q) => (q.state.data && q.state.data.status.phase !== "ready" ? 2_000 : false),
  });
  const chosen = useQuery({ ...customerLookupQuery(value ? [value] : []), enabled: value !== "" });
  const chosenHit = chosen.data?.hits.find((h) => h.id === value);

  // A value set from outside (a link's `fromId`, a reset) shows in the box; the line below names it.
  const [seen, setSeen] = useState(value);
  const [emitted, setEmitted] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if (value !== emitted) setText(value);
  }
  const emit = (next: string) => {
    setEmitted(next);
    onChange(next);
  };

  const hits: SearchHit[] = searching ? (found.data?.hits ?? []) : [];
  const options: Array<{ key: string; id: string; hit?: SearchHit }> = [
    ...(ID_TEXT.test(text.trim()) ? [{ key: "typed", id: text.trim() }] : []),
    ...hits.map((hit) => ({ key: hit.id, id: hit.id, hit })),
  ];

  function describe(hit: SearchHit): string {
    return [hitName(hit) ?? t("picker.noName"), hit.mobile, hit.email].filter(Boolean).join(" · ");
  }

  const pick = (option: { id: string; hit?: SearchHit }) => {
    emit(option.id);
    if (multiple) {
      setText("");
      setActive(0);
    } else setText(option.hit ? describe(option.hit) : option.id);
    setOpen(false);
  };

  const onType = (next: string) => {
    setText(next);
    setOpen(true);
    setActive(0);
    // A pasted id is the value at once; other text is a search, and no customer is chosen until one is picked.
    if (!multiple) emit(ID_TEXT.test(next.trim()) ? next.trim() : "");
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(a + 1, Math.max(0, options.length - 1)));
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (e.key === "Enter" && open && options[active]) {
      e.preventDefault();
      pick(options[active]!);
    } else if (e.key === "Escape" && open) {
      e.preventDefault();
      setOpen(false);
    }
  };

  const expanded = open && (options.length > 0 || searching);
  const describedBy = [help ? helpId : "", error ? errorId : "", `${id}-chosen`].filter(Boolean).join(" ");
  return (
    <div className="relative flex min-w-0 flex-col gap-1" data-field={rest["data-field"]}>
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && options[active] ? `${id}-opt-${active}` : undefined}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        className={inputClass}
        placeholder={t("picker.placeholder")}
        value={text}
        autoFocus={autoFocus}
        data-testid={testId}
        onChange={(e) => onType(e.target.value)}
        onKeyDown={onKeyDown}
        onFocus={() => text.trim() && setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
      />
      <ul id={listId} role="listbox" aria-label={label} hidden={!expanded}
        className="absolute top-full z-20 mt-1 max-h-72 w-full overflow-auto rounded-md border border-slate-300 bg-white py-1 text-sm shadow-lg">
        {options.map((option, i) => (
          <li key={option.key} id={`${id}-opt-${i}`} role="option" aria-selected={i === active}
            className={`cursor-pointer px-2 py-1.5 ${i === active ? "bg-blue-50" : ""}`}
            onMouseDown={(e) => e.preventDefault()} onClick={() => pick(option)} onMouseEnter={() => setActive(i)}>
            {option.hit ? (
              <span className="flex flex-col">
                <span className="font-medium text-slate-900">{hitName(option.hit) ?? t("picker.noName")}</span>
                <span className="text-xs text-slate-700">{[option.hit.mobile, option.hit.email, option.hit.id].filter(Boolean).join(" · ")}</span>
              </span>
            ) : (
              t("picker.useId", { id: option.id })
            )}
          </li>
        ))}
        {searching && hits.length === 0 && !found.isFetching && found.isSuccess && <li role="presentation" className="px-2 py-1.5 text-slate-700">{t("picker.noMatches")}</li>}
        {searching && found.isFetching && hits.length === 0 && <li role="presentation" className="px-2 py-1.5 text-slate-700">{t("picker.searching")}</li>}
      </ul>
      <p id={`${id}-chosen`} className="text-xs text-slate-700" data-testid={testId ? `${testId}-chosen` : undefined}>
        {value ? t("picker.selected", { name: chosenHit ? `${hitName(chosenHit) ?? t("picker.noName")} (${value})` : value }) : null}
      </p>
      <FieldNotes id={id} help={help} error={error} />
    </div>
  );
}
