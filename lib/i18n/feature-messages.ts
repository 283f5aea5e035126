import type { Locale } from "./locales";

/**
 * A feature's strings in English and Simplified Chinese, kept in the feature's own lib folder
 * (`lib/<feature>/messages.ts`) and joined into the one dictionary by messages.ts. `zh-CN` is typed
 * against the English keys; `messages.test.ts` checks keys, placeholders and real Chinese.
 */
export type FeatureMessages<K extends string> = Record<Locale, Record<K, string>>;

export function defineFeatureMessages<const E extends Record<string, string>>(en: E, zhCN: Record<keyof E, string>): { en: E; "zh-CN": Record<keyof E, string> } {
  return { en, "zh-CN": zhCN };
}
