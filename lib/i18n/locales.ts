/**
 * The console's languages: English and Simplified Chinese. The default comes from, in order: the
 * language the user picked (cookie), the platform (`?lang=` on the page URL), the browser's
 * Accept-Language; then English.
 */
export const LOCALES = ["en", "zh-CN"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";
export const LOCALE_COOKIE = "ec_locale";
/** The platform's `?lang=` of the page URL, passed to server layouts by proxy.ts. */
export const PLATFORM_LANG_HEADER = "x-ec-platform-lang";

/** A locale of ours for a language tag (`zh`, `zh-Hans-CN`, `en-GB`, …), or undefined. */
export function matchLocale(tag: string | null | undefined): Locale | undefined {
  if (!tag) return undefined;
  const lower = tag.trim().toLowerCase();
  // Traditional Chinese is not offered; English reads better to its users than Simplified.
  if (lower === "zh" || lower.startsWith("zh-cn") || lower.startsWith("zh-hans") || lower === "zh-sg") return "zh-CN";
  if (lower === "en" || lower.startsWith("en-")) return "en";
  return undefined;
}

/** The best of our locales for an Accept-Language header (q-values honoured). */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale | undefined {
  if (!acceptLanguage) return undefined;
  const ranked = acceptLanguage
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag, q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && Number.isFinite(entry.q) && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const entry of ranked) {
    const locale = matchLocale(entry.tag);
    if (locale) return locale;
  }
  return undefined;
}

export function pickLocale(sources: { cookie?: string | null; platform?: string | null; acceptLanguage?: string | null }): Locale {
  return matchLocale(sources.cookie) ?? matchLocale(sources.platform) ?? negotiateLocale(sources.acceptLanguage) ?? DEFAULT_LOCALE;
}
