import { describe, expect, it } from "vitest";
import { operations } from "@/lib/platform/operations";
import { cancelInput, defaultRefundAmount, placeRefundErrors, refundInput, validateRefund } from "./order-actions";

const order = {
  orderNo: "SO-9",
  amountPaid: 60.07,
  lines: [
    { lineId: "1", priceSubTotal: 59.97, priceSubPaid: 59.97 },
    { lineId: "2", priceSubTotal: 0.1 },
    { lineId: "3", priceSubTotal: 0.2 },
  ],
};

describe("refund (§4.2 dealService/refund, §3)", () => {
  it("proposes everything paid for a full refund, the chosen lines (exactly) for a partial one", () => {
    expect(defaultRefundAmount(order, "full", [])).toBe("60.07");
    expect(defaultRefundAmount(order, "partial", ["2", "3"])).toBe("0.30");
    expect(defaultRefundAmount(order, "partial", [])).toBe("");
    // Never more than was paid.
    expect(defaultRefundAmount({ ...order, amountPaid: 10 }, "partial", ["1"])).toBe("10.00");
  });

  it("refuses an amount above what was paid, zero, a bad amount, and a partial refund without lines", () => {
    expect(validateRefund(order, { kind: "partial", lineIds: ["1"], amount: "60.08", reason: "" }).amount).toEqual({ code: "overPaid", paid: "60.07" });
    expect(validateRefund(order, { kind: "full", lineIds: [], amount: "60.07", reason: "" })).toEqual({ amount: undefined, lines: undefined });
    expect(validateRefund(order, { kind: "full", lineIds: [], amount: "0", reason: "" }).amount).toEqual({ code: "zero" });
    expect(validateRefund(order, { kind: "full", lineIds: [], amount: "1.234", reason: "" }).amount).toEqual({ code: "tooManyDecimals" });
    expect(validateRefund(order, { kind: "partial", lineIds: [], amount: "1", reason: "" }).lines).toEqual({ code: "linesRequired" });
  });

  it("sends state 部分退单 with the chosen lines, or 完全退单 with every line; the amount as a decimal string", () => {
    const partial = refundInput(order, { kind: "partial", lineIds: ["2"], amount: "0.1", reason: " broken " });
    expect(partial.body).toEqual({ orderNo: "SO-9", state: "部分退单", refundLines: [{ lineId: "2" }], refundTotal: "0.10", reason: "broken" });
    const full = refundInput(order, { kind: "full", lineIds: [], amount: "60.07", reason: "" });
    expect(full.body).toEqual({ orderNo: "SO-9", state: "完全退单", refundLines: [{ lineId: "1" }, { lineId: "2" }, { lineId: "3" }], refundTotal: "60.07" });
    expect(operations["deals.refund"].body!.safeParse(full.body).success).toBe(true);
  });
});

describe("cancel (§4.2 dealService/cancel, §3)", () => {
  it("without a date leaves the platform's default; a date typed in UTC+8 goes in UTC", () => {
    expect(cancelInput("SO-9", "")).toEqual({ input: { body: { orderNo: "SO-9" } } });
    expect(cancelInput("SO-9", "2026-03-02T07:00")).toEqual({ input: { body: { orderNo: "SO-9", cancelDate: "2026-03-01T23:00:00Z" } } });
    expect(cancelInput("SO-9", "2026-13-01T07:00")).toEqual({ problem: "dateOrder" });
    expect(operations["deals.cancel"].body!.safeParse(cancelInput("SO-9", "2026-03-02T07:00").input!.body).success).toBe(true);
  });
});

describe("placeRefundErrors", () => {
  it("puts refundLines and refundTotal errors (platform or proxy names) on the dialog's fields", () => {
    expect(
      placeRefundErrors([
        { field: "refundLines", message: "order SO-9 has no line 2" },
        { field: "body.refundTotal", message: "must be a number" },
        { field: "refundLines[0].lineId", message: "is required" },
        { field: "state", message: "bad" },
      ]),
    ).toEqual({ byField: { refundLines: "order SO-9 has no line 2", refundTotal: "must be a number" }, unplaced: ["state: bad"] });
  });
});
