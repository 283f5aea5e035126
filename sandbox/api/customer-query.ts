import type { SandboxDb } from "../db";
import { QueryError, parseIdList, queryBool, queryId, querySord, queryTime, queryTimeEnd, type ApiContext } from "./common";
import { customerStore, type CustomerRow } from "./customer-store";
import { queryPage, SqlFilter } from "./paging";

/** §4.1 GET /v1/customers `sidx` values and their columns (each with a `(tenant_id, col, id)` index where it matters). */
const SORT_COLUMNS: Record<string, string> = {
  id: "id",
  dateCreated: "date_created",
  lastUpdated: "last_updated",
  stage: "stage",
  source: "source",
  gender: "gender",
  name: "name",
  mobile: "mobile",
  email: "email",
};

/** `rangeOnly`: besides the tenant, only time or id ranges (no equality filter to lead with). */
export type CustomerFilter = { where: string[]; params: unknown[]; rangeOnly?: boolean };

/** Builds the WHERE clause of §4.1 customer queries and counts from the query string. */
export function customerFilter(c: ApiContext, tenant: number, withIdentity: boolean): CustomerFilter {
  const filter = new SqlFilter("tenant_id = ?", tenant);
  const eq = (name: string, column: string) => filter.addIf(`${column} = ?`, c.req.query(name) || undefined);
  const stage = c.req.query("stage");
  if (stage === "_empty") filter.add("stage IS NULL");
  else eq("stage", "stage");
  eq("source", "source");
  eq("mobile", "mobile");
  eq("email", "email");
  const gender = c.req.query("gender");
  if (gender !== undefined && gender !== "") {
    if (!["0", "1", "2"].includes(gender)) throw new QueryError("gender", "gender must be 0, 1 or 2");
    // §2.1: 0 or empty both mean unknown.
    if (gender === "0") filter.add("(gender = 0 OR gender IS NULL)");
    else filter.add("gender = ?", Number(gender));
  }
  for (const [name, column] of [["hasMobile", "mobile"], ["hasEmail", "email"]] as const) {
    if (c.req.query(name) === undefined || c.req.query(name) === "") continue;
    filter.add(queryBool(c, name, false) ? `${column} IS NOT NULL` : `${column} IS NULL`);
  }
  if (withIdentity) {
    const type = c.req.query("identityType");
    const value = c.req.query("identityValue");
    if (value && !type) throw new QueryError("identityType", "identityType is required with identityValue");
    if (type) {
      const cond = value ? "AND value = ?" : "";
      filter.add(`id IN (SELECT customer_id FROM customer_identities WHERE tenant_id = ? AND type = ? ${cond})`, tenant, type, ...(value ? [value] : []));
    }
  }
  const idList = c.req.query("idList");
  if (idList !== undefined && idList !== "") {
    const ids = parseIdList(idList);
    if (ids === null) throw new QueryError("idList", "idList must be comma-separated customer ids");
    if (ids.length > 1000) throw new QueryError("idList", "idList may hold at most 1000 ids");
    filter.add(`id IN (${ids.map(() => "?").join(",") || "NULL"})`, ...ids);
  }
  filter.addIf("date_created >= ?", queryTime(c, "dateCreatedFrom")).addIf("date_created <= ?", queryTimeEnd(c, "dateCreatedTo"));
  filter.addIf("last_updated >= ?", queryTime(c, "lastUpdatedFrom")).addIf("last_updated <= ?", queryTimeEnd(c, "lastUpdatedTo"));
  if (withIdentity) filter.addIf("id >= ?", queryId(c, "idFrom")).addIf("id <= ?", queryId(c, "idTo"));
  const { where, params } = filter;
  const rangeOnly = where.slice(1).every((w) => /^(date_created|last_updated|id) [<>]=/.test(w));
  return { where, params, rangeOnly };
}

export const MAX_CUSTOMER_ROWS = 1000;

export type CustomerPage = { rows: number; page: number; sidx: string; sord: "asc" | "desc" };

export function customerPaging(c: ApiContext): CustomerPage {
  const { rows, page } = queryPage(c, MAX_CUSTOMER_ROWS, 10_000_000);
  const sidx = c.req.query("sidx") || "id";
  if (!(sidx in SORT_COLUMNS)) throw new QueryError("sidx", `sidx must be one of ${Object.keys(SORT_COLUMNS).join(", ")}`);
  return { rows, page, sidx, sord: querySord(c) };
}

