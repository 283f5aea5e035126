"use client";
import { useMemo } from "react";
import type { MessageKey, TranslateValues } from "@/lib/i18n/messages";
import { isOrdersKey, translateOrders, type OrdersMessageKey } from "@/lib/i18n/orders-messages";
import { useI18n } from "@/components/i18n/i18n-provider";

export type OrdersTranslate = (key: MessageKey | OrdersMessageKey, values?: TranslateValues) => string;

/** `useI18n` with the orders dictionary added (it ships only with the orders pages). */
export function useOrdersI18n() {
  const { t: base, locale, setLocale } = useI18n();
  const t = useMemo<OrdersTranslate>(() => (key, values) => (isOrdersKey(key) ? translateOrders(locale, key, values) : base(key, values)), [base, locale]);
  return { t, locale, setLocale };
}
