import { describe, expect, it } from "vitest";
import { LOCALES } from "./locales";
import { messages } from "./messages";
import { ordersMessages } from "./orders-dictionary";
import { translateOrders, type OrdersMessageKey } from "./orders-messages";

describe("the orders dictionary", () => {
  it("has the same keys in every language, none empty, the same placeholders, real Chinese", () => {
    const english = Object.keys(ordersMessages.en).sort();
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const locale of LOCALES) expect(Object.keys(ordersMessages[locale]).sort(), locale).toEqual(english);
    for (const key of english as OrdersMessageKey[]) {
      for (const locale of LOCALES) {
        expect(ordersMessages[locale][key].trim(), `${locale} ${key}`).not.toBe("");
        expect(placeholders(ordersMessages[locale][key]), `${locale} ${key}`).toEqual(placeholders(ordersMessages.en[key]));
      }
      expect(ordersMessages["zh-CN"][key], key).not.toBe(ordersMessages.en[key]);
    }
  });

  it("owns the orders. prefix: every key has it, the main dictionary has none", () => {
    expect(Object.keys(ordersMessages.en).every((k) => k.startsWith("orders."))).toBe(true);
    expect(Object.keys(messages.en).filter((k) => k.startsWith("orders."))).toEqual([]);
  });

  it("fills placeholders", () => {
    expect(translateOrders(ordersMessages["zh-CN"], "orders.detail.title", { orderNo: "A/1" })).toBe("订单 A/1");
    expect(translateOrders(ordersMessages.en, "orders.total", {})).toBe("{count} orders");
    expect(translateOrders(undefined, "orders.total")).toBe("orders.total");
  });
});
