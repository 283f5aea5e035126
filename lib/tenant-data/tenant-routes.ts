import "server-only";
import { ApiError } from "@/lib/http/api-error";
import type { AuditDraft } from "@/lib/http/audit-hook";
import { apiRoute, jsonResponse, type RouteContext, type RouteDeps, type RouteInput } from "@/lib/http/route";
import type { Store } from "@/lib/store";
import { findInstallation, type InstallationKey } from "@/lib/store/installations";
import { DEAD_INSTALLATION_GRACE_DAYS, disconnectTenant, installationEnd, isTenantAdmin } from "./disconnect";
import { indexTenants, tenantHoldings, tenantRows, tenantTables } from "./tenant-tables";
import { tenantOperations, type TenantDataAnswer } from "./tenant-operations";

/**
 * `/api/tenant/*`: what the app keeps for the signed-in tenant (every staff member may see the
 * inventory), its JSON export and the disconnect (the admin only: the user who installed the app,
 * the spec giving no roles, §5.1.4).
 */
export type TenantRouteDeps = RouteDeps & {
  store: () => Promise<Store>;
  flushAudit(): Promise<void>;
  appendFinal(draft: AuditDraft): Promise<void>;
  settleJobs?(key: InstallationKey): Promise<void>;
  graceDays?: number;
};
type Ctx<N extends keyof typeof tenantOperations> = RouteContext<TenantRouteDeps, RouteInput<(typeof tenantOperations)[N]>>;

const keyOf = (ctx: { session: { openAppId: string; tenantId: string } }) => ({ openAppId: ctx.session.openAppId, tenantId: ctx.session.tenantId });

async function requireAdmin(store: Store, ctx: { session: { openAppId: string; tenantId: string; userId: string } }): Promise<void> {
  if (!(await isTenantAdmin(store, keyOf(ctx), ctx.session.userId))) {
    throw new ApiError({ status: 403, code: "admin_only", message: "only the staff member who installed the app may export or disconnect the tenant's data" });
  }
}

export const handleTenantData = apiRoute({ name: "tenant data", scope: "tenant", operation: tenantOperations["tenant.data"] }, async (ctx: Ctx<"tenant.data">) => {
  const store = await ctx.deps.store();
  const key = keyOf(ctx);
  const [installation, tables, ended] = await Promise.all([findInstallation(store, key), tenantHoldings(store, key), installationEnd(store, key)]);
  const grace = (ctx.deps.graceDays ?? DEAD_INSTALLATION_GRACE_DAYS) * 86_400_000;
  const body: TenantDataAnswer = {
    tenantName: installation?.tenantName ?? ctx.session.tenantName ?? null,
    isAdmin: Boolean(installation && ctx.session.userId !== "" && installation.installedBy === ctx.session.userId),
    installedByName: installation?.installedByName ?? null,
    tables,
    ended: ended ? { ...ended, deleteAt: ended.markedAt + grace } : null,
  };
  return jsonResponse(200, JSON.stringify(body), ctx.requestId);
});

/** Columns never exported: tokens, hashes of secrets, and a sign-in's id (it names a live session). */
const SECRET_COLUMN = /token|secret|hash/;
const secretColumn = (table: string, column: string) => SECRET_COLUMN.test(column) || (table === "sign_ins" && column === "id");

/** `{tenant, exportedAt, tables: {name: [rows…]}}`, streamed a page of rows at a time. */
export const handleTenantExport = apiRoute({ name: "tenant export", scope: "tenant", operation: tenantOperations["tenant.export"], streams: true }, async (ctx: Ctx<"tenant.export">) => {
  const store = await ctx.deps.store();
  await requireAdmin(store, ctx);
  const key = keyOf(ctx);
  const tables = await tenantTables(store);
  const tenants = await indexTenants(store, key);
  const encoder = new TextEncoder();
  let t = 0;
  let offset = 0;
  let first = true;
  const PAGE = 5_000;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (t === 0 && offset === 0 && first) {
        controller.enqueue(encoder.encode(`{"openAppId":${JSON.stringify(key.openAppId)},"tenantId":${JSON.stringify(key.tenantId)},"exportedAt":${JSON.stringify(new Date().toISOString())},"tables":{`));
      }
      if (t >= tables.length) {
        controller.enqueue(encoder.encode("}}\n"));
        controller.close();
        return;
      }
      const table = tables[t]!;
      const rows = await tenantRows(store, key, table, tenants, offset, PAGE);
      let text = offset === 0 ? `${t > 0 ? "," : ""}${JSON.stringify(table.name)}:[` : "";
      text += rows
        .map((row, i) => `${offset + i > 0 ? "," : ""}${JSON.stringify(Object.fromEntries(Object.entries(row).filter(([column]) => !secretColumn(table.name, column))), (_, v: unknown) => (typeof v === "bigint" ? String(v) : v))}`)
        .join("");
      first = false;
      if (rows.length < PAGE) {
        text += "]";
        t += 1;
        offset = 0;
      } else offset += PAGE;
      controller.enqueue(encoder.encode(text));
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="engage-console-${key.tenantId}.json"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "x-request-id": ctx.requestId,
    },
  });
});

export const handleTenantDisconnect = apiRoute({ name: "tenant disconnect", scope: "tenant", operation: tenantOperations["tenant.disconnect"] }, async (ctx: Ctx<"tenant.disconnect">) => {
  const store = await ctx.deps.store();
  await requireAdmin(store, ctx);
  const { deleteAuditLog } = ctx.input.body;
  const result = await disconnectTenant(
    { store, flushAudit: ctx.deps.flushAudit, appendFinal: ctx.deps.appendFinal, ...(ctx.deps.settleJobs ? { settleJobs: ctx.deps.settleJobs } : {}) },
    keyOf(ctx),
    { id: ctx.session.userId, name: ctx.session.userName || null },
    { deleteAudit: deleteAuditLog, requestId: ctx.requestId },
  );
  const rowsDeleted = result.deleted.reduce((sum, t) => sum + t.rows, 0);
  Object.assign(ctx.fields, { rowsDeleted, deleteAuditLog });
  return jsonResponse(200, JSON.stringify({ disconnected: true, rowsDeleted }), ctx.requestId);
});
