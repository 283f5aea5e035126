import { placeErrors, type PlacedErrors, type TextProblem } from "@/lib/forms/field-errors";
import type { InputOf } from "@/lib/platform/operations";
import { homeInputToUtcFilter, parsePlatformTime, HOME_OFFSET_MINUTES } from "@/lib/time";
import { formatMinor, minorOf, moneyInputOf, normalizeMoney, parseMoney, sumMinor, timesQty, type MoneyProblem } from "./money";
import { isPlatformId } from "@/lib/platform/ids";
import { identityProblems } from "@/lib/customers/identity-rules";

/**
 * The order form (§4.2 POST /v1/deals to create, PUT /v1/deals/{orderNo} to edit) as pure
 * functions: order → form, the rules of §4.2 / §2.4 / §8, form → request, and the platform's field
 * names → form fields. Money stays a decimal string (see `money.ts`); `dateOrder` is typed in UTC+8
 * and sent in UTC (§2).
 */

export const HEADER_TEXT_FIELDS = ["currency", "paymentTerm", "paymentNo", "type", "store", "salesChannel", "couponCode", "remark"] as const;
export type HeaderTextField = (typeof HEADER_TEXT_FIELDS)[number];
export const MONEY_FIELDS = ["amountPaid", "amountTotal", "amountDiscount"] as const;
export type MoneyField = (typeof MONEY_FIELDS)[number];
export const LINE_TEXT_FIELDS = ["lineId", "productName", "productId", "skuId", "brandName", "category", "qty", "priceUnit", "priceSubTotal", "priceSubPaid"] as const;
export type LineField = (typeof LINE_TEXT_FIELDS)[number];
const LINE_MONEY: readonly LineField[] = ["priceUnit", "priceSubTotal", "priceSubPaid"];

export type LineForm = Record<LineField, string> & {
  /** Stable React key of the row (not sent). */
  key: string;
  /** Fields of a loaded line the form does not edit (custom line fields §2.4, coupon, …): sent back unchanged. */
  extra: Record<string, unknown>;
  /**
   * The subtotal was set by hand (typed, or loaded with a value that is not quantity × unit price):
   * `priceSubTotal` is then sent as typed. Otherwise the subtotal is always quantity × unit price, so
   * changing a quantity changes the subtotal (an edited quantity once kept its old subtotal).
   */
  subtotalByHand: boolean;
};

export type OrderForm = Record<HeaderTextField | MoneyField, string> & {
  orderNo: string;
  /** DateTimeField value in UTC+8 (`YYYY-MM-DDTHH:MM[:SS]`). */
  dateOrder: string;
  customerBy: "id" | "identity";
  customerId: string;
  identityType: string;
  identityValue: string;
  lines: LineForm[];
};

export type OrderProblem = TextProblem | { code: MoneyProblem | "dateOrder" | "customerId" | "qty" | "lineIdDuplicate" };

let keySeq = 0;
export function emptyLine(lineId = ""): LineForm {
  const text = Object.fromEntries(LINE_TEXT_FIELDS.map((f) => [f, ""])) as Record<LineField, string>;
  return { ...text, lineId, qty: "1", key: `line-${++keySeq}`, extra: {}, subtotalByHand: false };
}

export function emptyOrderForm(customerId = ""): OrderForm {
  const header = Object.fromEntries([...HEADER_TEXT_FIELDS, ...MONEY_FIELDS].map((f) => [f, ""])) as Record<HeaderTextField | MoneyField, string>;
  return { ...header, orderNo: "", dateOrder: "", customerBy: "id", customerId, identityType: "", identityValue: "", lines: [emptyLine("1")] };
}

const asText = (v: unknown) => (v === null || v === undefined ? "" : String(v));

/** A platform time (`…Z`, UTC) as the UTC+8 value of the form's DateTimeField. */
export function utcToHomeInput(value: unknown): string {
  const ms = typeof value === "string" ? parsePlatformTime(value) : undefined;
  if (ms === undefined) return "";
  return new Date(ms + HOME_OFFSET_MINUTES * 60_000).toISOString().slice(0, 19);
}

/** A form time typed in UTC+8 as the UTC body time of §2 (`YYYY-MM-DDTHH:MM:SSZ`), or undefined. */
export function homeInputToUtcBody(value: string): string | undefined {
  const utc = homeInputToUtcFilter(value);
  return utc ? `${utc}Z` : undefined;
}