const COLUMNS = "id, doc, date_created, last_updated";

/**
 * One page of customers. Unfiltered id order (the default listing) seeks through the rank blocks,
 * so page 5000 costs what page 1 costs; filtered or other orders walk a `(tenant_id, …, id)` index.
 */
export function findCustomers(db: SandboxDb, tenant: number, filter: CustomerFilter, paging: CustomerPage): CustomerRow[] {
  const offset = (paging.page - 1) * paging.rows;
  if (filter.where.length === 1 && paging.sidx === "id") return seekById(db, tenant, offset, paging.rows, paging.sord);
  const { sql, params } = customerPageSql(db, filter, paging);
  return db.prepare(sql).safeIntegers(true).all(...params) as CustomerRow[];
}

/**
 * The SQL of a filtered or non-id page (exported for the query-plan tests). An id range alone in
 * id order (the console's keyset paging: `idFrom` = last id + 1, `page=1`) seeks the
 * `(tenant_id, id)` index directly: its cost does not depend on how deep the page is, and no probe
 * is needed (the range is walked in index order and stops after `rows`).
 */
export function customerPageSql(db: SandboxDb, filter: CustomerFilter, paging: CustomerPage): { sql: string; params: unknown[] } {
  const offset = (paging.page - 1) * paging.rows;
  const dir = paging.sord === "desc" ? "DESC" : "ASC";
  const column = SORT_COLUMNS[paging.sidx]!;
  const order = column === "id" ? `id ${dir}` : `${column} ${dir}, id ${dir}`;
  const idRangeOnly = filter.where.length > 1 && filter.where.slice(1).every((w) => /^id [<>]=/.test(w));
  const hint = column === "id" && filter.rangeOnly && (idRangeOnly || wideRange(db, filter)) ? "INDEXED BY customers_tenant_id" : "";
  return {
    sql: `SELECT ${COLUMNS} FROM customers ${hint} WHERE ${filter.where.join(" AND ")} ORDER BY ${order} LIMIT ? OFFSET ?`,
    params: [...filter.params, paging.rows, offset],
  };
}

/**
 * A time range in id order: SQLite would read the range from its index and sort it. When the range
 * holds many customers, walking the ids in order and filtering is far cheaper; a small range keeps
 * the range index (the sort is then small).
 */
const WIDE_RANGE = 2000;
function wideRange(db: SandboxDb, filter: CustomerFilter): boolean {
  const probe = db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM customers WHERE ${filter.where.join(" AND ")} LIMIT ${WIDE_RANGE})`).get(...filter.params) as { n: number };
  return probe.n >= WIDE_RANGE;
}

function seekById(db: SandboxDb, tenant: number, offset: number, rows: number, sord: "asc" | "desc"): CustomerRow[] {
  const blocks = customerStore(db).rankBlocks(tenant);
  if (sord === "desc") blocks.reverse();
  let before = 0;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    const count = Number(block.count);
    if (before + count > offset) {
      const skip = offset - before;
      if (sord === "asc") {
        return db
          .prepare(`SELECT ${COLUMNS} FROM customers WHERE tenant_id = ? AND id >= ? ORDER BY id ASC LIMIT ? OFFSET ?`)
          .safeIntegers(true)
          .all(tenant, block.first_id, rows, skip) as CustomerRow[];
      }
      // Descending: start below the first id of the block that follows (in ascending order).
      const upper = i === 0 ? undefined : blocks[i - 1]!.first_id;
      return db
        .prepare(`SELECT ${COLUMNS} FROM customers WHERE tenant_id = ? ${upper === undefined ? "" : "AND id < ?"} ORDER BY id DESC LIMIT ? OFFSET ?`)
        .safeIntegers(true)
        .all(...(upper === undefined ? [tenant] : [tenant, upper]), rows, skip) as CustomerRow[];
    }
    before += count;
  }
  return [];
}

/** §4.1 GET /v1/customers/count. Unfiltered counts come from the rank blocks. */
export function countCustomers(db: SandboxDb, tenant: number, filter: CustomerFilter): number {
  if (filter.where.length === 1) return customerStore(db).rankBlocks(tenant).reduce((n, b) => n + Number(b.count), 0);
  const row = db.prepare(`SELECT count(*) AS n FROM customers WHERE ${filter.where.join(" AND ")}`).get(...filter.params) as { n: number };
  return row.n;
}
