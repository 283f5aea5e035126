import type { SandboxContext } from "../context";
import "./schema";

/**
 * "Installed" state of an app for a tenant (the spec is silent; see sandbox/README.md): an Install
 * click records a pending install; the app is installed when an authorization code issued while
 * that install was pending is exchanged at the token endpoint (the app completed the install
 * flow). The control plane can also install and uninstall directly.
 */
export const PENDING_INSTALL_TTL_SECONDS = 3600;

export type InstallKey = { environment: string; tenantId: number; appId: string };

export function isInstalled(ctx: SandboxContext, key: InstallKey): boolean {
  return !!ctx.db
    .prepare("SELECT 1 FROM installations WHERE environment = ? AND tenant_id = ? AND app_id = ?")
    .get(key.environment, key.tenantId, key.appId);
}

export function markInstalled(ctx: SandboxContext, key: InstallKey): void {
  ctx.db
    .prepare("INSERT OR IGNORE INTO installations (environment, tenant_id, app_id, installed_at) VALUES (?, ?, ?, ?)")
    .run(key.environment, key.tenantId, key.appId, ctx.clock.nowSeconds());
  ctx.db.prepare("DELETE FROM pending_installs WHERE environment = ? AND tenant_id = ? AND app_id = ?").run(key.environment, key.tenantId, key.appId);
}

export function uninstall(ctx: SandboxContext, key: InstallKey): boolean {
  ctx.db.prepare("DELETE FROM pending_installs WHERE environment = ? AND tenant_id = ? AND app_id = ?").run(key.environment, key.tenantId, key.appId);
  return ctx.db.prepare("DELETE FROM installations WHERE environment = ? AND tenant_id = ? AND app_id = ?").run(key.environment, key.tenantId, key.appId).changes > 0;
}

export function startPendingInstall(ctx: SandboxContext, key: InstallKey): void {
  ctx.db
    .prepare(
      `INSERT INTO pending_installs (environment, tenant_id, app_id, started_at) VALUES (?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET started_at = excluded.started_at`,
    )
    .run(key.environment, key.tenantId, key.appId, ctx.clock.nowSeconds());
}

export function hasPendingInstall(ctx: SandboxContext, key: InstallKey): boolean {
  const row = ctx.db
    .prepare("SELECT started_at FROM pending_installs WHERE environment = ? AND tenant_id = ? AND app_id = ?")
    .get(key.environment, key.tenantId, key.appId) as { started_at: number } | undefined;
  return !!row && ctx.clock.nowSeconds() - row.started_at < PENDING_INSTALL_TTL_SECONDS;
}

/** Every (environment, tenant) that has the app installed: the webhook sender delivers to these. */
export function installedTenants(ctx: SandboxContext, appId: string): Array<{ environment: string; tenantId: number }> {
  return (
    ctx.db.prepare("SELECT environment, tenant_id FROM installations WHERE app_id = ?").all(appId) as Array<{
      environment: string;
      tenant_id: number;
    }>
  ).map((r) => ({ environment: r.environment, tenantId: r.tenant_id }));
}
