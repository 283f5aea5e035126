import "server-only";
import { sql, type Transaction } from "kysely";
import type { Store, StoreSchema } from "@/lib/store/database";
import { compareIds, pairKey, type SharedKey } from "./clusters";
import { isRule, type MatchKey, type Rule } from "./match-keys";

/**
 * The duplicate finder's tables (migration 015), all keyed by the people index's tenant
 * (`search_tenants.id`): `duplicate_keys` (every customer's match keys), `duplicate_matches` (the
 * keys two or more customers share: what the queue reads), `duplicate_dismissals` ("not the same
 * person", kept across re-scans) and `duplicate_merges` (the history).
 */

type Db = Store["db"] | Transaction<StoreSchema>;

export type CustomerKeys = { id: string; keys: readonly MatchKey[] };

/** Rows per statement: sent as one parameter (a JSON text on SQLite, arrays on PostgreSQL), so no bound-parameter limit applies. */
const CHUNK = 20_000;
const ID_CHUNK = 500;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Inserts key rows fast: one statement per 20,000 rows with three parameters, on both dialects. */
export async function insertKeys(db: Db, dialect: Store["dialect"], tenant: number, rows: readonly CustomerKeys[]): Promise<number> {
  const flat: Array<[string, string, string]> = [];
  for (const row of rows) for (const k of row.keys) flat.push([row.id, k.rule, k.key]);
  // In key order: the (tenant, rule, key) index takes the rows as runs, not at random places.
  flat.sort((x, y) => (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0));
  for (const part of chunks(flat, CHUNK)) {
    if (dialect === "sqlite") {
      await sql`INSERT INTO duplicate_keys (tenant, customer_id, rule, key) SELECT ${tenant}, value ->> 0, value ->> 1, value ->> 2 FROM json_each(${JSON.stringify(part)})`.execute(db);
    } else {
      await sql`INSERT INTO duplicate_keys (tenant, customer_id, rule, key) SELECT ${tenant}, c, r, k FROM unnest(${part.map((p) => p[0])}::text[], ${part.map((p) => p[1])}::text[], ${part.map((p) => p[2])}::text[]) AS t(c, r, k)`.execute(db);
    }
  }
  return flat.length;
}

