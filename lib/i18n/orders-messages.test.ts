import { describe, expect, it } from "vitest";
import { messages, translate } from "./messages";
import { ordersEn } from "./orders-messages";

/** The section file is joined into the one dictionary (whose parity messages.test.ts checks). */
describe("the Orders section's strings", () => {
  it("own the orders. prefix and are part of the dictionary in both languages", () => {
    for (const key of Object.keys(ordersEn) as (keyof typeof ordersEn)[]) {
      expect(key.startsWith("orders."), key).toBe(true);
      expect(messages.en[key], key).toBe(ordersEn[key]);
      expect(messages["zh-CN"][key], key).not.toBe(ordersEn[key]);
    }
  });

  it("fill placeholders", () => {
    expect(translate("zh-CN", "orders.detail.title", { orderNo: "A/1" })).toBe("订单 A/1");
    expect(translate("en", "orders.total", {})).toBe("{count} orders");
  });
});
