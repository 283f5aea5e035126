import type { TranslateValues } from "./messages";
import type { ordersEn } from "./orders-messages.en";

/**
 * The Orders section's strings (§2.4, §3, §4.2) are a dictionary of their own
 * (`orders-messages.en.ts`, `orders-messages.zh-CN.ts`), kept out of the JavaScript bundle: the
 * orders pages get the dictionary of the page's language from the server (in the HTML), and the
 * browser loads another one only when the language is switched (first-load budget, see
 * components/README.md). Its keys start with `orders.`; the main dictionary has none such.
 */

export type OrdersMessageKey = keyof typeof ordersEn;

export type OrdersDictionary = Record<OrdersMessageKey, string>;

export function isOrdersKey(key: string): key is OrdersMessageKey {
  return key.startsWith("orders.");
}

/** An orders message from `dictionary`, `{name}` placeholders filled like `translate` (the key while none is there yet). */
export function translateOrders(dictionary: OrdersDictionary | undefined, key: OrdersMessageKey, values?: TranslateValues): string {
  const template = dictionary?.[key] ?? key;
  if (!values) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
