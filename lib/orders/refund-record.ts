/**
 * A refund as this console recorded it (docs/decisions/refunds-recorded-by-the-app.md), shared by the store, the route and the
 * order page. §4.2 has no read of refunds: the platform's answer to the refund call is the only time
 * it tells about one, so the app keeps it, for every staff member of the tenant.
 */
export type RefundRecord = {
  id: string;
  orderNo: string;
  /** `sending`: asked, no answer yet; `recorded`: the platform answered; `deleted`: deleteRefund answered. */
  status: "sending" | "recorded" | "deleted";
  /** §4.2 refund `state`: 完全退单 (full) or 部分退单 (partial). */
  refundState: string;
  /** Decimal text. */
  refundTotal?: string;
  reason?: string;
  lineIds: string[];
  /** The platform's `dateRefund` (UTC `…Z`), when it answered one. */
  dateRefund?: string;
  recordedBy?: string;
  /** Epoch milliseconds. */
  recordedAt: number;
  deletedBy?: string;
  deletedAt?: number;
};

/** `GET /api/orders/refunds?orderNo=…`: the records of each asked order number, newest first. */
export type RefundsAnswer = { refunds: Record<string, RefundRecord[]> };

/** At most this many order numbers per `GET /api/orders/refunds` (a page of the orders list is at most 100). */
export const MAX_REFUND_ORDERS = 100;

/** The refunds that still stand (not deleted, not still waiting for the platform). */
export const standingRefunds = (records: readonly RefundRecord[] | undefined) => (records ?? []).filter((r) => r.status === "recorded");
