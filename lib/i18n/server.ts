import "server-only";
import { cookies, headers } from "next/headers";
import type { Translate } from "./format";
import { LOCALE_COOKIE, PLATFORM_LANG_HEADER, pickLocale, type Locale } from "./locales";
import { translate } from "./messages";

/** The locale of the current request: the user's choice, then the platform's, then the browser's. */
export async function requestLocale(): Promise<Locale> {
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  return pickLocale({
    cookie: cookieStore.get(LOCALE_COOKIE)?.value,
    platform: headerList.get(PLATFORM_LANG_HEADER),
    acceptLanguage: headerList.get("accept-language"),
  });
}

/** `t` in the request's language, for server components (the page's words arrive as HTML). */
export async function requestTranslate(): Promise<Translate> {
  const locale = await requestLocale();
  return (key, values) => translate(locale, key, values);
}