const LINE_KNOWN = new Set<string>([...LINE_TEXT_FIELDS, "orderNo"]);

/** The form of a loaded order (detail-by-order-number: lines with their custom fields, §4.2). */
export function orderFormFrom(order: Record<string, unknown>): OrderForm {
  const base = emptyOrderForm(asText(order.customerId ?? order.customerIdStr));
  const header = Object.fromEntries(HEADER_TEXT_FIELDS.map((f) => [f, asText(f === "couponCode" ? (order.couponCode ?? order.counponCode) : order[f])]));
  const money = Object.fromEntries(MONEY_FIELDS.map((f) => [f, moneyInputOf(order[f])]));
  const lines = Array.isArray(order.lines)
    ? (order.lines as Record<string, unknown>[]).map((line) => {
        const form = emptyLine();
        for (const f of LINE_TEXT_FIELDS) form[f] = LINE_MONEY.includes(f) ? moneyInputOf(line[f]) : asText(line[f]);
        form.extra = Object.fromEntries(Object.entries(line).filter(([k, v]) => !LINE_KNOWN.has(k) && v !== null && v !== undefined));
        // A stored subtotal that is quantity × unit price is computed from now on; any other is kept as set by hand.
        const computed = computedSubtotal(form);
        form.subtotalByHand = form.priceSubTotal !== "" && (computed === undefined || computed !== normalizeMoney(form.priceSubTotal));
        if (!form.subtotalByHand) form.priceSubTotal = "";
        return form;
      })
    : [];
  return { ...base, ...header, ...money, orderNo: asText(order.orderNo), dateOrder: utcToHomeInput(order.dateOrder), lines } as OrderForm;
}

/** Form field key of a line field: `lines.<index>.<field>` (also its `data-field`). */
export const lineKey = (index: number, field: LineField) => `lines.${index}.${field}`;

/** §4.2 required fields, §2.4 types, §8 identity limits, money rules; keys are form field keys. */
export function validateOrderForm(form: OrderForm, mode: "create" | "edit"): Record<string, OrderProblem> {
  const problems: Record<string, OrderProblem> = {};
  if (mode === "create" && form.orderNo.trim() === "") problems.orderNo = { code: "required" };
  if (form.amountPaid.trim() === "") problems.amountPaid = { code: "required" };
  for (const field of MONEY_FIELDS) {
    if (problems[field] || form[field].trim() === "") continue;
    const parsed = parseMoney(form[field]);
    if (!parsed.ok) problems[field] = { code: parsed.problem };
  }
  if (form.dateOrder.trim() === "") problems.dateOrder = { code: "required" };
  else if (!homeInputToUtcBody(form.dateOrder)) problems.dateOrder = { code: "dateOrder" };

  if (form.customerBy === "id" || mode === "edit") {
    const id = form.customerId.trim();
    if (id === "") problems.customerId = { code: "required" };
    else if (!isPlatformId(id)) problems.customerId = { code: "customerId" };
  } else {
    const found = identityProblems(form.identityType.trim(), form.identityValue.trim());
    if (found.customType) problems.identityType = found.customType;
    if (found.value) problems.identityValue = found.value;
  }

  const seen = new Set<string>();
  form.lines.forEach((line, i) => {
    const lineId = line.lineId.trim();
    // §2.4: lineId is unique within the order.
    if (lineId === "") problems[lineKey(i, "lineId")] = { code: "required" };
    else if (seen.has(lineId)) problems[lineKey(i, "lineId")] = { code: "lineIdDuplicate" };
    seen.add(lineId);
    if (line.productName.trim() === "") problems[lineKey(i, "productName")] = { code: "required" };
    const qty = line.qty.trim();
    if (qty === "") problems[lineKey(i, "qty")] = { code: "required" };
    else if (!/^\d{1,9}$/.test(qty) || Number(qty) < 1) problems[lineKey(i, "qty")] = { code: "qty" };
    for (const f of LINE_MONEY) {
      if (line[f].trim() === "") continue;
      const parsed = parseMoney(line[f]);
      if (!parsed.ok) problems[lineKey(i, f)] = { code: parsed.problem };
    }
  });
  return problems;
}

const money = (text: string) => {
  const parsed = parseMoney(text);
  return parsed.ok ? formatMinor(parsed.minor) : undefined;
};

