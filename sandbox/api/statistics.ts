import type { SandboxDb } from "../db";
import { utc, type Json } from "./common";

const DAY_MS = 86_400_000;

/**
 * §2.7 customer statistics, computed from the customer's orders and events. The spec does not give
 * the meaning of every field; the sandbox's reading is in sandbox/README.md.
 */
export function customerStatistics(db: SandboxDb, tenant: number, customerId: bigint, nowMs: number): Json {
  const orders = db
    .prepare(
      `SELECT count(*) AS n, coalesce(sum(amount_paid), 0) AS paid, min(date_order) AS first, max(date_order) AS last,
              max(last_updated) AS updated
       FROM deals WHERE tenant_id = ? AND customer_id = ? AND state != '已取消'`,
    )
    .get(tenant, customerId) as { n: number; paid: number; first: number | null; last: number | null; updated: number | null };
  const scores = db
    .prepare(
      `SELECT coalesce(sum(score), 0) AS total, coalesce(sum(CASE WHEN date >= ? THEN score ELSE 0 END), 0) AS recent, max(last_updated) AS updated
       FROM customer_events WHERE tenant_id = ? AND customer_id = ?`,
    )
    .get(nowMs - 30 * DAY_MS, tenant, customerId) as { total: number; recent: number; updated: number | null };
  const round = (n: number) => Math.round(n * 100) / 100;
  const average = orders.n > 0 ? round(orders.paid / orders.n) : 0;
  const updated = Math.max(orders.updated ?? 0, scores.updated ?? 0);
  return {
    id: customerId,
    customerId,
    firstOrderDate: utc(orders.first),
    lastOrderDate: utc(orders.last),
    lastOrderDays: orders.last === null ? null : Math.floor((nowMs - orders.last) / DAY_MS),
    lastUpdated: updated > 0 ? utc(updated) : null,
    latest30daysScore: scores.recent,
    orderAMT: round(orders.paid),
    orderAMTA: average,
    orderAPCT: average,
    orderTotal: orders.n,
    orderTotalAmount: round(orders.paid),
    totalScore: scores.total,
  };
}
