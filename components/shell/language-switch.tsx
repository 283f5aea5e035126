"use client";
import { useId } from "react";
import { LOCALES, type Locale } from "@/lib/i18n/locales";
import { useI18n } from "@/components/i18n/i18n-provider";
import { inputClass } from "@/components/ui/input-class";

export function LanguageSwitch({ showLabel = false }: { showLabel?: boolean }) {
  const { locale, setLocale, t } = useI18n();
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className={showLabel ? "text-sm font-medium text-slate-800" : "sr-only"}>
        {t("language.label")}
      </label>
      <select id={id} value={locale} onChange={(e) => setLocale(e.target.value as Locale)} className={`${inputClass} w-auto`}>
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {t(`language.${l}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
