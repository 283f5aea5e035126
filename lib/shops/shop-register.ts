import "server-only";
import { sql, type Selectable } from "kysely";
import type { Store } from "@/lib/store/database";
import type { StoreSchema } from "@/lib/store/schema";
import { inWriteOrder } from "@/lib/store/write-order";
import type { InstallationKey } from "@/lib/store/installations";
import type { ShopQuery } from "./shop-list-query";
import { MAX_REGISTER_PAGE, type NamedShopId, type RegisteredShop, type RememberedGroup, type ShopSource } from "./shops-api";

/**
 * The per-tenant register of shops and the groups the app knows (§4.8 has no shop list and no read
 * by id; a group read returns its shops). Every query is scoped by the installation
 * (openAppId + tenantId). `sid` is unique per tenant: a shop returned by the platform takes its sid
 * from any other row of the register (that row's shop was replaced behind the app's back).
 */

/** What a platform answer says of a shop (§2.8; ids as strings). */
export type PlatformShop = {
  id: string;
  sid?: unknown;
  businessName?: unknown;
  branchName?: unknown;
  shopName?: unknown;
  shopStatus?: unknown;
  refuseReason?: unknown;
  shopInfoAll?: unknown;
};

const text = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : typeof v === "number" || typeof v === "bigint" ? String(v) : null);
const num = (v: unknown): number => (typeof v === "number" ? v : Number(v));
const scope = (key: InstallationKey) => ({ open_app_id: key.openAppId, tenant_id: key.tenantId });

/** A register row as read (bigint columns come back as numbers or strings, schema.ts). */
type ShopRow = Omit<Selectable<StoreSchema["shop_register"]>, "open_app_id" | "tenant_id">;

const toShop = (r: ShopRow): RegisteredShop => ({
  id: r.shop_id,
  sid: r.sid,
  businessName: r.business_name,
  branchName: r.branch_name,
  shopName: r.shop_name,
  shopStatus: r.shop_status,
  refuseReason: r.refuse_reason,
  shopInfoAll: r.shop_info_all,
  source: r.source as ShopSource,
  seenAt: r.seen_at === null ? null : num(r.seen_at),
  updatedAt: num(r.updated_at),
});

/** The fields of a shop as the platform returned it; `shopInfoAll`'s base_info fills what the record lacks. */
function fieldsOf(shop: PlatformShop) {
  let info: Record<string, unknown> = {};
  const all = text(shop.shopInfoAll);
  try {
    info = (all ? (JSON.parse(all) as { business?: { base_info?: Record<string, unknown> } }).business?.base_info : undefined) ?? {};
  } catch {
    info = {};
  }
  return {
    sid: text(shop.sid) ?? text(info.sid),
    business_name: text(shop.businessName) ?? text(info.business_name),
    branch_name: text(shop.branchName) ?? text(info.branch_name),
    shop_name: text(shop.shopName),
    shop_status: text(shop.shopStatus),
    refuse_reason: text(shop.refuseReason),
    shop_info_all: all,
  };
}

/**
 * Records shops the platform returned (`source`: how; an existing row keeps how it was first
 * learned, except a shop added by id, which now has been seen). Fields the answer lacks are kept.
 */
