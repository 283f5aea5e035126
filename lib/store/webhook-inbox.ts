import "server-only";
import type { Store } from "./database";
import type { StoreSchema } from "./schema";

export type WebhookVerification = "secret" | "basic" | "oauth2" | "none";

/** What a delivery says about its change: stored with it and shown on the Activity page. */
type DeliveryFacts = {
  deliveryId?: string;
  kind: string;
  resource?: string;
  resourceId?: string;
  action?: string;
  occurredAt?: string;
  verification: WebhookVerification;
};

/** One delivery as the receiver understood it (lib/webhooks/payload.ts). */
export type InboxDelivery = DeliveryFacts & {
  openAppId: string;
  tenantId: string;
  /** `id:<deliveryId>` or `sha256:<hex>`; unique per (openAppId, tenantId). */
  dedupeKey: string;
  /** The payload text (whitespace outside strings removed: the text that secret mode signs). */
  payload: string;
};

export type ActivityEntry = DeliveryFacts & {
  /** The inbox id: a decimal string, growing; the cursor of `activitySince`. */
  id: string;
  /** Epoch milliseconds. */
  receivedAt: number;
};

export type ActivityScope = { openAppId: string; tenantId: string };

/**
 * Stores a delivery unless one with the same dedupe key is already in the inbox of its tenant.
 * Safe under concurrency on both dialects: the unique constraint decides, `ON CONFLICT DO NOTHING`.
 */
