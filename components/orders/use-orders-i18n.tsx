"use client";
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import type { Locale } from "@/lib/i18n/locales";
import type { MessageKey, TranslateValues } from "@/lib/i18n/messages";
import { isOrdersKey, translateOrders, type OrdersDictionary, type OrdersMessageKey } from "@/lib/i18n/orders-messages";
import { useI18n } from "@/components/i18n/i18n-provider";

export type OrdersTranslate = (key: MessageKey | OrdersMessageKey, values?: TranslateValues) => string;

/** Dictionaries loaded after a language switch (English is built in); kept for the tab's life. */
const loaded: Partial<Record<Locale, OrdersDictionary>> = {};
const OrdersDictionaryContext = createContext<Partial<Record<Locale, OrdersDictionary>>>({});

/**
 * Gives the orders pages the dictionary of the page's language, handed over by the server page
 * (in the HTML, not in the JavaScript bundle). Another language chosen later is loaded then.
 */
export function OrdersI18nProvider({ locale, dictionary, children }: { locale: Locale; dictionary?: OrdersDictionary; children: ReactNode }) {
  const value = useMemo(() => (dictionary ? { [locale]: dictionary } : {}), [locale, dictionary]);
  return <OrdersDictionaryContext.Provider value={value}>{children}</OrdersDictionaryContext.Provider>;
}

/** `useI18n` with the orders dictionary added. */
export function useOrdersI18n() {
  const { t: base, locale, setLocale } = useI18n();
  const provided = useContext(OrdersDictionaryContext);
  const [fetched, setFetched] = useState<OrdersDictionary | undefined>(undefined);
  const dictionary = locale === "en" ? undefined : (provided[locale] ?? loaded[locale] ?? fetched);
  useEffect(() => {
    if (locale !== "zh-CN" || dictionary) return;
    let live = true;
    void import("@/lib/i18n/orders-messages.zh-CN").then((m) => {
      loaded["zh-CN"] = m.ordersZhCN;
      if (live) setFetched(m.ordersZhCN);
    });
    return () => {
      live = false;
    };
  }, [locale, dictionary]);
  const t = useMemo<OrdersTranslate>(() => (key, values) => (isOrdersKey(key) ? translateOrders(dictionary, key, values) : base(key, values)), [base, dictionary]);
  return { t, locale, setLocale };
}
