import { describe, expect, it } from "vitest";
import { operations } from "@/lib/platform/operations";
import {
  createOrderInput,
  emptyLine,
  emptyOrderForm,
  homeInputToUtcBody,
  lineSubtotal,
  nextLineId,
  orderFormDirty,
  orderFormFrom,
  orderSums,
  placeOrderErrors,
  sumsNeedConfirmation,
  updateOrderInput,
  utcToHomeInput,
  validateOrderForm,
  type OrderForm,
} from "./order-form";

function filled(patch: Partial<OrderForm> = {}): OrderForm {
  const base = emptyOrderForm("9007199254740993");
  return {
    ...base,
    orderNo: "SO-1",
    amountPaid: "59.97",
    dateOrder: "2026-03-01T08:30",
    lines: [
      { ...emptyLine("1"), productName: "Tea", qty: "3", priceUnit: "19.99" },
      { ...emptyLine("2"), productName: "Cup", qty: "1", priceUnit: "0.1", priceSubTotal: "0.10" },
    ],
    ...patch,
  };
}

describe("order form rules (§4.2 required fields, §2.4, §8)", () => {
  it("requires orderNo, amountPaid, dateOrder and, per line, lineId, productName, qty", () => {
    const form = { ...emptyOrderForm("1"), lines: [{ ...emptyLine(""), qty: "" }] };
    expect(Object.keys(validateOrderForm(form, "create")).sort()).toEqual(
      ["amountPaid", "dateOrder", "lines.0.lineId", "lines.0.productName", "lines.0.qty", "orderNo"].sort(),
    );
    expect(validateOrderForm(filled(), "create")).toEqual({});
  });

  it("needs the customer by id (a 64-bit id) or by an identity (type ≤ 32, value ≤ 128)", () => {
    expect(validateOrderForm(filled({ customerId: "" }), "create").customerId).toEqual({ code: "required" });
    expect(validateOrderForm(filled({ customerId: "12ab" }), "create").customerId).toEqual({ code: "customerId" });
    expect(validateOrderForm(filled({ customerId: "9223372036854775808" }), "create").customerId).toEqual({ code: "customerId" });
    const byIdentity = filled({ customerBy: "identity", customerId: "", identityType: "x".repeat(33), identityValue: "" });
    expect(validateOrderForm(byIdentity, "create")).toEqual({ identityType: { code: "tooLong", max: 32 }, identityValue: { code: "required" } });
    expect(validateOrderForm({ ...byIdentity, identityType: "crm", identityValue: "v".repeat(129) }, "create").identityValue).toEqual({ code: "tooLong", max: 128 });
  });

  it("refuses bad money, a duplicate lineId (§2.4 unique within the order), a qty that is not a whole number ≥ 1, an impossible date", () => {
    const form = filled({ amountPaid: "1.999", amountTotal: "-5", dateOrder: "2026-02-30T10:00" });
    form.lines[1]!.lineId = "1";
    form.lines[1]!.qty = "1.5";
    form.lines[0]!.priceUnit = "abc";
    expect(validateOrderForm(form, "create")).toEqual({
      amountPaid: { code: "tooManyDecimals" },
      amountTotal: { code: "negative" },
      dateOrder: { code: "dateOrder" },
      "lines.1.lineId": { code: "lineIdDuplicate" },
      "lines.1.qty": { code: "qty" },
      "lines.0.priceUnit": { code: "invalid" },
    });
  });

  it("edit mode: the order number is fixed (it is the address), the customer is by id", () => {
    const form = filled({ orderNo: "", customerBy: "identity", customerId: "" });
    expect(Object.keys(validateOrderForm(form, "edit"))).toEqual(["customerId"]);
  });
});

describe("createOrderInput (§4.2 POST /v1/deals)", () => {
  it("sends decimal strings, dateOrder in UTC, exact line subtotals, counponCode, and passes the table's schema", () => {
    const input = createOrderInput(filled({ amountTotal: "60.07", amountDiscount: "0.10", couponCode: "WELCOME", currency: "¥" }));
    expect(input.body).toMatchObject({
      orderNo: "SO-1",
      customerId: "9007199254740993",
      amountPaid: "59.97",
      amountTotal: "60.07",
      amountDiscount: "0.10",
      dateOrder: "2026-03-01T00:30:00Z",
      counponCode: "WELCOME",
      currency: "¥",
    });
    expect(input.body.lines).toEqual([
      { lineId: "1", productName: "Tea", qty: 3, priceUnit: "19.99", priceSubTotal: "59.97" },
      { lineId: "2", productName: "Cup", qty: 1, priceUnit: "0.10", priceSubTotal: "0.10" },
    ]);
    const parsed = operations["deals.create"].body!.parse(input.body) as { amountPaid: number };
    expect(parsed.amountPaid).toBe(59.97);
  });

  it("by identity: customerIdentities with one {identityType, identityValue}, no customerId", () => {
    const input = createOrderInput(filled({ customerBy: "identity", identityType: " crm-account ", identityValue: " C-1 " }));
    expect(input.body.customerIdentities).toEqual([{ identityType: "crm-account", identityValue: "C-1" }]);
    expect("customerId" in input.body).toBe(false);
    expect(operations["deals.create"].body!.safeParse(input.body).success).toBe(true);
  });
});

