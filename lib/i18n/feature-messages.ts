import { fillTemplate, type TranslateValues } from "./messages";
import type { Locale } from "./locales";

/**
 * A feature's own dictionary, in English and Simplified Chinese, kept out of the global one
 * (`messages.ts`, which every route carries): only the routes or on-demand chunks that import it carry
 * it. `zh-CN` is typed against the English keys; `feature-messages.test.ts` checks keys and placeholders.
 */
export type FeatureMessages<K extends string> = Record<Locale, Record<K, string>>;

export function defineFeatureMessages<const E extends Record<string, string>>(en: E, zhCN: Record<keyof E, string>): FeatureMessages<keyof E & string> {
  return { en, "zh-CN": zhCN } as FeatureMessages<keyof E & string>;
}

/** Two dictionaries as one (a component that needs both). */
export function combineMessages<A extends string, B extends string>(a: FeatureMessages<A>, b: FeatureMessages<B>): FeatureMessages<A | B> {
  return { en: { ...a.en, ...b.en }, "zh-CN": { ...a["zh-CN"], ...b["zh-CN"] } } as FeatureMessages<A | B>;
}

export type FeatureTranslate<K extends string> = (key: K, values?: TranslateValues) => string;

export function featureTranslate<K extends string>(dictionary: FeatureMessages<K>, locale: Locale): FeatureTranslate<K> {
  return (key, values) => fillTemplate(dictionary[locale][key] ?? dictionary.en[key] ?? key, values);
}