/** Unit price × quantity (exact), or undefined without a valid price and quantity. */
export function computedSubtotal(line: Pick<LineForm, "priceUnit" | "qty">): string | undefined {
  const unit = parseMoney(line.priceUnit);
  const qty = line.qty.trim();
  if (!unit.ok || line.priceUnit.trim() === "" || !/^\d{1,9}$/.test(qty) || Number(qty) < 1) return undefined;
  return formatMinor(timesQty(unit.minor, Number(qty)));
}

/**
 * A line's subtotal: quantity × unit price, unless set by hand (then as typed). A subtotal typed
 * on a line without a computable price counts as set by hand. Undefined when there is neither.
 */
export function lineSubtotal(line: LineForm): string | undefined {
  const typed = line.priceSubTotal.trim() === "" ? undefined : money(line.priceSubTotal);
  const computed = computedSubtotal(line);
  if (line.subtotalByHand && typed !== undefined) return typed;
  return computed ?? typed;
}

export type OrderSums = {
  lines?: string;
  paidPlusDiscount?: string;
  totalMismatch: boolean;
  /** The lines' sum is neither the order's total (the given total, else paid + discount) nor the paid amount. */
  linesMismatch: boolean;
  /** What the lines are compared with. */
  expectedTotal?: string;
};

/**
 * What the form shows under the amounts, and what it warns about before saving: the lines' sum,
 * paid + discount, whether a given total disagrees with paid + discount (§2.4: the total includes
 * paid and discount), and whether the lines add up to the total. Warnings, not refusals: the
 * platform stores what it is sent, and a staff member may mean it (a rounding, a gift line).
 */
export function orderSums(form: OrderForm): OrderSums {
  const subtotals = form.lines.map((line) => minorOf(lineSubtotal(line)));
  const linesMinor = subtotals.length > 0 && subtotals.every((m) => m !== undefined) ? sumMinor(subtotals as bigint[]) : undefined;
  const paid = parseMoney(form.amountPaid);
  const discount = form.amountDiscount.trim() === "" ? ({ ok: true, minor: 0n } as const) : parseMoney(form.amountDiscount);
  const total = form.amountTotal.trim() === "" ? undefined : parseMoney(form.amountTotal);
  const paidPlusDiscountMinor = paid.ok && form.amountPaid.trim() !== "" && discount.ok ? paid.minor + discount.minor : undefined;
  const totalMismatch = paidPlusDiscountMinor !== undefined && total?.ok === true && total.minor !== paidPlusDiscountMinor;
  const expectedMinor = total?.ok ? total.minor : total === undefined ? paidPlusDiscountMinor : undefined;
  // Lines that add up to the paid amount pass too: some systems send subtotals after the discount.
  const linesMismatch = linesMinor !== undefined && expectedMinor !== undefined && linesMinor !== expectedMinor && linesMinor !== paidMinorOf(paid);
  return {
    lines: linesMinor === undefined ? undefined : formatMinor(linesMinor),
    paidPlusDiscount: paidPlusDiscountMinor === undefined ? undefined : formatMinor(paidPlusDiscountMinor),
    totalMismatch,
    linesMismatch,
    expectedTotal: expectedMinor === undefined ? undefined : formatMinor(expectedMinor),
  };
}

const paidMinorOf = (paid: ReturnType<typeof parseMoney>) => (paid.ok ? paid.minor : undefined);

/** True when saving should first ask "save anyway?" (the amounts do not add up). */
export const sumsNeedConfirmation = (sums: OrderSums) => sums.totalMismatch || sums.linesMismatch;

function lineBody(line: LineForm): Record<string, unknown> {
  const body: Record<string, unknown> = { ...line.extra };
  for (const f of LINE_TEXT_FIELDS) {
    const value = line[f].trim();
    if (value === "") continue;
    body[f] = f === "qty" ? Number(value) : LINE_MONEY.includes(f) ? money(value) : value;
  }
  const subtotal = lineSubtotal(line);
  if (subtotal !== undefined) body.priceSubTotal = subtotal;
  return body;
}

