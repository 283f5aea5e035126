import "server-only";
import { randomUUID } from "node:crypto";
import type { Selectable } from "kysely";
import type { Store, StoreSchema } from "@/lib/store/database";
import type { InstallationKey } from "@/lib/store/installations";
import { MAX_VIEWS_PER_OWNER, type ViewList } from "./view-rules";
import type { SavedView } from "./views-api";

/**
 * Saved views in the app's store (migration 019): every read and write names the installation; a
 * person sees their own views and the tenant's shared ones; a view is deleted by its owner, or, when
 * shared, by whoever shared it.
 */

type Row = Selectable<StoreSchema["saved_views"]>;
export type ViewActor = { userId: string; name: string };

const SHARED = "";

function viewOf(row: Row, userId: string): SavedView {
  return {
    id: row.id,
    list: row.list as ViewList,
    name: row.name,
    query: row.query,
    shared: row.owner === SHARED,
    createdBy: { userId: row.created_by, name: row.created_by_name },
    deletable: row.owner === userId || (row.owner === SHARED && row.created_by === userId),
    updatedAt: Number(row.updated_at),
  };
}

const scoped = (store: Store, key: InstallationKey) => store.db.selectFrom("saved_views").selectAll().where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId);

export async function listViews(store: Store, key: InstallationKey, userId: string, list: ViewList): Promise<SavedView[]> {
  const rows = await scoped(store, key)
    .where("list", "=", list)
    .where("owner", "in", [userId, SHARED])
    .orderBy("owner", "desc")
    .orderBy("name")
    .execute();
  return rows.map((row) => viewOf(row, userId));
}

export type SaveViewInput = { list: ViewList; name: string; query: string; shared: boolean; replace: boolean };
export type SaveViewResult = { ok: true; view: SavedView; replaced: boolean } | { ok: false; reason: "exists"; view: SavedView } | { ok: false; reason: "full" } | { ok: false; reason: "forbidden" };

/**
 * Saves a view under its name. A name already used (by the same owner, or among the shared views)
 * is replaced only when asked (`replace`), and a shared view only by whoever shared it.
 */
export async function saveView(store: Store, key: InstallationKey, actor: ViewActor, input: SaveViewInput, now: number): Promise<SaveViewResult> {
  const owner = input.shared ? SHARED : actor.userId;
  return store.db.transaction().execute(async (tx) => {
    const existing = await tx
      .selectFrom("saved_views")
      .selectAll()
      .where("open_app_id", "=", key.openAppId)
      .where("tenant_id", "=", key.tenantId)
      .where("list", "=", input.list)
      .where("owner", "=", owner)
      .where("name", "=", input.name)
      .executeTakeFirst();
    if (existing) {
      if (!input.replace) return { ok: false, reason: "exists", view: viewOf(existing, actor.userId) };
      if (owner === SHARED && existing.created_by !== actor.userId) return { ok: false, reason: "forbidden" };
      await tx.updateTable("saved_views").set({ query: input.query, updated_at: now }).where("id", "=", existing.id).execute();
      return { ok: true, replaced: true, view: viewOf({ ...existing, query: input.query, updated_at: now }, actor.userId) };
    }
    const count = await tx
      .selectFrom("saved_views")
      .select((eb) => eb.fn.countAll<string | number>().as("n"))
      .where("open_app_id", "=", key.openAppId)
      .where("tenant_id", "=", key.tenantId)
      .where("list", "=", input.list)
      .where("owner", "=", owner)
      .executeTakeFirst();
    if (Number(count?.n ?? 0) >= MAX_VIEWS_PER_OWNER) return { ok: false, reason: "full" };
    const row = {
      id: randomUUID(),
      open_app_id: key.openAppId,
      tenant_id: key.tenantId,
      list: input.list,
      owner,
      name: input.name,
      query: input.query,
      created_by: actor.userId,
      created_by_name: actor.name,
      created_at: now,
      updated_at: now,
    } satisfies Row;
    // Two saves of one new name at once: the unique constraint keeps one; the other is told it exists.
    const inserted = await tx.insertInto("saved_views").values(row).onConflict((oc) => oc.columns(["open_app_id", "tenant_id", "list", "owner", "name"]).doNothing()).executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) return { ok: false, reason: "exists", view: viewOf(row, actor.userId) };
    return { ok: true, replaced: false, view: viewOf(row, actor.userId) };
  });
}

export async function deleteView(store: Store, key: InstallationKey, userId: string, id: string): Promise<"deleted" | "not_found" | "forbidden"> {
  const row = await scoped(store, key).where("id", "=", id).executeTakeFirst();
  // Another person's own view is not theirs to see: not found, like a missing one.
  if (!row || (row.owner !== SHARED && row.owner !== userId)) return "not_found";
  if (!viewOf(row, userId).deletable) return "forbidden";
  await store.db.deleteFrom("saved_views").where("id", "=", id).where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).execute();
  return "deleted";
}
