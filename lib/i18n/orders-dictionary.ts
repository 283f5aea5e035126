import type { Locale } from "./locales";
import type { OrdersDictionary } from "./orders-messages";
import { ordersEn } from "./orders-messages.en";
import { ordersZhCN } from "./orders-messages.zh-CN";

/** Both orders dictionaries: for the server (which hands the page its language's) and tests. */
export const ordersMessages: Record<Locale, OrdersDictionary> = { en: ordersEn, "zh-CN": ordersZhCN };
