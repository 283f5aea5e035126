/**
 * Order `state` values (§3: `已付款` paid, returned by detail-by-order-number; `已取消` cancelled,
 * returned by cancel) and the refund `state` values a refund request carries (§4.2: `完全退单` full,
 * `部分退单` partial), as translated labels with a one-line meaning. Any other value is shown as it
 * came: the spec does not list every state (§3 "Other moves … not shown").
 */

export const ORDER_STATES = { "已付款": "paid", "已取消": "cancelled", "完全退单": "refundFull", "部分退单": "refundPartial" } as const;
export type OrderStateKind = (typeof ORDER_STATES)[keyof typeof ORDER_STATES];

export type OrderStateView = { kind: OrderStateKind; raw: string } | { kind: "unknown"; raw: string } | { kind: "none"; raw: "" };

export function orderStateView(state: unknown): OrderStateView {
  if (typeof state !== "string" || state.trim() === "") return { kind: "none", raw: "" };
  const raw = state.trim();
  const kind = (ORDER_STATES as Record<string, OrderStateKind>)[raw];
  return kind ? { kind, raw } : { kind: "unknown", raw };
}

/** The message keys of a known state: `orders.state.<kind>` (label) and `orders.state.<kind>.meaning`. */
export function stateMessageKeys(kind: OrderStateKind): { label: `orders.state.${OrderStateKind}`; meaning: `orders.state.${OrderStateKind}.meaning` } {
  return { label: `orders.state.${kind}`, meaning: `orders.state.${kind}.meaning` };
}

/** §3: a cancelled order is not cancelled again (the console hides the action; the platform is not asked). */
export function canCancel(state: unknown): boolean {
  return orderStateView(state).kind !== "cancelled";
}

/**
 * The state of an order in a list row, without a read per row (a read per row was 20 detail reads per page).
 * §4.2's list does not promise `state` (§2.4: cancel and detail-by-order-number return it), so: the
 * row's own `state` when the platform sends one; else a row with a `cancelDate` was cancelled (cancel
 * stamps it, §3); else the order is paid (`dateOrder` is the payment completion time, §2.4, and
 * `已付款` is the state orders have once created, §3).
 */
export function listedOrderState(row: { state?: unknown; cancelDate?: unknown }): string {
  if (typeof row.state === "string" && row.state.trim() !== "") return row.state.trim();
  if (typeof row.cancelDate === "string" && row.cancelDate.trim() !== "") return "已取消";
  return "已付款";
}