describe("sums shown under the amounts", () => {
  it("adds line subtotals exactly and flags a total that is not paid + discount (§2.4)", () => {
    const form = filled({ amountPaid: "0.2", amountDiscount: "0.1", amountTotal: "0.3" });
    expect(orderSums(form)).toEqual({ lines: "60.07", paidPlusDiscount: "0.30", totalMismatch: false, linesMismatch: true, expectedTotal: "0.30" });
    expect(orderSums({ ...form, amountTotal: "0.31" }).totalMismatch).toBe(true);
    expect(lineSubtotal({ ...emptyLine("1"), qty: "3", priceUnit: "19.99" })).toBe("59.97");
    expect(lineSubtotal({ ...emptyLine("1"), qty: "3" })).toBeUndefined();
    expect(orderSums({ ...form, lines: [{ ...emptyLine("1") }] }).lines).toBeUndefined();
  });
});

describe("edit (§4.2 PUT /v1/deals/{orderNo})", () => {
  const order = {
    orderNo: "A/B 1",
    customerId: "42",
    amountPaid: 276,
    amountTotal: 286,
    couponCode: "WELCOME10",
    dateOrder: "2026-03-01T00:30:00Z",
    remark: "old",
    lines: [{ orderNo: "A/B 1", lineId: "1", productName: "Tea", qty: 1, priceUnit: 168, priceSubTotal: 168, lAttr1: "gift", lNum1: null, counponCode: "L" }],
  };

  it("starts from the order: amounts as 2-decimal strings, dateOrder in UTC+8, custom line fields kept aside", () => {
    const form = orderFormFrom(order);
    expect(form).toMatchObject({ orderNo: "A/B 1", customerId: "42", amountPaid: "276.00", couponCode: "WELCOME10", dateOrder: "2026-03-01T08:30:00" });
    expect(form.lines[0]).toMatchObject({ lineId: "1", qty: "1", priceUnit: "168.00" });
    expect(form.lines[0]!.extra).toEqual({ lAttr1: "gift", counponCode: "L" });
    expect(utcToHomeInput("2026-03-01T16:00:00Z")).toBe("2026-03-02T00:00:00");
    expect(homeInputToUtcBody("2026-03-02T00:00:00")).toBe("2026-03-01T16:00:00Z");
  });

  it("sends only what changed; lines as a whole with their custom fields; emptied fields as null; nothing → undefined", () => {
    const original = orderFormFrom(order);
    expect(updateOrderInput("A/B 1", original, original)).toBeUndefined();
    expect(orderFormDirty(original, { ...original })).toBe(false);
    const form = { ...original, remark: "", amountPaid: "270.5", lines: original.lines.map((l) => ({ ...l, qty: "2", priceSubTotal: "" })) };
    expect(orderFormDirty(original, form)).toBe(true);
    const input = updateOrderInput("A/B 1", original, form)!;
    expect(input.params).toEqual({ orderNo: "A/B 1" });
    expect(input.body).toEqual({
      amountPaid: "270.50",
      remark: null,
      lines: [{ lAttr1: "gift", counponCode: "L", lineId: "1", productName: "Tea", qty: 2, priceUnit: "168.00", priceSubTotal: "336.00" }],
    });
    expect(operations["deals.update"].body!.safeParse(input.body).success).toBe(true);
  });
});

describe("placeOrderErrors", () => {
  it("puts platform and proxy names on the form's fields", () => {
    const placed = placeOrderErrors([
      { field: "amountPaid", message: "amountPaid must be a number" },
      { field: "lines[1].lineId", message: "lineId must be unique within the order" },
      { field: "body.lines.0.qty", message: "must be an integer" },
      { field: "customerIdentities[0].identityValue", message: "identityValue is required" },
      { field: "counponCode", message: "bad" },
      { field: "merchantPoint", message: "must be an integer" },
    ]);
    expect(placed.byField).toEqual({
      amountPaid: "amountPaid must be a number",
      "lines.1.lineId": "lineId must be unique within the order",
      "lines.0.qty": "must be an integer",
      identityValue: "identityValue is required",
      couponCode: "bad",
    });
    expect(placed.unplaced).toEqual(["merchantPoint: must be an integer"]);
  });
});

