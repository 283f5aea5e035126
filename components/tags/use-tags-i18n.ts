"use client";
import { useCallback } from "react";
import { fillTemplate, type MessageKey, type TranslateValues } from "@/lib/i18n/messages";
import { isTagsMessageKey, tagsMessages, type TagsMessageKey } from "@/lib/i18n/tags-messages";
import { useI18n } from "@/components/i18n/i18n-provider";

export type TagsTranslate = (key: MessageKey | TagsMessageKey, values?: TranslateValues) => string;

/** `useI18n` with the Tags section's own strings (lib/i18n/tags-messages.ts) before the shared ones. */
export function useTagsI18n() {
  const { t: shared, locale, setLocale } = useI18n();
  const t = useCallback<TagsTranslate>(
    (key, values) => (isTagsMessageKey(key) ? fillTemplate(tagsMessages[locale][key] ?? tagsMessages.en[key], values) : shared(key, values)),
    [locale, shared],
  );
  return { t, locale, setLocale };
}