export async function recordDelivery(store: Store, delivery: InboxDelivery, now = Date.now()): Promise<{ id: string; duplicate: boolean }> {
  const db = store.db;
  const inserted = await db
    .insertInto("webhook_inbox")
    .values({
      open_app_id: delivery.openAppId,
      tenant_id: delivery.tenantId,
      dedupe_key: delivery.dedupeKey,
      delivery_id: delivery.deliveryId ?? null,
      kind: delivery.kind,
      resource: delivery.resource ?? null,
      resource_id: delivery.resourceId ?? null,
      action: delivery.action ?? null,
      occurred_at: delivery.occurredAt ?? null,
      verification: delivery.verification,
      received_at: Math.floor(now),
      payload: delivery.payload,
    })
    .onConflict((oc) => oc.columns(["open_app_id", "tenant_id", "dedupe_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted) return { id: String(inserted.id), duplicate: false };
  const existing = await db
    .selectFrom("webhook_inbox")
    .select("id")
    .where("open_app_id", "=", delivery.openAppId)
    .where("tenant_id", "=", delivery.tenantId)
    .where("dedupe_key", "=", delivery.dedupeKey)
    .executeTakeFirstOrThrow();
  return { id: String(existing.id), duplicate: true };
}

type InboxRow = Omit<StoreSchema["webhook_inbox"], "id" | "received_at" | "payload" | "open_app_id" | "tenant_id" | "dedupe_key"> & {
  id: number | string;
  received_at: number | string;
};

const ACTIVITY_COLUMNS = ["id", "delivery_id", "kind", "resource", "resource_id", "action", "occurred_at", "verification", "received_at"] as const;

function toEntry(row: InboxRow): ActivityEntry {
  return {
    id: String(row.id),
    deliveryId: row.delivery_id ?? undefined,
    kind: row.kind,
    resource: row.resource ?? undefined,
    resourceId: row.resource_id ?? undefined,
    action: row.action ?? undefined,
    occurredAt: row.occurred_at ?? undefined,
    verification: row.verification as WebhookVerification,
    receivedAt: Number(row.received_at),
  };
}

export const MAX_ACTIVITY_PAGE = 200;

function pageSize(limit: number | undefined): number {
  return Math.min(Math.max(Math.floor(limit ?? 50), 1), MAX_ACTIVITY_PAGE);
}

/** What the Activity page narrows to: an event kind, a resource, a time range (epoch ms, received), and the page before an id. */
export type ActivityFilter = { kind?: string; resource?: string; from?: number; to?: number; before?: string };

/** The newest deliveries of one tenant of one environment, newest first, narrowed by `filter` (keyset on id). */
export async function recentActivity(store: Store, scope: ActivityScope, limit?: number, filter: ActivityFilter = {}): Promise<ActivityEntry[]> {
  let query = store.db
    .selectFrom("webhook_inbox")
    .select(ACTIVITY_COLUMNS)
    .where("open_app_id", "=", scope.openAppId)
    .where("tenant_id", "=", scope.tenantId);
  if (filter.kind) query = query.where("kind", "=", filter.kind);
  if (filter.resource) query = query.where("resource", "=", filter.resource);
  if (filter.from !== undefined) query = query.where("received_at", ">=", filter.from);
  if (filter.to !== undefined) query = query.where("received_at", "<=", filter.to);
  if (filter.before && /^\d{1,19}$/.test(filter.before)) query = query.where("id", "<", filter.before as never);
  const rows = await query.orderBy("id", "desc").limit(pageSize(limit)).execute();
  return rows.map(toEntry);
}

/** The event kinds and resources of a tenant's inbox, for the Activity page's filters. */
export async function activityFacets(store: Store, scope: ActivityScope): Promise<{ kinds: string[]; resources: string[] }> {
  const base = store.db.selectFrom("webhook_inbox").where("open_app_id", "=", scope.openAppId).where("tenant_id", "=", scope.tenantId);
  const [kinds, resources] = await Promise.all([
    base.select("kind").distinct().orderBy("kind").limit(200).execute(),
    base.select("resource").distinct().where("resource", "is not", null).orderBy("resource").limit(200).execute(),
  ]);
  return { kinds: kinds.map((r) => r.kind), resources: resources.map((r) => r.resource!).filter(Boolean) };
}

/**
 * PostgreSQL hands out `bigserial` ids before commit, so two concurrent deliveries can become visible
 * out of id order; a reader that moved its cursor past a row still committing would skip it. Rows are
 * therefore shown to `activitySince` only once they are this old. SQLite writes one at a time, in order.
 */
export const POSTGRES_SETTLE_MS = 2000;

/**
 * Deliveries of one tenant received after the inbox id `after` (a decimal string), oldest first, so a
 * client can page forward by passing the last id back. `after` omitted: starts at the newest id
 * (nothing is returned, only the cursor), so a fresh page learns where "now" is.
 */
export async function activitySince(
  store: Store,
  scope: ActivityScope,
  after: string | undefined,
  options: { limit?: number; now?: number } = {},
): Promise<{ entries: ActivityEntry[]; cursor: string }> {
  if (after !== undefined && !/^\d{1,15}$/.test(after)) throw new RangeError("after must be an inbox id (decimal digits)");
  const settledBefore = (options.now ?? Date.now()) - (store.dialect === "postgres" ? POSTGRES_SETTLE_MS : 0);
  const base = store.db
    .selectFrom("webhook_inbox")
    .where("open_app_id", "=", scope.openAppId)
    .where("tenant_id", "=", scope.tenantId)
    .where("received_at", "<=", settledBefore);
  if (after === undefined) {
    const newest = await base.select("id").orderBy("id", "desc").limit(1).executeTakeFirst();
    return { entries: [], cursor: newest ? String(newest.id) : "0" };
  }
  const rows = await base
    .select(ACTIVITY_COLUMNS)
    .where("id", ">", Number(after))
    .orderBy("id", "asc")
    .limit(pageSize(options.limit))
    .execute();
  const entries = rows.map(toEntry);
  return { entries, cursor: entries.at(-1)?.id ?? after };
}

/** The stored payload text of one delivery of a tenant (for a detail view), or undefined. */
export async function deliveryPayload(store: Store, scope: ActivityScope, id: string): Promise<string | undefined> {
  if (!/^\d{1,15}$/.test(id)) return undefined;
  const row = await store.db
    .selectFrom("webhook_inbox")
    .select("payload")
    .where("open_app_id", "=", scope.openAppId)
    .where("tenant_id", "=", scope.tenantId)
    .where("id", "=", Number(id))
    .executeTakeFirst();
  return row?.payload;
}

/** How long deliveries are kept (and so how long a redelivery is recognised as a duplicate). */
export const INBOX_RETENTION_DAYS = 90;

/** Deletes deliveries received before `before` (epoch ms); returns how many went. */
export async function pruneWebhookInbox(store: Store, before: number): Promise<number> {
  const result = await store.db.deleteFrom("webhook_inbox").where("received_at", "<", Math.floor(before)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
