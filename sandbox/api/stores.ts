import { sendJson } from "../http";
import { nextId } from "../ids";
import { handle, handleBody, isObject, parseId, readObject, utc, type ApiContext, type Json, type ResourceRoutes } from "./common";

/** §4.8 required fields of `shopInfoAll.business.base_info`. */
export const REQUIRED_BASE_INFO = ["sid", "telephone", "business_name", "branch_name", "province", "city", "district", "address", "categories", "longitude", "latitude"] as const;

type StoreRow = {
  id: bigint; sid: string; branch_name: string; shop_name: string; business_name: string; owner_id: bigint | null; owner_name: string | null;
  shop_info_all: string; meta: string | null; remark: string | null; date_created: bigint; last_updated: bigint;
};
type GroupRow = { id: bigint; name: string; remark: string; creator_id: bigint | null; creator_name: string | null; date_created: bigint; last_updated: bigint };
const STORE_COLUMNS = "id, sid, branch_name, shop_name, business_name, owner_id, owner_name, shop_info_all, meta, remark, date_created, last_updated";

/** §7.5: store operations answer `{error: {code, message}}` (HTTP 200) on failure. */
function storeError(c: ApiContext, code: string, message: string): Response {
  return sendJson(c, { error: { code, message } });
}
const storeBadBody = (c: ApiContext) => storeError(c, "400", "the request body must be a JSON object");

/** Parses and checks `shopInfoAll` (§4.8); returns the base info or the reason it is refused. */
export function parseShopInfo(raw: unknown): { baseInfo?: Json; error?: string } {
  if (typeof raw !== "string" || raw.trim() === "") return { error: "shopInfoAll is required: a string holding JSON" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { error: "shopInfoAll is not valid JSON" };
  }
  if (!isObject(parsed) || !isObject(parsed.business)) return { error: "shopInfoAll.business is required" };
  const info = parsed.business.base_info;
  if (!isObject(info)) return { error: "shopInfoAll.business.base_info is required" };
  for (const f of REQUIRED_BASE_INFO) {
    const v = info[f];
    if (v === undefined || v === null || v === "") return { error: `shopInfoAll.business.base_info.${f} is required` };
  }
  if (typeof info.sid !== "string") return { error: "shopInfoAll.business.base_info.sid must be a string" };
  if (!Array.isArray(info.categories) || info.categories.length === 0 || info.categories.some((x) => typeof x !== "string")) {
    return { error: "shopInfoAll.business.base_info.categories must be a non-empty array of strings" };
  }
  for (const f of ["longitude", "latitude", "avg_price"] as const) {
    const v = info[f];
    if (v !== undefined && v !== null && !(typeof v === "number" || (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v)))) {
      return { error: `shopInfoAll.business.base_info.${f} must be a number` };
    }
  }
  if (info.photo_list !== undefined && (!Array.isArray(info.photo_list) || info.photo_list.some((p) => !isObject(p) || typeof p.photo_url !== "string"))) {
    return { error: "shopInfoAll.business.base_info.photo_list must be an array of {photo_url}" };
  }
  if (info.offset_type !== undefined && !Number.isInteger(info.offset_type)) return { error: "shopInfoAll.business.base_info.offset_type must be an integer" };
  return { baseInfo: info };
}

function toShop(r: StoreRow): Json {
  return {
    id: r.id,
    sid: r.sid,
    branchName: r.branch_name,
    shopName: r.shop_name,
    ownerId: r.owner_id,
    dateCreated: utc(r.date_created),
    lastUpdated: utc(r.last_updated),
    meta: r.meta,
    messengerAppid: null,
    shopStatus: "1",
    refuseReason: null,
    ownerName: r.owner_name,
    messengerAccount: null,
    poiId: null,
    shopInfoAll: r.shop_info_all,
    businessName: r.business_name,
    remark: r.remark,
  };
}

