import "server-only";
import type { Store } from "@/lib/store/database";
import type { InstallationKey } from "@/lib/store/installations";

/**
 * Shop and group creations (§4.8) as intents: recorded before the platform is asked, completed
 * after, as the refunds are (lib/orders/server-refund-store.ts). The unique (tenant, request key)
 * decides, so a second send of the same dialog's request (a double click, a retry after an error)
 * is the first one's object, and a creation the platform accepted is never lost: when the register
 * write fails after the platform answered, the intent holds the platform's id and a retry finishes it.
 */

export type ShopWriteOperation = "shop.create" | "group.create";
export type ShopWriteStatus = "sending" | "sent" | "done";
export type ShopWrite = { requestKey: string; operation: ShopWriteOperation; status: ShopWriteStatus; input: unknown; resultId?: string; answer?: unknown };

const scoped = (store: Store, key: InstallationKey, requestKey: string) =>
  store.db.updateTable("shop_write_requests").where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).where("request_key", "=", requestKey);

/** Claims a request before the platform is asked: `claimed`, or the request already made with this key. */
export async function beginShopWrite(
  store: Store,
  key: InstallationKey,
  write: { requestKey: string; operation: ShopWriteOperation; input: unknown; by?: string },
  now: number,
): Promise<{ claimed: true } | { existing: ShopWrite }> {
  const inserted = await store.db
    .insertInto("shop_write_requests")
    .values({
      open_app_id: key.openAppId,
      tenant_id: key.tenantId,
      request_key: write.requestKey,
      operation: write.operation,
      status: "sending",
      input: JSON.stringify(write.input),
      result_id: null,
      answer: null,
      requested_by: write.by?.slice(0, 512) ?? null,
      requested_at: Math.floor(now),
    })
    .onConflict((oc) => oc.columns(["open_app_id", "tenant_id", "request_key"]).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return { claimed: true };
  const row = await store.db
    .selectFrom("shop_write_requests")
    .selectAll()
    .where("open_app_id", "=", key.openAppId)
    .where("tenant_id", "=", key.tenantId)
    .where("request_key", "=", write.requestKey)
    .executeTakeFirstOrThrow();
  return {
    existing: {
      requestKey: row.request_key,
      operation: row.operation as ShopWriteOperation,
      status: row.status as ShopWriteStatus,
      input: JSON.parse(row.input) as unknown,
      resultId: row.result_id ?? undefined,
      answer: row.answer === null ? undefined : (JSON.parse(row.answer) as unknown),
    },
  };
}

/** The platform answered: its id (and what of its answer matters) is kept before the register is written. */
export async function markShopWriteSent(store: Store, key: InstallationKey, requestKey: string, resultId: string, answer: unknown): Promise<void> {
  await scoped(store, key, requestKey).set({ status: "sent", result_id: resultId, answer: JSON.stringify(answer) }).execute();
}

/** The register holds the created object. */
export async function markShopWriteDone(store: Store, key: InstallationKey, requestKey: string): Promise<void> {
  await scoped(store, key, requestKey).set({ status: "done" }).execute();
}

/** The platform refused (or was never asked): the claim is dropped, so the same request may be sent again. */
export async function abandonShopWrite(store: Store, key: InstallationKey, requestKey: string): Promise<void> {
  await store.db
    .deleteFrom("shop_write_requests")
    .where("open_app_id", "=", key.openAppId)
    .where("tenant_id", "=", key.tenantId)
    .where("request_key", "=", requestKey)
    .where("status", "=", "sending")
    .execute();
}
