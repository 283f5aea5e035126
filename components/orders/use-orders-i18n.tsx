"use client";
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import type { Locale } from "@/lib/i18n/locales";
import type { MessageKey, TranslateValues } from "@/lib/i18n/messages";
import { isOrdersKey, translateOrders, type OrdersDictionary, type OrdersMessageKey } from "@/lib/i18n/orders-messages";
import { useI18n } from "@/components/i18n/i18n-provider";

export type OrdersTranslate = (key: MessageKey | OrdersMessageKey, values?: TranslateValues) => string;

/** Dictionaries loaded after a language switch; kept for the tab's life. */
const loaded: Partial<Record<Locale, OrdersDictionary>> = {};
const load: Record<Locale, () => Promise<OrdersDictionary>> = {
  en: () => import("@/lib/i18n/orders-messages.en").then((m) => m.ordersEn),
  "zh-CN": () => import("@/lib/i18n/orders-messages.zh-CN").then((m) => m.ordersZhCN),
};
const OrdersDictionaryContext = createContext<{ locale?: Locale; dictionary?: OrdersDictionary }>({});

/**
 * Gives the orders pages the dictionary of the page's language, handed over by the server page
 * (in the HTML, not in the JavaScript bundle; see `lib/i18n/orders-messages.ts`).
 */
export function OrdersI18nProvider({ locale, dictionary, children }: { locale: Locale; dictionary: OrdersDictionary; children: ReactNode }) {
  const value = useMemo(() => ({ locale, dictionary }), [locale, dictionary]);
  return <OrdersDictionaryContext.Provider value={value}>{children}</OrdersDictionaryContext.Provider>;
}

/**
 * `useI18n` with the orders dictionary added. After a language switch the other dictionary is
 * loaded; until it is there, the page keeps the words it had.
 */
export function useOrdersI18n() {
  const { t: base, locale, setLocale } = useI18n();
  const provided = useContext(OrdersDictionaryContext);
  const [fetched, setFetched] = useState<{ locale: Locale; dictionary: OrdersDictionary } | undefined>(undefined);
  const current = provided.locale === locale ? provided.dictionary : (loaded[locale] ?? (fetched?.locale === locale ? fetched.dictionary : undefined));
  useEffect(() => {
    if (current) return;
    let live = true;
    void load[locale]().then((dictionary) => {
      loaded[locale] = dictionary;
      if (live) setFetched({ locale, dictionary });
    });
    return () => {
      live = false;
    };
  }, [locale, current]);
  const dictionary = current ?? fetched?.dictionary ?? provided.dictionary;
  const t = useMemo<OrdersTranslate>(() => (key, values) => (isOrdersKey(key) ? translateOrders(dictionary, key, values) : base(key, values)), [base, dictionary]);
  return { t, locale, setLocale };
}