it("nextLineId picks the next free number", () => {
  expect(nextLineId([emptyLine("1"), emptyLine("3")])).toBe("4");
  expect(nextLineId([emptyLine("1"), emptyLine("2")])).toBe("3");
  expect(nextLineId([emptyLine("2")])).toBe("3");
});

describe("line subtotals follow quantity × unit price", () => {
  const order = {
    orderNo: "SO-2",
    customerId: "42",
    amountPaid: 99.9,
    dateOrder: "2026-03-01T00:30:00Z",
    lines: [
      { lineId: "1", productName: "Tea", qty: 2, priceUnit: 49.95, priceSubTotal: 99.9 },
      { lineId: "2", productName: "Gift", qty: 1, priceUnit: 10, priceSubTotal: 0 },
    ],
  };

  it("a loaded subtotal that is qty × unit is computed from then on: quantity 2 → 3 at 49.95 gives 149.85", () => {
    const original = orderFormFrom(order);
    expect(original.lines[0]).toMatchObject({ subtotalByHand: false, priceSubTotal: "" });
    const edited = { ...original, lines: original.lines.map((l, i) => (i === 0 ? { ...l, qty: "3" } : l)) };
    expect(lineSubtotal(edited.lines[0]!)).toBe("149.85");
    expect(orderSums(edited).lines).toBe("149.85");
    const input = updateOrderInput("SO-2", original, edited)!;
    expect((input.body!.lines as unknown as { priceSubTotal: string }[])[0]!.priceSubTotal).toBe("149.85");
  });

  it("a loaded subtotal that is not qty × unit stays as set by hand (visible), and is sent unchanged", () => {
    const original = orderFormFrom(order);
    expect(original.lines[1]).toMatchObject({ subtotalByHand: true, priceSubTotal: "0.00" });
    expect(lineSubtotal(original.lines[1]!)).toBe("0.00");
    expect(lineSubtotal({ ...original.lines[1]!, qty: "4" })).toBe("0.00");
    // Set by hand back to computed: the override is dropped.
    expect(lineSubtotal({ ...original.lines[1]!, subtotalByHand: false })).toBe("10.00");
  });

  it("a typed subtotal counts only when set by hand or when no price is given", () => {
    const line = { ...emptyLine("1"), productName: "Tea", qty: "3", priceUnit: "1.00", priceSubTotal: "2.50" };
    expect(lineSubtotal(line)).toBe("3.00");
    expect(lineSubtotal({ ...line, subtotalByHand: true })).toBe("2.50");
    expect(lineSubtotal({ ...line, priceUnit: "" })).toBe("2.50");
  });
});

describe("amounts checked before saving", () => {
  it("warns when the lines do not add up to the paid amount (no total given)", () => {
    const form = filled({ amountPaid: "99.90", lines: [{ ...emptyLine("1"), productName: "Tea", qty: "3", priceUnit: "49.95" }] });
    const sums = orderSums(form);
    expect(sums).toMatchObject({ lines: "149.85", expectedTotal: "99.90", linesMismatch: true, totalMismatch: false });
    expect(sumsNeedConfirmation(sums)).toBe(true);
    expect(sumsNeedConfirmation(orderSums({ ...form, amountPaid: "149.85" }))).toBe(false);
  });

  it("compares lines with the given total, and the total with paid + discount", () => {
    const form = filled({ amountPaid: "50.00", amountDiscount: "10.00", amountTotal: "60.07" });
    expect(orderSums(form)).toMatchObject({ lines: "60.07", expectedTotal: "60.07", linesMismatch: false, totalMismatch: true });
    expect(sumsNeedConfirmation(orderSums({ ...form, amountTotal: "60.00" }))).toBe(true);
    expect(orderSums({ ...form, amountPaid: "50.07", amountTotal: "60.07" })).toMatchObject({ linesMismatch: false, totalMismatch: false });
    // Lines that add up to the paid amount (subtotals after the discount) are not flagged.
    expect(orderSums(filled({ amountPaid: "60.07", amountDiscount: "0.20", amountTotal: "60.27" }))).toMatchObject({ linesMismatch: false, totalMismatch: false });
  });

  it("says nothing while an amount is missing or not a number", () => {
    expect(orderSums(filled({ amountPaid: "" }))).toMatchObject({ linesMismatch: false, totalMismatch: false });
    expect(orderSums(filled({ amountTotal: "abc" }))).toMatchObject({ linesMismatch: false, totalMismatch: false });
  });
});
