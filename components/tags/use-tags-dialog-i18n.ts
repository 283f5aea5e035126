"use client";
import { useCallback } from "react";
import type { TranslateValues } from "@/lib/i18n/messages";
import { isTagsDialogMessageKey, tagsDialogMessages, type TagsDialogMessageKey } from "@/lib/i18n/tags-dialog-messages";
import { fillTemplate } from "@/lib/i18n/messages";
import { useTagsI18n, type TagsTranslate } from "./use-tags-i18n";

export type TagsDialogTranslate = (key: Parameters<TagsTranslate>[0] | TagsDialogMessageKey, values?: TranslateValues) => string;

/** `useTagsI18n` with the dialogs' strings (lib/i18n/tags-dialog-messages.ts) first; only the dialogs import it. */
export function useTagsDialogI18n() {
  const { t: page, locale, setLocale } = useTagsI18n();
  const t = useCallback<TagsDialogTranslate>(
    (key, values) => (isTagsDialogMessageKey(key) ? fillTemplate(tagsDialogMessages[locale][key] ?? tagsDialogMessages.en[key], values) : page(key, values)),
    [locale, page],
  );
  return { t, locale, setLocale };
}
