"use client";
import { useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { formatHomeValue, homeValueNow, parseHomeValue } from "@/lib/time";
import { Button } from "./button";
import { TextField } from "./field";

type DateTimeFieldProps = {
  label: string;
  /** The form value: `YYYY-MM-DDTHH:MM[:SS]` in UTC+8 (§2), empty, or what was typed when it does not read as a time. */
  value: string;
  onChange: (value: string) => void;
  help?: string;
  error?: string;
  name?: string;
  required?: boolean;
  className?: string;
  "data-field"?: string;
  /** A "Now" button beside the field (e.g. a cancel date, which defaults to now). */
  withNow?: boolean;
};

/**
 * The console's one date-and-time input: a time of the platform's home time zone, UTC+8 (§2),
 * shown in the console's language's format (lib/time.ts `formatHomeValue`) rather than the
 * browser's `datetime-local` rendering, which follows the browser's language. Staff type in either
 * language's format; the form receives the canonical `YYYY-MM-DDTHH:MM:SS` as soon as the text reads
 * as a real time, else the text itself, so the form's own rule reports it.
 */
export function DateTimeField({ label, value, onChange, help, error, name, required, className, withNow = false, ...rest }: DateTimeFieldProps) {
  const { locale, t } = useI18n();
  const shown = (v: string) => (v ? formatHomeValue(v, locale) : "");
  const [text, setText] = useState(() => shown(value));
  // A value set from outside (reset, the URL, "Now") or a switch of language rewrites the text;
  // the value this field itself reported does not, so typing is never reformatted under the caret.
  const [synced, setSynced] = useState({ value, locale });
  if (synced.value !== value || synced.locale !== locale) {
    setSynced({ value, locale });
    const typed = text.trim() === "" ? "" : (parseHomeValue(text) ?? text.trim());
    if (typed !== value || synced.locale !== locale) setText(shown(value));
  }
  const type = (next: string) => {
    setText(next);
    const trimmed = next.trim();
    onChange(trimmed === "" ? "" : (parseHomeValue(trimmed) ?? trimmed));
  };
  const example = formatHomeValue("2026-11-23T20:15:00", locale);
  const field = (
    <TextField
      label={label}
      help={[help, t("dateTime.format", { example })].filter(Boolean).join(" ")}
      error={error}
      name={name}
      required={required}
      aria-required={required || undefined}
      className={withNow ? "min-w-0 flex-1" : className}
      placeholder={t("dateTime.placeholder")}
      autoComplete="off"
      spellCheck={false}
      inputMode="text"
      value={text}
      onChange={(e) => type(e.target.value)}
      onBlur={() => {
        const parsed = parseHomeValue(text);
        if (parsed) setText(shown(parsed));
      }}
      data-field={rest["data-field"]}
      data-datetime-field=""
    />
  );
  if (!withNow) return field;
  return (
    <div className={`flex items-start gap-2 ${className ?? ""}`}>
      {field}
      <Button className="mt-6 shrink-0" onClick={() => type(formatHomeValue(homeValueNow(), locale))}>
        {t("dateTime.now")}
      </Button>
    </div>
  );
}
