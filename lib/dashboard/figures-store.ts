import "server-only";
import type { Store } from "@/lib/store";
import type { InstallationKey } from "@/lib/store/installations";
import type { DashboardData } from "./dashboard-data";

/**
 * The overview's figures of each tenant in the app's store (`dashboard_figures`): a background task
 * computes them (figures-task.ts) and every instance serves them from here, so opening the home
 * page never waits for the platform's ~90 calls. `stale_since` is set by the first change the
 * figures do not show yet (a new customer, order or event, from a webhook) and cleared when they are
 * computed again; the schedule recomputes stale figures after a short delay, so a burst of webhooks
 * costs one computation.
 */

export type StoredFigures = { data: DashboardData; computedAt: number; staleSince: number | null };

export async function readFigures(store: Store, key: InstallationKey): Promise<StoredFigures | undefined> {
  const row = await store.db
    .selectFrom("dashboard_figures")
    .select(["data", "computed_at", "stale_since"])
    .where("open_app_id", "=", key.openAppId)
    .where("tenant_id", "=", key.tenantId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { data: JSON.parse(row.data) as DashboardData, computedAt: Number(row.computed_at), staleSince: row.stale_since === null ? null : Number(row.stale_since) };
}

/**
 * Stores a computation. `startedAt`: a change that arrived after the computation started is not in
 * it, so its mark stays (the figures are computed again).
 */
export async function saveFigures(store: Store, key: InstallationKey, data: DashboardData, computedAt: number, startedAt = computedAt): Promise<void> {
  const json = JSON.stringify(data);
  await store.db
    .insertInto("dashboard_figures")
    .values({ open_app_id: key.openAppId, tenant_id: key.tenantId, data: json, computed_at: computedAt, stale_since: null })
    .onConflict((oc) =>
      oc.columns(["open_app_id", "tenant_id"]).doUpdateSet((eb) => ({
        data: json,
        computed_at: computedAt,
        stale_since: eb.case().when("dashboard_figures.stale_since", ">=", startedAt).then(eb.ref("dashboard_figures.stale_since")).else(null).end(),
      })),
    )
    .execute();
}

/** A change the figures do not show yet; the first mark counts (later ones change nothing). Tenants without figures have nothing to mark. */
export async function markFiguresStale(store: Store, key: InstallationKey, at: number): Promise<void> {
  await store.db
    .updateTable("dashboard_figures")
    .set({ stale_since: at })
    .where("open_app_id", "=", key.openAppId)
    .where("tenant_id", "=", key.tenantId)
    .where("stale_since", "is", null)
    .execute();
}

/** A (re)installed tenant starts afresh: never served the figures of before. */
export async function forgetFigures(store: Store, key: InstallationKey): Promise<void> {
  await store.db.deleteFrom("dashboard_figures").where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).execute();
}

export type RefreshPolicy = {
  /** Figures are computed again at least this often (the parts no webhook announces: stage changes, events beyond the window). */
  maxAgeMs: number;
  /** A change waits this long before the figures are recomputed, so a burst of changes costs one run. */
  staleDelayMs: number;
};

export const FIGURES_POLICY: RefreshPolicy = { maxAgeMs: 60 * 60_000, staleDelayMs: 2 * 60_000 };

/**
 * The installations whose figures are due: active installations without figures, figures older
 * than `maxAgeMs`, and figures marked stale more than `staleDelayMs` ago. Oldest first, `limit` at most.
 */
export async function dueFigures(store: Store, now: number, policy: RefreshPolicy = FIGURES_POLICY, limit = 100): Promise<InstallationKey[]> {
  const rows = await store.db
    .selectFrom("installations as i")
    .leftJoin("dashboard_figures as f", (join) => join.onRef("f.open_app_id", "=", "i.open_app_id").onRef("f.tenant_id", "=", "i.tenant_id"))
    .select(["i.open_app_id", "i.tenant_id", "f.computed_at"])
    .where("i.status", "=", "active")
    .where((eb) => eb.or([eb("f.computed_at", "is", null), eb("f.computed_at", "<", now - policy.maxAgeMs), eb("f.stale_since", "<", now - policy.staleDelayMs)]))
    .orderBy("f.computed_at")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ openAppId: r.open_app_id, tenantId: r.tenant_id }));
}
