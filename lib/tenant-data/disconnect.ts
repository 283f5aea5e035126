import "server-only";
import { installationLifecycle } from "@/lib/auth/lifecycle";
import { markSignInsEnded } from "@/lib/auth/session";
import type { AuditDraft } from "@/lib/http/audit-hook";
import type { Store } from "@/lib/store";
import type { TopicRegistry } from "@/lib/webhooks/topics";
import { findInstallation, markDisconnected, type InstallationKey } from "@/lib/store/installations";
import { deleteTenantRows, type TableHolding } from "./tenant-tables";

/**
 * Disconnecting a tenant (its admin's choice), or deleting a dead installation's data after its grace
 * period: the tokens are forgotten first (the platform has no revocation endpoint, §5.2, so forgetting
 * them is all the app can do; with them gone no job of the tenant reaches the platform again), then
 * every row of the tenant in every table goes (tenant-tables.ts), sign-ins included, so every open
 * console of the tenant is refused at its next request. Work of the tenant still in flight (a sync
 * page being written) is waited for and swept a second time.
 */

export type DisconnectDeps = {
  store: Store;
  /** Resolves when the entries handed to the audit log so far are written (they must not land after the deletion). */
  flushAudit(): Promise<void>;
  /** Resolves when the tenant's background work in flight has stopped (bounded by the caller). */
  settleJobs?(key: InstallationKey): Promise<void>;
  now?: () => number;
};

export type DisconnectResult = { deleted: TableHolding[] };

/** Only the user who installed the app may disconnect it: the spec gives no roles (§5.1.4), so the installer is the tenant's admin here. */
export async function isTenantAdmin(store: Store, key: InstallationKey, userId: string): Promise<boolean> {
  const installation = await findInstallation(store, key);
  return Boolean(installation && userId !== "" && installation.installedBy === userId);
}

export async function removeTenantData(deps: DisconnectDeps, key: InstallationKey, options: { keepAudit?: boolean; disconnected?: boolean } = {}): Promise<DisconnectResult> {
  const { store } = deps;
  await deps.flushAudit();
  // The tokens first: nothing of the tenant calls the platform from here on.
  await store.db.deleteFrom("installations").where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).execute();
  const keep = options.keepAudit ? ["audit_log", "audit_targets"] : [];
  // The tenant's sign-ins, refused by this instance from now on, not after its short trust in its last look.
  const signIns = await store.db.selectFrom("sign_ins").select("id").where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).execute();
  const first = await deleteTenantRows(store, key, { keep });
  markSignInsEnded(signIns.map((s) => s.id));
  if (deps.settleJobs) await deps.settleJobs(key);
  await deps.flushAudit();
  const second = await deleteTenantRows(store, key, { keep });
  if (options.disconnected) await markDisconnected(store, key, (deps.now ?? Date.now)());
  await installationLifecycle().publish({ type: "removed", key });
  const deleted = first.map((t) => ({ table: t.table, rows: t.rows + (second.find((s) => s.table === t.table)?.rows ?? 0) }));
  return { deleted };
}

/**
 * The admin's disconnect: the audit log is deleted with the rest, then, unless the admin chose to
 * delete it too, one final entry says who disconnected the tenant, when, and how many rows went.
 */
export async function disconnectTenant(
  deps: DisconnectDeps & { appendFinal(draft: AuditDraft): Promise<void> },
  key: InstallationKey,
  actor: { id: string; name: string | null },
  options: { deleteAudit: boolean; requestId: string },
): Promise<DisconnectResult> {
  const result = await removeTenantData(deps, key, { disconnected: true });
  if (!options.deleteAudit) {
    const rows = result.deleted.reduce((sum, t) => sum + t.rows, 0);
    await deps.appendFinal({
      key,
      actor,
      operation: "tenant.disconnect",
      method: "POST",
      resource: "tenant",
      at: (deps.now ?? Date.now)(),
      status: 200,
      outcome: "done",
      requestId: options.requestId,
      targets: [],
      changes: { rowsDeleted: { after: rows } },
    });
  }
  return result;
}

export const DEAD_INSTALLATION_GRACE_DAYS = 30;

/** Marks an installation the platform refused for good (its refresh token), with why. */
export async function markInstallationEnded(store: Store, key: InstallationKey, reason: "refresh_refused" | "uninstalled", detail: string | null, now = Date.now()): Promise<void> {
  await store.db
    .insertInto("installation_ends")
    .values({ open_app_id: key.openAppId, tenant_id: key.tenantId, reason, detail, marked_at: now })
    .onConflict((oc) => oc.columns(["open_app_id", "tenant_id"]).doNothing())
    .execute();
}

/**
 * An uninstall notice from the platform, should one ever arrive by webhook: the installation is
 * marked ended like a refused refresh token, and its data goes after the same grace period unless
 * the tenant authorizes the app again meanwhile.
 */
export function subscribeUninstall(topics: TopicRegistry, store: () => Promise<Store>, now: () => number = Date.now): void {
  topics.on(["app.uninstalled"], "tenant-data", async ({ delivery }) =>
    markInstallationEnded(await store(), { openAppId: delivery.openAppId, tenantId: delivery.tenantId }, "uninstalled", "the platform reported the app uninstalled", now()),
  );
}

export async function installationEnd(store: Store, key: InstallationKey): Promise<{ reason: string; markedAt: number } | undefined> {
  const row = await store.db.selectFrom("installation_ends").select(["reason", "marked_at"]).where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).executeTakeFirst();
  return row ? { reason: row.reason, markedAt: Number(row.marked_at) } : undefined;
}

/**
 * The dead installations' sweep (a scheduled job): an installation marked ended more than
 * `graceDays` ago whose installation is still not active (no one authorized it again) loses its
 * data; one authorized again only loses its mark.
 */
export async function sweepEndedInstallations(deps: DisconnectDeps, graceDays = DEAD_INSTALLATION_GRACE_DAYS): Promise<InstallationKey[]> {
  const now = (deps.now ?? Date.now)();
  const ended = await deps.store.db.selectFrom("installation_ends").select(["open_app_id", "tenant_id", "marked_at"]).where("marked_at", "<", now - graceDays * 86_400_000).execute();
  const removed: InstallationKey[] = [];
  for (const row of ended) {
    const key = { openAppId: row.open_app_id, tenantId: row.tenant_id };
    const installation = await findInstallation(deps.store, key);
    if (installation?.status === "active" && Number(installation.updatedAt) > Number(row.marked_at)) {
      await deps.store.db.deleteFrom("installation_ends").where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).execute();
      continue;
    }
    await removeTenantData(deps, key);
    removed.push(key);
  }
  return removed;
}
