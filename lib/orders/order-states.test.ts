import { describe, expect, it } from "vitest";
import { messages } from "@/lib/i18n/messages";
import { canCancel, listedOrderState, ORDER_STATES, orderStateView, stateMessageKeys } from "./order-states";

describe("order states (§3, §4.2)", () => {
  it("maps the Chinese state values of §3 and §4.2 to kinds", () => {
    expect(orderStateView("已付款")).toEqual({ kind: "paid", raw: "已付款" });
    expect(orderStateView("已取消")).toEqual({ kind: "cancelled", raw: "已取消" });
    expect(orderStateView("完全退单").kind).toBe("refundFull");
    expect(orderStateView("部分退单").kind).toBe("refundPartial");
  });

  it("shows an unknown state raw, and no state as none", () => {
    expect(orderStateView("已发货")).toEqual({ kind: "unknown", raw: "已发货" });
    expect(orderStateView(null)).toEqual({ kind: "none", raw: "" });
    expect(orderStateView("  ")).toEqual({ kind: "none", raw: "" });
  });

  it("every known state has a label and a meaning in both languages", () => {
    for (const kind of Object.values(ORDER_STATES)) {
      const keys = stateMessageKeys(kind);
      for (const locale of ["en", "zh-CN"] as const) {
        expect(messages[locale][keys.label]).toBeTruthy();
        expect(messages[locale][keys.meaning]).toBeTruthy();
      }
    }
  });

  it("a cancelled order offers no second cancel", () => {
    expect(canCancel("已取消")).toBe(false);
    expect(canCancel("已付款")).toBe(true);
    expect(canCancel(null)).toBe(true);
  });
});

describe("listedOrderState (no read per row)", () => {
  it("uses the row's state, else cancelled when it has a cancelDate, else paid", () => {
    expect(listedOrderState({ state: "部分退单" })).toBe("部分退单");
    expect(listedOrderState({ state: null, cancelDate: "2026-03-01T00:00:00Z" })).toBe("已取消");
    expect(listedOrderState({})).toBe("已付款");
    expect(listedOrderState({ state: "  ", cancelDate: "" })).toBe("已付款");
  });
});
