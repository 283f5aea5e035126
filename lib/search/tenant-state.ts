import "server-only";
import type { Store } from "@/lib/store/database";
import type { InstallationKey } from "@/lib/store/installations";
import { clearTenantIndex } from "./index-store";

/**
 * One `search_tenants` row per installation: the index's numeric tenant key and the sync's
 * resumable state (phase, keyset cursor, polling watermark, progress).
 */

export type SyncPhase = "backfill" | "ready";

export type TenantState = {
  tenant: number;
  phase: SyncPhase;
  backfillAfter: string | null;
  total: number | null;
  indexed: number;
  pollFrom: string | null;
  startedAt: number | null;
  syncedAt: number | null;
  lastChangeAt: number | null;
  error: string | null;
};

type Row = Awaited<ReturnType<typeof select>>;
const select = (store: Store, key: InstallationKey) =>
  store.db.selectFrom("search_tenants").selectAll().where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).executeTakeFirst();

const num = (v: number | string | null | undefined): number | null => (v === null || v === undefined ? null : Number(v));

function stateOf(row: NonNullable<Row>): TenantState {
  return {
    tenant: row.id,
    phase: row.phase === "ready" ? "ready" : "backfill",
    backfillAfter: row.backfill_after,
    total: num(row.total),
    indexed: Number(row.indexed),
    pollFrom: row.poll_from,
    startedAt: num(row.started_at),
    syncedAt: num(row.synced_at),
    lastChangeAt: num(row.last_change_at),
    error: row.error,
  };
}

export async function findTenant(store: Store, key: InstallationKey): Promise<TenantState | undefined> {
  const row = await select(store, key);
  return row ? stateOf(row) : undefined;
}

/** The installation's row, created (phase backfill, nothing indexed) when missing. */
export async function ensureTenant(store: Store, key: InstallationKey): Promise<TenantState> {
  await store.db
    .insertInto("search_tenants")
    .values({ open_app_id: key.openAppId, tenant_id: key.tenantId, phase: "backfill", backfill_after: null, total: null, indexed: 0, poll_from: null, started_at: null, synced_at: null, last_change_at: null, error: null })
    .onConflict((oc) => oc.columns(["open_app_id", "tenant_id"]).doNothing())
    .execute();
  const row = await select(store, key);
  if (!row) throw new Error("search tenant row missing after insert");
  return stateOf(row);
}

export type TenantUpdate = Partial<Omit<TenantState, "tenant">>;

/** False when the row is gone (the installation's index was removed meanwhile). */
export async function updateTenant(store: Store, tenant: number, update: TenantUpdate): Promise<boolean> {
  const set: Record<string, unknown> = {};
  const columns: Record<keyof TenantUpdate, string> = {
    phase: "phase", backfillAfter: "backfill_after", total: "total", indexed: "indexed", pollFrom: "poll_from",
    startedAt: "started_at", syncedAt: "synced_at", lastChangeAt: "last_change_at", error: "error",
  };
  for (const [k, v] of Object.entries(update)) if (v !== undefined) set[columns[k as keyof TenantUpdate]] = v;
  const result = await store.db.updateTable("search_tenants").set(Object.keys(set).length ? set : { id: tenant }).where("id", "=", tenant).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Back to an empty index and a fresh backfill (manual re-sync). */
export async function restartTenant(store: Store, tenant: number): Promise<void> {
  await clearTenantIndex(store, tenant);
  await updateTenant(store, tenant, { phase: "backfill", backfillAfter: null, indexed: 0, total: null, pollFrom: null, startedAt: null, syncedAt: null, error: null });
}

/** The installation's index and sync state removed (installation reset or removed): its personal data leaves the store. */
export async function removeTenantIndex(store: Store, key: InstallationKey): Promise<void> {
  const state = await findTenant(store, key);
  if (!state) return;
  await clearTenantIndex(store, state.tenant);
  await store.db.deleteFrom("search_tenants").where("id", "=", state.tenant).execute();
}
