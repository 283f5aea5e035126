import "server-only";
import { sql } from "kysely";
import { clearTenantIndex } from "@/lib/search/index-store";
import type { Store } from "@/lib/store";
import type { InstallationKey } from "@/lib/store/installations";

/**
 * Every row the app keeps for a tenant, found from the schema itself rather than from a list, so a
 * table another feature adds is covered without code here: a table with `open_app_id` and
 * `tenant_id` holds that installation's rows; a table with a `tenant` column sits beside the people
 * index and holds the rows of the installation's `search_tenants.id`. (`environments` is keyed by the
 * environment alone and shared by its tenants; `webhook_tokens` and `auth_flow_nonces` hold nobody's data.)
 */

export type TenantTable = { name: string; by: "installation" | "index" };

const SYSTEM_TABLE = /^(sqlite_|kysely_)/;

/** The store's tables that hold a tenant's rows, read from the database's own catalogue. */
export async function tenantTables(store: Store): Promise<TenantTable[]> {
  const columns =
    store.dialect === "postgres"
      ? (await sql<{ table_name: string; column_name: string }>`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()`.execute(store.db)).rows
      : (await sql<{ table_name: string; column_name: string }>`SELECT m.name AS table_name, p.name AS column_name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table'`.execute(store.db)).rows;
  const byTable = new Map<string, Set<string>>();
  for (const { table_name, column_name } of columns) {
    if (SYSTEM_TABLE.test(table_name)) continue;
    byTable.set(table_name, (byTable.get(table_name) ?? new Set()).add(column_name));
  }
  const tables: TenantTable[] = [];
  for (const [name, cols] of [...byTable].sort(([a], [b]) => a.localeCompare(b))) {
    if (cols.has("open_app_id") && cols.has("tenant_id")) tables.push({ name, by: "installation" });
    else if (cols.has("tenant")) tables.push({ name, by: "index" });
  }
  return tables;
}

/** The installation's people-index keys (`search_tenants.id`): the `tenant` of the index's tables. */
export async function indexTenants(store: Store, key: InstallationKey): Promise<number[]> {
  const rows = await store.db.selectFrom("search_tenants").select("id").where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).execute();
  return rows.map((r) => Number(r.id));
}

const quoted = (name: string) => sql.id(name);

function whereTenant(table: TenantTable, key: InstallationKey, tenants: number[]) {
  return table.by === "installation"
    ? sql`open_app_id = ${key.openAppId} AND tenant_id = ${key.tenantId}`
    : tenants.length > 0
      ? sql`tenant IN (${sql.join(tenants)})`
      : sql`1 = 0`;
}

export type TableHolding = { table: string; rows: number };

/** How many rows of the tenant each table holds (the disconnect page's inventory, the test's proof). */
export async function tenantHoldings(store: Store, key: InstallationKey): Promise<TableHolding[]> {
  const tenants = await indexTenants(store, key);
  const out: TableHolding[] = [];
  for (const table of await tenantTables(store)) {
    const { rows } = await sql<{ n: number | string }>`SELECT count(*) AS n FROM ${quoted(table.name)} WHERE ${whereTenant(table, key, tenants)}`.execute(store.db);
    out.push({ table: table.name, rows: Number(rows[0]?.n ?? 0) });
  }
  return out;
}

/** The tenant's rows of one table, a page at a time (the JSON export), by the table's own row order. */
export async function tenantRows(store: Store, key: InstallationKey, table: TenantTable, tenants: number[], offset: number, limit: number): Promise<Record<string, unknown>[]> {
  const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${quoted(table.name)} WHERE ${whereTenant(table, key, tenants)} LIMIT ${limit} OFFSET ${offset}`.execute(store.db);
  return rows;
}

/**
 * Deletes every row of the tenant from every table that holds one (the audit log too unless `keep`
 * names it). The people index first (its SQLite full-text rows have no tenant column and go with
 * the rows they index), then every other table; returns the rows deleted per table.
 */
export async function deleteTenantRows(store: Store, key: InstallationKey, options: { keep?: readonly string[] } = {}): Promise<TableHolding[]> {
  const keep = new Set(options.keep ?? []);
  const tenants = await indexTenants(store, key);
  for (const tenant of tenants) await clearTenantIndex(store, tenant);
  const out: TableHolding[] = [];
  const tables = (await tenantTables(store)).filter((t) => !keep.has(t.name));
  // The index's tables while `search_tenants` still names their keys; then the installation's.
  for (const table of [...tables.filter((t) => t.by === "index"), ...tables.filter((t) => t.by === "installation")]) {
    const result = await sql`DELETE FROM ${quoted(table.name)} WHERE ${whereTenant(table, key, tenants)}`.execute(store.db);
    out.push({ table: table.name, rows: Number(result.numAffectedRows ?? 0) });
  }
  return out;
}
