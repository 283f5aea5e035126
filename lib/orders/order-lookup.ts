import { ApiError } from "@/lib/http/api-error";
import { minorOf, formatMinor } from "./money";

/**
 * The look-up of a new order's number before it is created (docs/decisions/order-number-looked-up-before-create.md): §4.2's create
 * replaces an order of the same number and discards the earlier data, so the console reads the
 * number first (§4.2 getDealByOrderNo) and asks before replacing. The read sees the last month only
 * (§2.4), so an older order is still replaced unseen; the form says so.
 */
export type OrderLookup =
  | { kind: "free" }
  | { kind: "exists"; order: Record<string, unknown> }
  | { kind: "failed"; error: unknown };

/** A 404 means the number is free; any other failure means "unknown", and nothing is created. */
export async function lookupOrderNo(read: (orderNo: string) => Promise<unknown>, orderNo: string): Promise<OrderLookup> {
  try {
    const order = await read(orderNo);
    // The real platform may answer an unknown number with an empty body or an order without its number.
    if (order === null || typeof order !== "object" || Array.isArray(order)) return { kind: "free" };
    const found = order as Record<string, unknown>;
    if (found.orderNo === undefined || found.orderNo === null || String(found.orderNo) === "") return { kind: "free" };
    return { kind: "exists", order: found };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { kind: "free" };
    return { kind: "failed", error };
  }
}

/** What replacing an order discards, as the dialog lists it. */
export type ReplaceLoss = { customerId?: string; amountPaid?: string; dateOrder?: string; lineCount: number; state?: string; currency?: string };

export function replaceLoss(order: Record<string, unknown>): ReplaceLoss {
  const customer = order.customerIdStr ?? order.customerId;
  const paid = minorOf(order.amountPaid);
  return {
    customerId: customer === undefined || customer === null || customer === "" ? undefined : String(customer),
    amountPaid: paid === undefined ? undefined : formatMinor(paid),
    dateOrder: typeof order.dateOrder === "string" ? order.dateOrder : undefined,
    lineCount: Array.isArray(order.lines) ? order.lines.length : 0,
    state: typeof order.state === "string" && order.state !== "" ? order.state : undefined,
    currency: typeof order.currency === "string" && order.currency !== "" ? order.currency : undefined,
  };
}
