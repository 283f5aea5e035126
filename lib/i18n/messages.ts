import { activityMessages } from "@/lib/activity/messages";
import { customersMessages } from "@/lib/customers/messages";
import { dashboardMessages } from "@/lib/dashboard/messages";
import { eventsMessages } from "@/lib/events/messages";
import { listsMessages } from "@/lib/lists/messages";
import { mediaMessages } from "@/lib/media/messages";
import { ordersMessages } from "@/lib/orders/messages";
import { preferencesMessages } from "@/lib/preferences/messages";
import { searchMessages } from "@/lib/search/messages";
import { shellMessages } from "@/lib/shell/messages";
import { shopsMessages } from "@/lib/shops/messages";
import { tagsMessages } from "@/lib/tags/messages";
import { tasksMessages } from "@/lib/tasks/messages";
import { compileDictionary } from "./compile";
import { formatMessage, type TranslateValues } from "./format";
import type { Locale } from "./locales";
import type { FeatureMessages, MessageKey, Messages } from "./message-key";

export type { Translate, TranslateValues } from "./format";
export type { MessageKey, Messages } from "./message-key";

/**
 * Every string of the console, in English and Simplified Chinese: one dictionary joined from each
 * feature's own (`lib/<feature>/messages.ts`, made with `defineFeatureMessages`, whose `zh-CN` is
 * typed against the English keys: a missing translation does not compile; `messages.test.ts`
 * checks keys, placeholders and real Chinese). Messages are ICU MessageFormat: `{name}` marks a value filled in by
 * `translate`, `{count, plural, one {# row} other {# rows}}` a number-dependent wording (CLDR rules).
 *
 * Server code only (and tests): the browser receives just the dictionary of its language from the
 * console layout, and loads the other one when staff switch (components/i18n/i18n-provider.tsx).
 */
export const FEATURES = { shellMessages, customersMessages, listsMessages, tagsMessages, ordersMessages, eventsMessages, activityMessages, dashboardMessages, shopsMessages, mediaMessages, searchMessages, preferencesMessages, tasksMessages } as const;

// Every feature joined here is named in message-key.ts, and the other way round (a compile error otherwise).
type Joined = (typeof FEATURES)[keyof typeof FEATURES];
const everyFeatureNamed: [Joined] extends [FeatureMessages] ? ([FeatureMessages] extends [Joined] ? true : never) : never = true;
void everyFeatureNamed;

/** One dictionary from several parts; a key in two parts would silently win, so it throws. */
export function joinSections(parts: readonly Record<string, string>[]): Record<string, string> {
  const joined: Record<string, string> = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (key in joined) throw new Error(`message key defined twice: ${key}`);
      joined[key] = value;
    }
  }
  return joined;
}

const source = (locale: Locale) => joinSections(Object.values(FEATURES).map((feature) => feature[locale])) as Record<MessageKey, string>;
/** The messages as written (ICU MessageFormat), per language. */
export const sourceMessages: Record<Locale, Record<MessageKey, string>> = { en: source("en"), "zh-CN": source("zh-CN") };
/** The same, compiled once at start: what `translate` and the browser use. */
export const messages: Record<Locale, Messages> = { en: compileDictionary(sourceMessages.en), "zh-CN": compileDictionary(sourceMessages["zh-CN"]) };

/** The message of `key` in `locale`, with `{name}` placeholders filled from `values`. */
export function translate(locale: Locale, key: MessageKey, values?: TranslateValues): string {
  return formatMessage(locale, messages[locale], key, values);
}
