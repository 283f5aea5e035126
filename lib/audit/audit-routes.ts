import "server-only";
import { exportFileName, csvRecord, UTF8_BOM } from "@/lib/csv";
import { apiRoute, jsonResponse, type RouteContext, type RouteDeps, type RouteInput } from "@/lib/http/route";
import type { Store } from "@/lib/store";
import { formatHomeTimeIn, parsePlatformTime } from "@/lib/time";
import { auditOperations, type AuditListAnswer, type AuditSettings } from "./audit-operations";
import { AUDIT_RETENTION_DEFAULT_DAYS, AUDIT_RETENTION_MAX_DAYS, AUDIT_RETENTION_MIN_DAYS, auditFacets, auditRetentionDays, listAuditEntries, setAuditRetentionDays, type AuditEntry, type AuditFilters } from "./audit-store";

/**
 * `/api/audit` (lib/audit): the signed-in tenant's audit log. `GET` a page (filters, keyset),
 * `GET /export` the filtered log as CSV, `GET|PUT /settings` its retention. Read-only for the log
 * itself: no route changes or deletes an entry.
 */
export type AuditRouteDeps = RouteDeps & { store: () => Promise<Store> };
type Ctx<N extends keyof typeof auditOperations> = RouteContext<AuditRouteDeps, RouteInput<(typeof auditOperations)[N]>>;

const keyOf = (ctx: { session: { openAppId: string; tenantId: string } }) => ({ openAppId: ctx.session.openAppId, tenantId: ctx.session.tenantId });

function filtersOf(query: { actor?: string; operation?: string; outcome?: string; target?: string; from?: string; to?: string }): AuditFilters {
  return {
    ...(query.actor ? { actorId: query.actor } : {}),
    ...(query.operation ? { operation: query.operation } : {}),
    ...(query.outcome ? { outcome: query.outcome } : {}),
    ...(query.target ? { targetId: query.target } : {}),
    ...(query.from ? { from: parsePlatformTime(query.from)! } : {}),
    ...(query.to ? { to: parsePlatformTime(query.to)! } : {}),
  };
}

const options = { scope: "audit" } as const;

export const handleAuditList = apiRoute({ ...options, name: "audit list", operation: auditOperations["audit.list"] }, async (ctx: Ctx<"audit.list">) => {
  const store = await ctx.deps.store();
  const { before, limit, ...query } = ctx.input.query;
  const [page, facets] = await Promise.all([listAuditEntries(store, keyOf(ctx), filtersOf(query), { ...(before ? { before } : {}), limit: limit ?? 50 }), auditFacets(store, keyOf(ctx))]);
  const body: AuditListAnswer = { ...page, facets };
  return jsonResponse(200, JSON.stringify(body), ctx.requestId);
});

const CSV_HEADERS = {
  en: ["Time (UTC+8)", "Staff", "Staff key", "Operation", "Outcome", "Status", "Reason", "Targets", "Changes", "Request id"],
  "zh-CN": ["时间（UTC+8）", "员工", "员工标识", "操作", "结果", "状态码", "原因", "对象", "变更", "请求编号"],
} as const;

const targetText = (entry: AuditEntry) => entry.targets.map((t) => `${t.kind} ${t.id}${t.name ? ` (${t.name})` : ""}`).join("; ");
const changeText = (entry: AuditEntry) =>
  Object.entries(entry.changes ?? {})
    .map(([field, c]) => `${field}: ${"before" in c ? `${JSON.stringify(c.before)} → ` : ""}${JSON.stringify(c.after)}`)
    .join("; ");

/** The filtered log as CSV, newest first, read a keyset page at a time while it is sent. */
export const handleAuditExport = apiRoute({ ...options, name: "audit export", operation: auditOperations["audit.export"], streams: true }, async (ctx: Ctx<"audit.export">) => {
  const store = await ctx.deps.store();
  const { lang, ...query } = ctx.input.query;
  const locale = lang ?? "en";
  const filters = filtersOf(query);
  const key = keyOf(ctx);
  const encoder = new TextEncoder();
  let before: string | undefined;
  let started = false;
  let rows = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(UTF8_BOM + csvRecord(CSV_HEADERS[locale])));
        return;
      }
      const page = await listAuditEntries(store, key, filters, { ...(before ? { before } : {}), limit: 1000 });
      let text = "";
      for (const e of page.entries) {
        text += csvRecord([formatHomeTimeIn(new Date(e.at).toISOString(), locale), e.actorName ?? "", e.actorId, e.operation, e.outcome, e.status, e.reason ?? "", targetText(e), changeText(e), e.requestId]);
      }
      rows += page.entries.length;
      if (text) controller.enqueue(encoder.encode(text));
      if (!page.next) {
        ctx.log.info({ ...ctx.fields, rows, ms: Math.round(performance.now() - ctx.started) }, "audit export");
        controller.close();
      } else before = page.next;
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${exportFileName("audit-log")}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "x-request-id": ctx.requestId,
    },
  });
});

const settingsOf = (retentionDays: number): AuditSettings => ({ retentionDays, defaultDays: AUDIT_RETENTION_DEFAULT_DAYS, minDays: AUDIT_RETENTION_MIN_DAYS, maxDays: AUDIT_RETENTION_MAX_DAYS });

export const handleAuditSettings = apiRoute({ ...options, name: "audit settings", operation: auditOperations["audit.settings"] }, async (ctx: Ctx<"audit.settings">) => {
  const days = await auditRetentionDays(await ctx.deps.store(), keyOf(ctx));
  return jsonResponse(200, JSON.stringify(settingsOf(days)), ctx.requestId);
});

export const handleAuditSettingsPut = apiRoute({ ...options, name: "audit settings", operation: auditOperations["audit.settingsPut"] }, async (ctx: Ctx<"audit.settingsPut">) => {
  const store = await ctx.deps.store();
  const before = await auditRetentionDays(store, keyOf(ctx));
  const { retentionDays } = ctx.input.body;
  await setAuditRetentionDays(store, keyOf(ctx), retentionDays, ctx.session.userName || ctx.session.userId);
  ctx.audit = { changes: { retentionDays: { before, after: retentionDays } } };
  return jsonResponse(200, JSON.stringify(settingsOf(retentionDays)), ctx.requestId);
});
