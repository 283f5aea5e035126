"use client";
import { useRouter } from "next/navigation";
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { LOCALE_COOKIE, type Locale } from "@/lib/i18n/locales";
import { formatMessage, type Translate } from "@/lib/i18n/format";
import type { Messages } from "@/lib/i18n/messages";

type I18n = { locale: Locale; t: Translate; setLocale: (locale: Locale) => void };

const I18nContext = createContext<I18n | null>(null);

/** Remembers the choice for this browser; in the platform's iframe the cookie is partitioned. */
function rememberLocale(locale: Locale) {
  document.cookie = `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=31536000; SameSite=None; Secure; Partitioned`;
}

/**
 * The console's language. The page arrives with one dictionary (the server's choice of language);
 * switching loads the other as a separate chunk, so no route's first load carries both.
 */
export function I18nProvider({ initialLocale, initialMessages, children }: { initialLocale: Locale; initialMessages: Messages; children: ReactNode }) {
  const [current, setCurrent] = useState({ locale: initialLocale, dictionary: initialMessages });
  const router = useRouter();
  const setLocale = useCallback(
    (next: Locale) => {
      rememberLocale(next);
      void import("@/lib/i18n/messages").then(({ messages }) => {
        document.documentElement.lang = next;
        setCurrent({ locale: next, dictionary: messages[next] });
        // Server-rendered words (the home page, the activity page) follow with the new cookie.
        router.refresh();
      });
    },
    [router],
  );
  const value = useMemo<I18n>(
    () => ({ locale: current.locale, setLocale, t: (key, values) => formatMessage(current.locale, current.dictionary, key, values) }),
    [current, setLocale],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const context = useContext(I18nContext);
  if (!context) throw new Error("useI18n outside <I18nProvider>");
  return context;
}
