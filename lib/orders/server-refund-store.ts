import "server-only";
import type { Store } from "@/lib/store/database";
import type { StoreSchema } from "@/lib/store/schema";
import { decimalText } from "./money";
import type { RefundRecord } from "./refund-record";

/** One tenant of one environment: refunds are never shown across tenants. */
export type RefundScope = { openAppId: string; tenantId: string };

type Row = Omit<StoreSchema["order_refunds"], "id" | "recorded_at" | "deleted_at"> & { id: number | string; recorded_at: number | string; deleted_at: number | string | null };

function toRecord(row: Row): RefundRecord {
  let dateRefund: string | undefined;
  if (row.answer) {
    try {
      const answer = JSON.parse(row.answer) as { dateRefund?: unknown };
      if (typeof answer.dateRefund === "string") dateRefund = answer.dateRefund;
    } catch {
      // A stored answer is the platform's JSON; a broken one only loses the date.
    }
  }
  let lineIds: string[] = [];
  try {
    const parsed = JSON.parse(row.line_ids) as unknown;
    if (Array.isArray(parsed)) lineIds = parsed.map(String);
  } catch {
    lineIds = [];
  }
  return {
    id: String(row.id),
    orderNo: row.order_no,
    status: row.status as RefundRecord["status"],
    refundState: row.refund_state,
    refundTotal: row.refund_total ?? undefined,
    reason: row.reason ?? undefined,
    lineIds,
    dateRefund,
    recordedBy: row.recorded_by ?? undefined,
    recordedAt: Number(row.recorded_at),
    deletedBy: row.deleted_by ?? undefined,
    deletedAt: row.deleted_at === null ? undefined : Number(row.deleted_at),
  };
}

export type RefundRequestFacts = { orderNo: string; requestKey: string; refundState: string; refundTotal?: string; reason?: string; lineIds: string[]; by?: string };

/**
 * Claims a refund request before the platform is asked: the unique (tenant, request key) decides,
 * so a second send of the same request (a double click, a retry) gets the first one's record and
 * the platform is asked once.
 */
export async function beginRefund(store: Store, scope: RefundScope, facts: RefundRequestFacts, now = Date.now()): Promise<{ id: string } | { existing: RefundRecord }> {
  const inserted = await store.db
    .insertInto("order_refunds")
    .values({
      open_app_id: scope.openAppId,
      tenant_id: scope.tenantId,
      order_no: facts.orderNo,
      request_key: facts.requestKey,
      status: "sending",
      refund_state: facts.refundState,
      refund_total: facts.refundTotal ?? null,
      reason: facts.reason ?? null,
      line_ids: JSON.stringify(facts.lineIds),
      answer: null,
      recorded_by: facts.by ?? null,
      recorded_at: Math.floor(now),
      deleted_by: null,
      deleted_at: null,
    })
    .onConflict((oc) => oc.columns(["open_app_id", "tenant_id", "request_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted) return { id: String(inserted.id) };
  const existing = await store.db
    .selectFrom("order_refunds")
    .selectAll()
    .where("open_app_id", "=", scope.openAppId)
    .where("tenant_id", "=", scope.tenantId)
    .where("request_key", "=", facts.requestKey)
    .executeTakeFirstOrThrow();
  return { existing: toRecord(existing as Row) };
}

/** The platform answered the refund: its record is kept, and its amount (when it gives one) wins. */
export async function completeRefund(store: Store, id: string, answer: Record<string, unknown>): Promise<RefundRecord> {
  const total = decimalText(answer.refundTotal);
  await store.db
    .updateTable("order_refunds")
    .set({ status: "recorded", answer: JSON.stringify(answer), ...(total !== undefined ? { refund_total: total } : {}) })
    .where("id", "=", id)
    .execute();
  const row = await store.db.selectFrom("order_refunds").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  return toRecord(row as Row);
}

/** The platform refused the refund: the claim is dropped, so the same request may be sent again. */
export async function abandonRefund(store: Store, id: string): Promise<void> {
  await store.db.deleteFrom("order_refunds").where("id", "=", id).where("status", "=", "sending").execute();
}

/** deleteRefund answered (§4.2 removes the order's refunds): every standing record of the order is marked deleted. */
export async function markRefundsDeleted(store: Store, scope: RefundScope, orderNo: string, by: string | undefined, now = Date.now()): Promise<number> {
  const result = await store.db
    .updateTable("order_refunds")
    .set({ status: "deleted", deleted_by: by ?? null, deleted_at: Math.floor(now) })
    .where("open_app_id", "=", scope.openAppId)
    .where("tenant_id", "=", scope.tenantId)
    .where("order_no", "=", orderNo)
    .where("status", "=", "recorded")
    .executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0);
}

/** The records of these order numbers in the tenant, newest first per order (numbers without any are left out). */
export async function refundsOf(store: Store, scope: RefundScope, orderNos: readonly string[]): Promise<Record<string, RefundRecord[]>> {
  if (orderNos.length === 0) return {};
  const rows = await store.db
    .selectFrom("order_refunds")
    .selectAll()
    .where("open_app_id", "=", scope.openAppId)
    .where("tenant_id", "=", scope.tenantId)
    .where("order_no", "in", [...new Set(orderNos)])
    .orderBy("id", "desc")
    .execute();
  const out: Record<string, RefundRecord[]> = {};
  for (const row of rows) (out[row.order_no] ??= []).push(toRecord(row as Row));
  return out;
}
