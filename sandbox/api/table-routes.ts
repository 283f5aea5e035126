import type { SandboxDb } from "../db";
import { sendJson } from "../http";
import { handle, parseId, sendNotFound, type Json } from "./common";
import { selectPage, SqlFilter } from "./paging";

/** GET of a tenant's table as `{page, records, total, rows}` (§4.4 lists, §4.5 tags). */
export function pageRoute<Row>(db: SandboxDb, query: { table: string; columns: string; sorts: Record<string, string> }, toJson: (row: Row) => Json) {
  return handle((c, tenant) => {
    const result = selectPage<Row>(c, db, { ...query, filter: new SqlFilter("tenant_id = ?", tenant) });
    return sendJson(c, { ...result, rows: result.rows.map(toJson) });
  });
}

/**
 * DELETE of the tenant's row named by the route's `:id` (§4.4 lists, §4.5 tags): `statements` (each
 * given the row id) remove what hangs on it and the row, in one transaction. 204, or 404 when the
 * tenant has no such row.
 */
export function deleteRoute(
  db: SandboxDb,
  what: string,
  find: (tenant: number, id: bigint | null) => { id: bigint } | undefined,
  statements: string[],
  deleted: (tenant: number, id: bigint) => void,
) {
  return handle((c, tenant) => {
    const row = find(tenant, parseId(c.req.param("id")));
    if (!row) return sendNotFound(c, `${what} ${c.req.param("id")}`);
    db.transaction(() => {
      for (const sql of statements) db.prepare(sql).run(row.id);
    })();
    deleted(tenant, row.id);
    return c.body(null, 204);
  });
}
