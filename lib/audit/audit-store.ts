import "server-only";
import type { Store } from "@/lib/store";
import type { InstallationKey } from "@/lib/store/installations";

/**
 * The audit log's repository (migration 014): append-only. This module writes entries, reads them
 * and deletes them only by age (the retention sweep) or with the whole tenant (disconnect, in
 * lib/lifecycle); it has no update, and the store refuses one (a trigger on both dialects).
 * Every read names the tenant: one tenant never sees another's entries.
 */

export type AuditTargetRecord = { kind: string; id: string; name?: string | null };
export type AuditChangeRecord = { before?: unknown; after?: unknown };

export type AuditEntryInput = {
  key: InstallationKey;
  at: number;
  actorId: string;
  actorName: string | null;
  operation: string;
  method: string;
  outcome: "done" | "refused" | "failed";
  status: number;
  reason: string | null;
  requestId: string;
  targets: AuditTargetRecord[];
  changes: Record<string, AuditChangeRecord> | null;
};

export type AuditEntry = Omit<AuditEntryInput, "key"> & { id: string };

export const AUDIT_RETENTION_DEFAULT_DAYS = 400;
export const AUDIT_RETENTION_MIN_DAYS = 30;
export const AUDIT_RETENTION_MAX_DAYS = 3650;