export async function recordShops(store: Store, key: InstallationKey, shops: readonly PlatformShop[], source: Exclude<ShopSource, "manual">, now: number): Promise<void> {
  if (shops.length === 0) return;
  // Concurrent writers (two tabs, two processes) of the same ids: one row each, locks in one order.
  const ordered = inWriteOrder(shops);
  await store.db.transaction().execute(async (tx) => {
    for (const shop of ordered) {
      const fields = fieldsOf(shop);
      // The platform is the truth for sids: another row holding this sid is a shop that no longer has it.
      if (fields.sid) await tx.updateTable("shop_register").set({ sid: null }).where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).where("sid", "=", fields.sid).where("shop_id", "<>", shop.id).execute();
      // The first write of a shop id is an upsert: a concurrent first write of the same id waits, then updates.
      const inserted = await tx
        .insertInto("shop_register")
        .values({ ...scope(key), shop_id: shop.id, ...fields, source, seen_at: now, updated_at: now })
        .onConflict((oc) => oc.columns(["open_app_id", "tenant_id", "shop_id"]).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) continue;
      const existing = await tx.selectFrom("shop_register").select(["source", "shop_status", "refuse_reason", "shop_info_all", "shop_name"]).where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).where("shop_id", "=", shop.id).executeTakeFirstOrThrow();
      await tx
        .updateTable("shop_register")
        .set({
          ...fields,
          shop_name: fields.shop_name ?? existing.shop_name,
          shop_status: fields.shop_status ?? existing.shop_status,
          refuse_reason: fields.shop_status ? fields.refuse_reason : existing.refuse_reason,
          shop_info_all: fields.shop_info_all ?? existing.shop_info_all,
          source: existing.source === "manual" ? source : existing.source,
          seen_at: now,
          updated_at: now,
        })
        .where("open_app_id", "=", key.openAppId)
        .where("tenant_id", "=", key.tenantId)
        .where("shop_id", "=", shop.id)
        .execute();
    }
  });
}

/** Adds a shop id staff typed (nothing else is known of it until a group read returns it). */
export async function addKnownShop(store: Store, key: InstallationKey, id: string, now: number): Promise<{ shop: RegisteredShop; added: boolean }> {
  const inserted = await store.db
    .insertInto("shop_register")
    .values({ ...scope(key), shop_id: id, sid: null, business_name: null, branch_name: null, shop_name: null, shop_status: null, refuse_reason: null, shop_info_all: null, source: "manual", seen_at: null, updated_at: now })
    .onConflict((oc) => oc.columns(["open_app_id", "tenant_id", "shop_id"]).doNothing())
    .executeTakeFirst();
  return { shop: (await getShop(store, key, id))!, added: Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 };
}

export async function getShop(store: Store, key: InstallationKey, id: string): Promise<RegisteredShop | undefined> {
  const row = await store.db.selectFrom("shop_register").selectAll().where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).where("shop_id", "=", id).executeTakeFirst();
  return row ? toShop(row as ShopRow) : undefined;
}

/** The register's shop holding `sid`, other than `exceptId`. */
export async function shopWithSid(store: Store, key: InstallationKey, sid: string, exceptId?: string): Promise<RegisteredShop | undefined> {
  let query = store.db.selectFrom("shop_register").selectAll().where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).where("sid", "=", sid);
  if (exceptId) query = query.where("shop_id", "<>", exceptId);
  const row = await query.executeTakeFirst();
  return row ? toShop(row as ShopRow) : undefined;
}

export async function removeShop(store: Store, key: InstallationKey, id: string): Promise<void> {
  await store.db.deleteFrom("shop_register").where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).where("shop_id", "=", id).execute();
}

const SORT_COLUMN = { updated: "updated_at", name: "shop_name", sid: "sid", id: "shop_id" } as const;

/** Escapes LIKE's wildcards in what staff type (`\` is the escape character on both dialects). */
const likeText = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The register filtered (`q` in id, sid, names; `state`), sorted, at most MAX_REGISTER_PAGE rows. */
export async function listShops(store: Store, key: InstallationKey, query: ShopQuery = {}): Promise<{ shops: RegisteredShop[]; total: number }> {
  let base = store.db.selectFrom("shop_register").where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId);
  const q = query.q?.trim();
  if (q) {
    const like = likeText(q);
    base = base.where((eb) =>
      eb.or(
        (["shop_id", "sid", "shop_name", "business_name", "branch_name"] as const).map((column) => eb(sql`lower(coalesce(${sql.ref(column)}, ''))`, "like", sql`${like} escape '\\'`)),
      ),
    );
  }
  if (query.state === "seen") base = base.where("seen_at", "is not", null);
  if (query.state === "unseen") base = base.where("seen_at", "is", null);
  const order = query.order === "asc" ? "asc" : "desc";
  const sort = query.sort ?? "updated";
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      // Ids are decimal strings: by length, then text, is numeric order (no cast, portable).
      .$call((qb) => (sort === "id" ? qb.orderBy(sql`length(shop_id)`, order).orderBy("shop_id", order) : qb.orderBy(SORT_COLUMN[sort], order).orderBy("shop_id", order)))
      .limit(MAX_REGISTER_PAGE)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { shops: (rows as ShopRow[]).map(toShop), total: num(count.n) };
}