const toGroup = (g: GroupRow): Json => ({
  id: g.id,
  dateCreated: utc(g.date_created),
  creatorId: g.creator_id,
  lastUpdated: utc(g.last_updated),
  name: g.name,
  remark: g.remark,
  creatorName: g.creator_name,
});

export const storeRoutes: ResourceRoutes = (app, ctx, publish) => {
  const db = ctx.db;
  const getStore = (tenant: number, id: bigint | null) =>
    id === null ? undefined : (db.prepare(`SELECT ${STORE_COLUMNS} FROM stores WHERE id = ? AND tenant_id = ?`).safeIntegers(true).get(id, tenant) as StoreRow | undefined);
  const staffName = (userId: number) => (db.prepare("SELECT name FROM staff WHERE id = ?").get(userId) as { name: string } | undefined)?.name ?? null;

  // The real platform keeps a tenant's shop codes unique (sandbox/README.md); §4.8 does not say.
  const sidHolder = (tenant: number, sid: string, except?: bigint) =>
    db.prepare("SELECT id FROM stores WHERE tenant_id = ? AND sid = ? AND id <> ?").safeIntegers(true).get(tenant, sid, except ?? -1n) as { id: bigint } | undefined;
  const sidTaken = (c: ApiContext, sid: string, holder: bigint) => storeError(c, "400", `shopInfoAll.business.base_info.sid ${sid} is already used by store ${holder}`);

  function columns(info: Json, shopInfoAll: string) {
    return {
      sid: info.sid as string,
      branchName: String(info.branch_name),
      shopName: `${String(info.business_name)}(${String(info.branch_name)})`,
      businessName: String(info.business_name),
      meta: JSON.stringify({ categories: info.categories }),
      shopInfoAll,
    };
  }

  app.post(
    "/v1/stores",
    handleBody((c, body, tenant) => {
      const { baseInfo, error } = parseShopInfo(body.shopInfoAll);
      if (!baseInfo) return storeError(c, "400", error!);
      const taken = sidHolder(tenant, baseInfo.sid as string);
      if (taken) return sidTaken(c, baseInfo.sid as string, taken.id);
      const subject = c.get("subject");
      const now = ctx.clock.nowMs();
      const id = nextId(db, "store");
      const col = columns(baseInfo, body.shopInfoAll as string);
      db.prepare(
        `INSERT INTO stores (id, tenant_id, sid, branch_name, shop_name, business_name, owner_id, owner_name, shop_info_all, meta, remark, date_created, last_updated)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(id, tenant, col.sid, col.branchName, col.shopName, col.businessName, subject.userId, staffName(subject.userId), col.shopInfoAll, col.meta, typeof body.remark === "string" ? body.remark : null, now, now);
      publish(tenant, "store", "created", id);
      return sendJson(c, { shop: toShop(getStore(tenant, id)!) });
    }, storeBadBody),
  );

  app.put(
    "/v1/stores/:id",
    handle(async (c, tenant) => {
      const store = getStore(tenant, parseId(c.req.param("id")));
      if (!store) return storeError(c, "404", `store ${c.req.param("id")} not found`);
      const body = await readObject(c);
      if (!body) return storeBadBody(c);
      const { baseInfo, error } = parseShopInfo(body.shopInfoAll);
      if (!baseInfo) return storeError(c, "400", error!);
      const taken = sidHolder(tenant, baseInfo.sid as string, store.id);
      if (taken) return sidTaken(c, baseInfo.sid as string, taken.id);
      const col = columns(baseInfo, body.shopInfoAll as string);
      db.prepare(
        "UPDATE stores SET sid = ?, branch_name = ?, shop_name = ?, business_name = ?, shop_info_all = ?, meta = ?, remark = coalesce(?, remark), last_updated = ? WHERE id = ?",
      ).run(col.sid, col.branchName, col.shopName, col.businessName, col.shopInfoAll, col.meta, typeof body.remark === "string" ? body.remark : null, ctx.clock.nowMs(), store.id);
      publish(tenant, "store", "updated", store.id);
      return sendJson(c, { shop: toShop(getStore(tenant, store.id)!) });
    }),
  );

  app.delete(
    "/v1/stores/:id",
    handle((c, tenant) => {
      const store = getStore(tenant, parseId(c.req.param("id")));
      if (!store) return storeError(c, "404", `store ${c.req.param("id")} not found`);
      db.transaction(() => {
        db.prepare("DELETE FROM store_group_members WHERE store_id = ?").run(store.id);
        db.prepare("DELETE FROM stores WHERE id = ?").run(store.id);
      })();
      publish(tenant, "store", "deleted", store.id);
      // §4.8 / §7.5: deletion answers with an error object whose message is `success`.
      return sendJson(c, { error: { code: "0", message: "success" } });
    }),
  );

  app.post(
    "/v1/storesGroups",
    handleBody((c, body, tenant) => {
      for (const f of ["name", "remark", "shopList"] as const) {
        const v = body[f];
        const ok = f === "shopList" ? (typeof v === "string" && v.trim() !== "") || (Array.isArray(v) && v.length > 0) : typeof v === "string" && v.trim() !== "";
        if (!ok) return storeError(c, "400", `${f} is required`);
      }
      const subject = c.get("subject");
      const requested = (Array.isArray(body.shopList) ? body.shopList.map(String) : (body.shopList as string).split(",")).map((s) => s.trim()).filter(Boolean);
      const success: bigint[] = [];
      const failed: Array<bigint | string> = [];
      const now = ctx.clock.nowMs();
      const id = nextId(db, "storeGroup");
      db.transaction(() => {
        db.prepare("INSERT INTO store_groups (id, tenant_id, name, remark, creator_id, creator_name, date_created, last_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)").run(
          id, tenant, body.name, body.remark, subject.userId, staffName(subject.userId), now, now,
        );
        for (const raw of requested) {
          const storeId = parseId(raw);
          const store = getStore(tenant, storeId);
          if (!store) {
            failed.push(storeId ?? raw);
            continue;
          }
          if (db.prepare("INSERT OR IGNORE INTO store_group_members (group_id, store_id) VALUES (?, ?)").run(id, store.id).changes > 0) success.push(store.id);
        }
      })();
      const group = db.prepare("SELECT id, name, remark, creator_id, creator_name, date_created, last_updated FROM store_groups WHERE id = ?").safeIntegers(true).get(id) as GroupRow;
      publish(tenant, "store", "created", id, { group: true, shops: success.map(String) });
      return sendJson(c, { shopGroup: { success, failed, shopGroup: toGroup(group) } });
    }, storeBadBody),
  );

  app.get(
    "/v1/storesGroups/:groupId",
    handle((c, tenant) => {
      const id = parseId(c.req.param("groupId"));
      const group = id === null ? undefined : db.prepare("SELECT id FROM store_groups WHERE id = ? AND tenant_id = ?").safeIntegers(true).get(id, tenant);
      if (!group || id === null) return storeError(c, "404", `store group ${c.req.param("groupId")} not found`);
      const rows = db
        .prepare(`SELECT ${STORE_COLUMNS.split(", ").map((col) => `s.${col}`).join(", ")} FROM store_group_members m JOIN stores s ON s.id = m.store_id WHERE m.group_id = ? ORDER BY s.id`)
        .safeIntegers(true)
        .all(id) as StoreRow[];
      const shopGroupList = rows.map((r) => {
        const s = toShop(r);
        return { id: s.id, sid: s.sid, branchName: s.branchName, shopName: s.shopName, ownerId: s.ownerId, dateCreated: s.dateCreated, lastUpdated: s.lastUpdated, shopInfoAll: s.shopInfoAll, remark: s.remark };
      });
      return sendJson(c, { shopGroupList });
    }),
  );
};