const clip = (text: string | null, max: number) => (text !== null && text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Writes entries (one transaction), with their targets for the per-target trail. */
export async function appendAuditEntries(store: Store, entries: readonly AuditEntryInput[]): Promise<void> {
  if (entries.length === 0) return;
  await store.db.transaction().execute(async (tx) => {
    for (const entry of entries) {
      const row = await tx
        .insertInto("audit_log")
        .values({
          open_app_id: entry.key.openAppId,
          tenant_id: entry.key.tenantId,
          at: entry.at,
          actor_id: clip(entry.actorId, 128) ?? "",
          actor_name: clip(entry.actorName, 512),
          operation: clip(entry.operation, 64) ?? "",
          method: entry.method.slice(0, 8),
          outcome: entry.outcome,
          status: entry.status,
          reason: clip(entry.reason, 1024),
          request_id: entry.requestId.slice(0, 64),
          targets: JSON.stringify(entry.targets),
          changes: entry.changes ? JSON.stringify(entry.changes) : null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const facets = [
        { kind: "actor", value: clip(entry.actorId, 128) ?? "", label: clip(entry.actorName, 512) },
        { kind: "operation", value: clip(entry.operation, 64) ?? "", label: null },
      ];
      for (const facet of facets) {
        await tx
          .insertInto("audit_facets")
          .values({ open_app_id: entry.key.openAppId, tenant_id: entry.key.tenantId, ...facet })
          .onConflict((oc) => (facet.label ? oc.columns(["open_app_id", "tenant_id", "kind", "value"]).doUpdateSet({ label: facet.label }) : oc.doNothing()))
          .execute();
      }
      const ids = [...new Set(entry.targets.map((t) => t.id.slice(0, 64)))];
      if (ids.length > 0) {
        await tx
          .insertInto("audit_targets")
          .values(ids.map((target_id) => ({ open_app_id: entry.key.openAppId, tenant_id: entry.key.tenantId, target_id, entry_id: Number(row.id) })))
          .execute();
      }
    }
  });
}

export type AuditFilters = {
  actorId?: string;
  operation?: string;
  outcome?: string;
  targetId?: string;
  /** Epoch ms, inclusive / exclusive. */
  from?: number;
  to?: number;
};

export type AuditPage = { entries: AuditEntry[]; next: string | null };

/**
 * One page of a tenant's entries, newest first, keyset on the id (`before`: the last id of the
 * previous page), so the first page and the thousandth cost the same.
 */
export async function listAuditEntries(store: Store, key: InstallationKey, filters: AuditFilters, page: { before?: string; limit: number }): Promise<AuditPage> {
  let query = store.db
    .selectFrom("audit_log")
    .selectAll("audit_log")
    .where("audit_log.open_app_id", "=", key.openAppId)
    .where("audit_log.tenant_id", "=", key.tenantId);
  if (filters.actorId) query = query.where("audit_log.actor_id", "=", filters.actorId);
  if (filters.operation) query = query.where("audit_log.operation", "=", filters.operation);
  if (filters.outcome) query = query.where("audit_log.outcome", "=", filters.outcome);
  if (filters.from !== undefined) query = query.where("audit_log.at", ">=", filters.from);
  if (filters.to !== undefined) query = query.where("audit_log.at", "<", filters.to);
  if (page.before) query = query.where("audit_log.id", "<", Number(page.before));
  // A target's trail walks its own index (newest entry first), not the whole log.
  const rows = filters.targetId
    ? await query
        .innerJoin("audit_targets", "audit_targets.entry_id", "audit_log.id")
        .where("audit_targets.open_app_id", "=", key.openAppId)
        .where("audit_targets.tenant_id", "=", key.tenantId)
        .where("audit_targets.target_id", "=", filters.targetId)
        .orderBy("audit_targets.entry_id", "desc")
        .limit(page.limit + 1)
        .execute()
    : await query.orderBy("audit_log.id", "desc").limit(page.limit + 1).execute();
  const entries = rows.slice(0, page.limit).map(toEntry);
  return { entries, next: rows.length > page.limit ? entries[entries.length - 1]!.id : null };
}

function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function toEntry(row: { id: number | string; at: number | string; actor_id: string; actor_name: string | null; operation: string; method: string; outcome: string; status: number; reason: string | null; request_id: string; targets: string; changes: string | null }): AuditEntry {
  return {
    id: String(row.id),
    at: Number(row.at),
    actorId: row.actor_id,
    actorName: row.actor_name,
    operation: row.operation,
    method: row.method,
    outcome: row.outcome as AuditEntry["outcome"],
    status: Number(row.status),
    reason: row.reason,
    requestId: row.request_id,
    targets: parseJson<AuditTargetRecord[]>(row.targets, []),
    changes: parseJson<Record<string, AuditChangeRecord> | null>(row.changes, null),
  };
}

/** The staff members and operations seen in a tenant's log (the filters' choices), kept beside it as they first appear. */
export async function auditFacets(store: Store, key: InstallationKey): Promise<{ actors: Array<{ id: string; name: string | null }>; operations: string[] }> {
  const rows = await store.db.selectFrom("audit_facets").select(["kind", "value", "label"]).where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).orderBy("kind").orderBy("value").limit(1000).execute();
  return {
    actors: rows.filter((r) => r.kind === "actor").map((r) => ({ id: r.value, name: r.label })),
    operations: rows.filter((r) => r.kind === "operation").map((r) => r.value),
  };
}

export async function auditRetentionDays(store: Store, key: InstallationKey): Promise<number> {
  const row = await store.db.selectFrom("audit_settings").select("retention_days").where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).executeTakeFirst();
  return row ? Number(row.retention_days) : AUDIT_RETENTION_DEFAULT_DAYS;
}

export async function setAuditRetentionDays(store: Store, key: InstallationKey, days: number, by: string | null, now = Date.now()): Promise<void> {
  await store.db
    .insertInto("audit_settings")
    .values({ open_app_id: key.openAppId, tenant_id: key.tenantId, retention_days: days, updated_by: by, updated_at: now })
    .onConflict((oc) => oc.columns(["open_app_id", "tenant_id"]).doUpdateSet({ retention_days: days, updated_by: by, updated_at: now }))
    .execute();
}

const SWEEP_BATCH = 5_000;

/**
 * The retention sweep: every tenant's entries older than its retention (default 400 days) leave,
 * with their targets, in batches (a large backlog never holds the store for long). Returns how many.
 */
export async function sweepAuditLog(store: Store, now = Date.now()): Promise<number> {
  const tenants = await store.db.selectFrom("audit_log").select(["open_app_id", "tenant_id"]).distinct().execute();
  let removed = 0;
  for (const tenant of tenants) {
    const key = { openAppId: tenant.open_app_id, tenantId: tenant.tenant_id };
    const cutoff = now - (await auditRetentionDays(store, key)) * 86_400_000;
    for (;;) {
      const old = await store.db
        .selectFrom("audit_log")
        .select("id")
        .where("open_app_id", "=", key.openAppId)
        .where("tenant_id", "=", key.tenantId)
        .where("at", "<", cutoff)
        .limit(SWEEP_BATCH)
        .execute();
      if (old.length === 0) break;
      const ids = old.map((r) => Number(r.id));
      await store.db.transaction().execute(async (tx) => {
        await tx.deleteFrom("audit_targets").where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).where("entry_id", "in", ids).execute();
        await tx.deleteFrom("audit_log").where("id", "in", ids).execute();
      });
      removed += ids.length;
      if (old.length < SWEEP_BATCH) break;
    }
  }
  return removed;
}
