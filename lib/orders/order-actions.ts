import { placeErrors, type PlacedErrors } from "@/lib/forms/field-errors";
import type { InputOf } from "@/lib/platform/operations";
import { formatMinor, minorOf, parseMoney, sumMinor, type MoneyProblem } from "./money";
import { homeInputToUtcBody } from "./order-form";

/**
 * Cancel and refund of an order (§4.2 dealService/cancel and /refund, §3) as pure functions:
 * the choices of the confirmation dialogs → the request, and the money rules (a refund gives back
 * at most what was paid; amounts as decimal strings, compared in minor units).
 */

/** §4.2: the refund `state` values. */
export const REFUND_STATE = { full: "完全退单", partial: "部分退单" } as const;
export type RefundKind = keyof typeof REFUND_STATE;

type OrderLike = { orderNo?: unknown; amountPaid?: unknown; lines?: unknown };
type LineLike = { lineId?: unknown; priceSubPaid?: unknown; priceSubTotal?: unknown };

export function orderLines(order: OrderLike): LineLike[] {
  return Array.isArray(order.lines) ? (order.lines as LineLike[]) : [];
}

/** What refunding a line gives back by default: its paid subtotal, else its subtotal. */
export function lineRefundMinor(line: LineLike): bigint | undefined {
  return minorOf(line.priceSubPaid) ?? minorOf(line.priceSubTotal);
}

/**
 * The amount the dialog proposes: everything paid for a full refund; for a partial one the chosen
 * lines' amounts, never more than was paid. "" when it cannot be computed exactly.
 */
export function defaultRefundAmount(order: OrderLike, kind: RefundKind, lineIds: readonly string[]): string {
  const paid = minorOf(order.amountPaid);
  if (kind === "full") return paid === undefined ? "" : formatMinor(paid);
  const chosen = orderLines(order).filter((l) => lineIds.includes(String(l.lineId)));
  const amounts = chosen.map(lineRefundMinor);
  if (chosen.length === 0 || amounts.some((a) => a === undefined)) return "";
  const sum = sumMinor(amounts as bigint[]);
  return formatMinor(paid !== undefined && sum > paid ? paid : sum);
}

export type RefundChoice = { kind: RefundKind; lineIds: string[]; amount: string; reason: string };
export type RefundProblem = { code: "required" | "zero" | "overPaid" | "linesRequired" | MoneyProblem; paid?: string };

export function validateRefund(order: OrderLike, choice: RefundChoice): Record<"amount" | "lines", RefundProblem | undefined> {
  const out: Record<"amount" | "lines", RefundProblem | undefined> = { amount: undefined, lines: undefined };
  if (choice.kind === "partial" && choice.lineIds.length === 0) out.lines = { code: "linesRequired" };
  if (choice.amount.trim() === "") out.amount = { code: "required" };
  else {
    const parsed = parseMoney(choice.amount);
    const paid = minorOf(order.amountPaid);
    if (!parsed.ok) out.amount = { code: parsed.problem };
    else if (parsed.minor === 0n) out.amount = { code: "zero" };
    else if (paid !== undefined && parsed.minor > paid) out.amount = { code: "overPaid", paid: formatMinor(paid) };
  }
  return out;
}

/** §4.2 refund body: `state` 完全退单 or 部分退单, the lines as `{lineId}`, the amount as a decimal string. */
export function refundInput(order: OrderLike, choice: RefundChoice): InputOf<"deals.refund"> {
  const lineIds = choice.kind === "full" ? orderLines(order).map((l) => String(l.lineId)) : choice.lineIds;
  const parsed = parseMoney(choice.amount);
  // The amount travels as a decimal string; the proxy's `decimal` schema writes it as a JSON number.
  const body: Record<string, unknown> = {
    orderNo: String(order.orderNo),
    state: REFUND_STATE[choice.kind],
    refundLines: lineIds.map((lineId) => ({ lineId })),
    refundTotal: parsed.ok ? formatMinor(parsed.minor) : choice.amount,
  };
  if (choice.reason.trim()) body.reason = choice.reason.trim();
  return { body: body as InputOf<"deals.refund">["body"] };
}

/** §4.2 cancel body; the optional date is typed in UTC+8 and sent in UTC (§2), else the platform's default (§3). */
export function cancelInput(orderNo: string, date: string): { input?: InputOf<"deals.cancel">; problem?: "dateOrder" } {
  if (date.trim() === "") return { input: { body: { orderNo } } };
  const cancelDate = homeInputToUtcBody(date);
  return cancelDate ? { input: { body: { orderNo, cancelDate } } } : { problem: "dateOrder" };
}

/** The platform's refund field errors (`refundLines`, `refundLines[0].lineId`, `refundTotal`, proxy `body.…`) → the dialog's fields. */
export function placeRefundErrors(errors: { field: string; message: string }[]): PlacedErrors {
  return placeErrors(errors, (name) => {
    const head = name.split(/[.[]/)[0]!;
    return head === "refundLines" || head === "refundTotal" ? head : undefined;
  });
}
