import { describe, expect, it } from "vitest";
import { emptyLine, emptyOrderForm, nextLineId, paidFollowsLines, withPaidFromLines, type OrderForm } from "./order-form";

const withLines = (form: OrderForm, lines: Array<{ qty: string; priceUnit: string }>): OrderForm => ({
  ...form,
  lines: lines.map((l, i) => ({ ...emptyLine(String(i + 1)), ...l })),
});

describe("Paid is filled from the lines until staff change it", () => {
  it("a new order's Paid follows the lines' sum", () => {
    const form = withLines(emptyOrderForm(), [{ qty: "2", priceUnit: "10.50" }, { qty: "1", priceUnit: "5" }]);
    expect(paidFollowsLines(form)).toBe(true);
    expect(withPaidFromLines(form).amountPaid).toBe("26.00");
    // It keeps following as lines change.
    const more = withLines(withPaidFromLines(form), [{ qty: "3", priceUnit: "10.50" }]);
    expect(paidFollowsLines(withPaidFromLines(form))).toBe(true);
    expect(withPaidFromLines(more).amountPaid).toBe("31.50");
  });

  it("a Paid typed by staff (not the lines' sum) is theirs", () => {
    const form = { ...withLines(emptyOrderForm(), [{ qty: "2", priceUnit: "10" }]), amountPaid: "18" };
    expect(paidFollowsLines(form)).toBe(false);
  });

  it("lines without prices leave Paid as it is", () => {
    const form = withLines(emptyOrderForm(), [{ qty: "1", priceUnit: "" }]);
    expect(withPaidFromLines(form)).toBe(form);
  });

  it("line ids are generated: 1, then the next free number", () => {
    expect(emptyOrderForm().lines[0]!.lineId).toBe("1");
    expect(nextLineId([emptyLine("1"), emptyLine("3")])).toBe("4");
  });
});