/** The names the register knows of these ids (null where none), in the given order. */
export async function namesOf(store: Store, key: InstallationKey, ids: readonly string[]): Promise<NamedShopId[]> {
  if (ids.length === 0) return [];
  const rows = await store.db
    .selectFrom("shop_register")
    .select(["shop_id", "shop_name", "business_name", "branch_name"])
    .where("open_app_id", "=", key.openAppId)
    .where("tenant_id", "=", key.tenantId)
    .where("shop_id", "in", [...ids])
    .execute();
  const byId = new Map(rows.map((r) => [r.shop_id, r.shop_name ?? ([r.business_name, r.branch_name].filter(Boolean).join(" ") || null)]));
  return ids.map((id) => ({ id, name: byId.get(id) ?? null }));
}

// ── groups ──────────────────────────────────────────────────────────────────────────────────────

type GroupRow = { group_id: string; name: string | null; remark: string | null; origin: string; created_by_name: string | null; shop_count: number | string | null; created_at: number | string; read_at: number | string | null };

const toGroup = (r: GroupRow): RememberedGroup => ({
  id: r.group_id,
  name: r.name,
  remark: r.remark,
  origin: r.origin as RememberedGroup["origin"],
  createdByName: r.created_by_name,
  shopCount: r.shop_count === null ? null : num(r.shop_count),
  createdAt: num(r.created_at),
  readAt: r.read_at === null ? null : num(r.read_at),
});

export async function getGroup(store: Store, key: InstallationKey, id: string): Promise<RememberedGroup | undefined> {
  const row = await store.db.selectFrom("shop_groups").selectAll().where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).where("group_id", "=", id).executeTakeFirst();
  return row ? toGroup(row as GroupRow) : undefined;
}

/** Remembers a group the app created, with what the platform answered (§4.8 `success` / `failed`). */
export async function rememberCreatedGroup(
  store: Store,
  key: InstallationKey,
  group: { id: string; name: string; remark: string; createdByName: string; added: string[]; failed: string[] },
  now: number,
): Promise<RememberedGroup> {
  await store.db
    .insertInto("shop_groups")
    .values({ ...scope(key), group_id: group.id, name: group.name, remark: group.remark, origin: "created", created_by_name: group.createdByName, added_ids: JSON.stringify(group.added), failed_ids: JSON.stringify(group.failed), shop_count: group.added.length, created_at: now, read_at: null })
    .onConflict((oc) => oc.columns(["open_app_id", "tenant_id", "group_id"]).doNothing())
    .execute();
  return (await getGroup(store, key, group.id))!;
}

/** A group read: remembered (as `opened` when the app did not create it) with its shop count. */
export async function rememberReadGroup(store: Store, key: InstallationKey, id: string, shopCount: number, now: number): Promise<RememberedGroup> {
  await store.db
    .insertInto("shop_groups")
    .values({ ...scope(key), group_id: id, name: null, remark: null, origin: "opened", created_by_name: null, added_ids: null, failed_ids: null, shop_count: shopCount, created_at: now, read_at: now })
    .onConflict((oc) => oc.columns(["open_app_id", "tenant_id", "group_id"]).doUpdateSet({ shop_count: shopCount, read_at: now }))
    .execute();
  return (await getGroup(store, key, id))!;
}

export async function listGroups(store: Store, key: InstallationKey): Promise<RememberedGroup[]> {
  const rows = await store.db.selectFrom("shop_groups").selectAll().where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).orderBy("created_at", "desc").orderBy("group_id", "desc").limit(MAX_REGISTER_PAGE).execute();
  return (rows as GroupRow[]).map(toGroup);
}