function headerBody(form: OrderForm): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of MONEY_FIELDS) if (form[f].trim() !== "") body[f] = money(form[f]);
  for (const f of HEADER_TEXT_FIELDS) {
    const value = form[f].trim();
    // §2.4: the coupon is spelled `counponCode` in requests.
    if (value !== "") body[f === "couponCode" ? "counponCode" : f] = value;
  }
  body.dateOrder = homeInputToUtcBody(form.dateOrder);
  return body;
}

/** §4.2 POST /v1/deals: the order, its lines, and the customer by id or by one identity. Amounts are decimal strings. */
export function createOrderInput(form: OrderForm): InputOf<"deals.create"> {
  const body: Record<string, unknown> = { orderNo: form.orderNo.trim(), ...headerBody(form), lines: form.lines.map(lineBody) };
  if (form.customerBy === "id") body.customerId = form.customerId.trim();
  else body.customerIdentities = [{ identityType: form.identityType.trim(), identityValue: form.identityValue.trim() }];
  return { body: body as InputOf<"deals.create">["body"] };
}

/**
 * §4.2 PUT /v1/deals/{orderNo}: only the changed header fields; the lines as a whole when any line
 * changed (they replace the stored lines, custom fields carried along); an emptied field is sent as
 * null. Undefined when nothing changed.
 */
export function updateOrderInput(orderNo: string, original: OrderForm, form: OrderForm): InputOf<"deals.update"> | undefined {
  const before = headerBody(original);
  const after = headerBody(form);
  const body: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) body[key] = after[key] ?? null;
  }
  if (form.customerId.trim() !== original.customerId.trim()) body.customerId = form.customerId.trim();
  const linesBefore = JSON.stringify(original.lines.map(lineBody));
  const linesAfter = form.lines.map(lineBody);
  if (JSON.stringify(linesAfter) !== linesBefore) body.lines = linesAfter;
  if (Object.keys(body).length === 0) return undefined;
  return { params: { orderNo }, body: body as InputOf<"deals.update">["body"] };
}

/** True when the form differs from where it started (the unsaved-changes guard). */
export function orderFormDirty(original: OrderForm, form: OrderForm): boolean {
  const strip = (f: OrderForm) => JSON.stringify({ ...f, lines: f.lines.map(({ key: _key, ...rest }) => rest) });
  return strip(original) !== strip(form);
}

const HEADER_KEYS = new Set<string>(["orderNo", "dateOrder", "customerId", ...HEADER_TEXT_FIELDS, ...MONEY_FIELDS]);

/**
 * Platform names (`amountPaid`, `lines[1].lineId`, `customerIdentities[0].identityValue`,
 * `counponCode`) and the proxy's (`lines.1.lineId`, `body.amountPaid`) → form field keys; the rest
 * is unplaced and shown above the form.
 */
export function placeOrderErrors(errors: { field: string; message: string }[]): PlacedErrors {
  return placeErrors(errors, (field) => {
    const name = field.replace(/\[(\d+)\]/g, ".$1");
    const line = /^lines\.(\d+)\.(\w+)$/.exec(name);
    const identity = /^customerIdentities(?:\.\d+)?\.(identityType|identityValue)$/.exec(name);
    if (line) return (LINE_TEXT_FIELDS as readonly string[]).includes(line[2]!) ? name : undefined;
    if (identity) return identity[1];
    if (name === "customerIdentities") return "identityValue";
    if (name === "counponCode") return "couponCode";
    return HEADER_KEYS.has(name) ? name : undefined;
  });
}

/** The next free line id (`1`, `2`, …) for a new line. */
export function nextLineId(lines: LineForm[]): string {
  const used = new Set(lines.map((l) => l.lineId.trim()));
  let n = lines.length + 1;
  while (used.has(String(n))) n += 1;
  return String(n);
}

/**
 * Paid follows the lines' sum until staff type their own: true while Paid is empty or equals the
 * lines' sum (a loaded order whose lines add up to what was paid keeps following).
 */
export function paidFollowsLines(form: OrderForm): boolean {
  if (form.amountPaid.trim() === "") return true;
  const lines = orderSums(form).lines;
  const paid = parseMoney(form.amountPaid);
  return lines !== undefined && paid.ok && minorOf(lines) === paid.minor;
}

/** The form with Paid set to the lines' sum, where the lines add up (else as it was). */
export function withPaidFromLines(form: OrderForm): OrderForm {
  const lines = orderSums(form).lines;
  return lines === undefined || lines === form.amountPaid ? form : { ...form, amountPaid: lines };
}
