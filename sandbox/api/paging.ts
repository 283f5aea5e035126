import type { SandboxDb } from "../db";
import { queryChoice, queryInt, querySord, type ApiContext } from "./common";

/** The WHERE clause of a query under construction: conditions and the values of their `?`s. */
export class SqlFilter {
  readonly where: string[] = [];
  readonly params: unknown[] = [];

  constructor(condition: string, ...params: unknown[]) {
    this.add(condition, ...params);
  }

  add(condition: string, ...params: unknown[]): this {
    this.where.push(condition);
    this.params.push(...params);
    return this;
  }

  /** An optional filter: `condition` (one `?`) only when the value was given. */
  addIf(condition: string, value: unknown): this {
    return value === undefined ? this : this.add(condition, value);
  }

  get sql(): string {
    return this.where.join(" AND ");
  }
}

/** `rows` (default 20, at most `maxRows`) and `page` (from 1) of a paged list. */
export function queryPage(c: ApiContext, maxRows = 1000, maxPage = 1_000_000): { rows: number; page: number } {
  return { rows: queryInt(c, "rows", 20, 1, maxRows), page: queryInt(c, "page", 1, 1, maxPage) };
}

/**
 * `sidx` (one of `sorts`, which maps it to a column; `fallback` is a column) and `sord` as an
 * ORDER BY that ends on the id, so that equal sort values keep a stable order between pages.
 */
export function queryOrder(c: ApiContext, sorts: Record<string, string>, fallback: string): { column: string; sord: "asc" | "desc"; sql: string } {
  const column = queryChoice(c, "sidx", sorts, fallback);
  const sord = querySord(c);
  const dir = sord === "desc" ? "DESC" : "ASC";
  return { column, sord, sql: column === "id" ? `id ${dir}` : `${column} ${dir}, id ${dir}` };
}

/**
 * One page of a table for the `{page, records, total, rows}` answers (§4.4 lists, §4.5 tags, §4.2
 * orders): `rows`, `page`, `sidx` among `sorts`, `sord`; `records` counts the matches of `filter`
 * and `total` is the number of pages.
 */
export function selectPage<Row>(
  c: ApiContext,
  db: SandboxDb,
  query: { table: string; columns: string; filter: SqlFilter; sorts: Record<string, string>; fallback?: string },
) {
  const { table, columns, filter } = query;
  const { rows, page } = queryPage(c);
  const order = queryOrder(c, query.sorts, query.fallback ?? "id");
  const records = (db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${filter.sql}`).get(...filter.params) as { n: number }).n;
  const found = db
    .prepare(`SELECT ${columns} FROM ${table} WHERE ${filter.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`)
    .safeIntegers(true)
    .all(...filter.params, rows, (page - 1) * rows) as Row[];
  return { page, records, total: Math.ceil(records / rows), rows: found };
}