export async function hasKeys(store: Store, tenant: number): Promise<boolean> {
  const row = await store.db.selectFrom("duplicate_keys").select("customer_id").where("tenant", "=", tenant).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Forgets the keys (and matches) of customers no longer in the index (a re-scan's last step). */
export async function dropKeysOutsideIndex(store: Store, tenant: number): Promise<void> {
  await sql`DELETE FROM duplicate_keys WHERE tenant = ${tenant} AND NOT EXISTS (SELECT 1 FROM customer_index ci WHERE ci.tenant = ${tenant} AND ci.customer_id = duplicate_keys.customer_id)`.execute(store.db);
}

/** `duplicate_matches` made again from every key of the tenant (the scan's last step). */
export async function rebuildMatches(store: Store, tenant: number): Promise<void> {
  await store.db.transaction().execute(async (tx) => {
    await tx.deleteFrom("duplicate_matches").where("tenant", "=", tenant).execute();
    await sql`INSERT INTO duplicate_matches (tenant, rule, key, customer_id)
      SELECT DISTINCT d.tenant, d.rule, d.key, d.customer_id FROM duplicate_keys d
      JOIN (SELECT rule, key FROM duplicate_keys WHERE tenant = ${tenant} GROUP BY rule, key HAVING count(DISTINCT customer_id) > 1) g ON g.rule = d.rule AND g.key = d.key
      WHERE d.tenant = ${tenant}`.execute(tx);
  });
}

/** The matches of some keys made again from `duplicate_keys` (after their customers' keys changed). */
async function refreshMatchesOf(tx: Db, tenant: number, affected: readonly MatchKey[]): Promise<void> {
  const byRule = new Map<Rule, Set<string>>();
  for (const k of affected) byRule.set(k.rule, (byRule.get(k.rule) ?? new Set()).add(k.key));
  for (const [rule, keySet] of byRule) {
    for (const part of chunks([...keySet], ID_CHUNK)) {
      await tx.deleteFrom("duplicate_matches").where("tenant", "=", tenant).where("rule", "=", rule).where("key", "in", part).execute();
      await sql`INSERT INTO duplicate_matches (tenant, rule, key, customer_id)
        SELECT DISTINCT d.tenant, d.rule, d.key, d.customer_id FROM duplicate_keys d
        JOIN (SELECT key FROM duplicate_keys WHERE tenant = ${tenant} AND rule = ${rule} AND key IN (${sql.join(part)}) GROUP BY key HAVING count(DISTINCT customer_id) > 1) g ON g.key = d.key
        WHERE d.tenant = ${tenant} AND d.rule = ${rule}`.execute(tx);
    }
  }
}

/**
 * Replaces the keys of these customers (changed, or new) and refreshes the matches of every key
 * they had or have now. A customer given with no keys only leaves (removed from the index).
 */
export async function replaceCustomerKeys(store: Store, tenant: number, customers: readonly CustomerKeys[]): Promise<void> {
  if (customers.length === 0) return;
  await store.db.transaction().execute(async (tx) => {
    const ids = [...new Set(customers.map((c) => c.id))].sort(compareIds);
    const affected: MatchKey[] = customers.flatMap((c) => c.keys);
    for (const part of chunks(ids, ID_CHUNK)) {
      const old = await tx.selectFrom("duplicate_keys").select(["rule", "key"]).where("tenant", "=", tenant).where("customer_id", "in", part).execute();
      for (const row of old) if (isRule(row.rule)) affected.push({ rule: row.rule, key: row.key });
      await tx.deleteFrom("duplicate_keys").where("tenant", "=", tenant).where("customer_id", "in", part).execute();
      await tx.deleteFrom("duplicate_matches").where("tenant", "=", tenant).where("customer_id", "in", part).execute();
    }
    await insertKeys(tx, store.dialect, tenant, customers);
    await refreshMatchesOf(tx, tenant, affected);
  });
}

/** Replaces the keys of one rule of these customers, who keep their others (the scan's birthday pass). */
export async function replaceRuleKeys(store: Store, tenant: number, rule: Rule, ids: readonly string[], customers: readonly CustomerKeys[], options: { fresh: boolean }): Promise<void> {
  await store.db.transaction().execute(async (tx) => {
    if (!options.fresh) {
      for (const part of chunks(ids, ID_CHUNK)) await tx.deleteFrom("duplicate_keys").where("tenant", "=", tenant).where("rule", "=", rule).where("customer_id", "in", part).execute();
    }
    await insertKeys(tx, store.dialect, tenant, customers);
  });
}

/** Every key two or more customers share, with its customers. */
export async function sharedKeys(store: Store, tenant: number): Promise<SharedKey[]> {
  const rows = await store.db.selectFrom("duplicate_matches").select(["rule", "key", "customer_id"]).where("tenant", "=", tenant).execute();
  const groups = new Map<string, { rule: Rule; key: string; members: string[] }>();
  for (const row of rows) {
    if (!isRule(row.rule)) continue;
    const id = `${row.rule}\u0000${row.key}`;
    const group = groups.get(id) ?? { rule: row.rule, key: row.key, members: [] };
    group.members.push(row.customer_id);
    groups.set(id, group);
  }
  return [...groups.values()];
}

/** The keys of some customers (the merge's re-check compares them with fresh records). */
export async function keysOf(store: Store, tenant: number, ids: readonly string[]): Promise<Map<string, MatchKey[]>> {
  const out = new Map<string, MatchKey[]>();
  for (const part of chunks(ids, ID_CHUNK)) {
    const rows = await store.db.selectFrom("duplicate_keys").select(["customer_id", "rule", "key"]).where("tenant", "=", tenant).where("customer_id", "in", part).execute();
    for (const row of rows) if (isRule(row.rule)) out.set(row.customer_id, [...(out.get(row.customer_id) ?? []), { rule: row.rule, key: row.key }]);
  }
  return out;
}

// --- "Not the same person" ---

export async function dismissPair(store: Store, tenant: number, x: string, y: string, by: string | null, at: number): Promise<void> {
  const [a, b] = compareIds(x, y) <= 0 ? [x, y] : [y, x];
  await store.db
    .insertInto("duplicate_dismissals")
    .values({ tenant, customer_a: a, customer_b: b, dismissed_by: by, dismissed_at: at })
    .onConflict((oc) => oc.columns(["tenant", "customer_a", "customer_b"]).doNothing())
    .execute();
}

export async function dismissedPairs(store: Store, tenant: number): Promise<Set<string>> {
  const rows = await store.db.selectFrom("duplicate_dismissals").select(["customer_a", "customer_b"]).where("tenant", "=", tenant).execute();
  return new Set(rows.map((r) => pairKey(r.customer_a, r.customer_b)));
}

// --- History of merges ---

export type MergeOutcome = "merged" | "refused" | "skipped";

export type MergeRecord = {
  id: string;
  fromId: string;
  toId: string;
  rule: Rule | null;
  outcome: MergeOutcome;
  reason: string | null;
  identitiesRestored: number;
  taskId: string | null;
  mergedBy: string | null;
  mergedAt: number;
};

/**
 * Which of these customers were merged away through the finder. A webhook about one of them sent
 * before the merge (an identity added, say) can reach the index after it: its keys must not bring the
 * pair back before the platform's own merge notice removes the customer from the index.
 */
export async function mergedAway(store: Store, tenant: number, ids: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const part of chunks(ids, ID_CHUNK)) {
    const rows = await store.db.selectFrom("duplicate_merges").select("from_id").where("tenant", "=", tenant).where("outcome", "=", "merged").where("from_id", "in", part).execute();
    for (const row of rows) out.add(row.from_id);
  }
  return out;
}

export async function recordMerge(store: Store, tenant: number, record: Omit<MergeRecord, "id">): Promise<void> {
  await store.db
    .insertInto("duplicate_merges")
    .values({
      tenant,
      from_id: record.fromId,
      to_id: record.toId,
      rule: record.rule,
      outcome: record.outcome,
      reason: record.reason?.slice(0, 512) ?? null,
      identities_restored: record.identitiesRestored,
      task_id: record.taskId,
      merged_by: record.mergedBy?.slice(0, 512) ?? null,
      merged_at: record.mergedAt,
    })
    .execute();
}

export async function mergeHistory(store: Store, tenant: number, options: { limit: number; taskId?: string }): Promise<MergeRecord[]> {
  let query = store.db.selectFrom("duplicate_merges").selectAll().where("tenant", "=", tenant);
  if (options.taskId) query = query.where("task_id", "=", options.taskId);
  const rows = await query.orderBy("merged_at", "desc").orderBy("id", "desc").limit(options.limit).execute();
  return rows.map((r) => ({
    id: String(r.id),
    fromId: r.from_id,
    toId: r.to_id,
    rule: isRule(r.rule) ? r.rule : null,
    outcome: r.outcome as MergeOutcome,
    reason: r.reason,
    identitiesRestored: Number(r.identities_restored),
    taskId: r.task_id,
    mergedBy: r.merged_by,
    mergedAt: Number(r.merged_at),
  }));
}

/** Every row of the finder's tables for one tenant (the installation removed or its index reset). */
export async function clearTenantDuplicates(store: Store, tenant: number, options: { keepDecisions: boolean }): Promise<void> {
  await store.db.transaction().execute(async (tx) => {
    await tx.deleteFrom("duplicate_keys").where("tenant", "=", tenant).execute();
    await tx.deleteFrom("duplicate_matches").where("tenant", "=", tenant).execute();
    if (!options.keepDecisions) {
      await tx.deleteFrom("duplicate_dismissals").where("tenant", "=", tenant).execute();
      await tx.deleteFrom("duplicate_merges").where("tenant", "=", tenant).execute();
    }
  });
}
