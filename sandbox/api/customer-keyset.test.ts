import { describe, expect, it } from "vitest";
import { seedSandbox } from "../seed/seed";
import { customerFilter, customerPageSql, type CustomerPage } from "./customer-query";
import type { ApiContext } from "./common";
import { startApiKitForFile } from "./testkit";

/**
 * The console pages the customers list by keyset when it is sorted by id (§4.1 `idFrom`/`idTo`
 * with `page=1`, see lib/customers/id-keyset.ts). These tests hold the sandbox to making that cheap:
 * the id range seeks the `(tenant_id, id)` index, and keyset pages equal the offset pages.
 */

const kit = await startApiKitForFile();
const TENANT = 80000000001;
seedSandbox(kit.sandbox.ctx, { customers: 3000 });

const context = (query: Record<string, string>) => ({ req: { query: (name: string) => query[name] } }) as unknown as ApiContext;

function plan(query: Record<string, string>, paging: Partial<CustomerPage> = {}): string {
  const db = kit.sandbox.ctx.db;
  const { sql, params } = customerPageSql(db, customerFilter(context(query), TENANT, true), { rows: 1000, page: 1, sidx: "id", sord: "asc", ...paging });
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail).join(" | ");
}

describe("keyset paging on id (§4.1 idFrom / idTo)", () => {
  it("an id range in id order seeks the (tenant_id, id) index, in both directions, with no sort", () => {
    for (const [query, sord] of [[{ idFrom: "9007199254741993" }, "asc"], [{ idTo: "9007199254741993" }, "desc"], [{ idFrom: "9007199254741000", idTo: "9007199254742000" }, "asc"]] as const) {
      const detail = plan(query, { sord });
      expect(detail, JSON.stringify(query)).toMatch(/SEARCH customers USING INDEX customers_tenant_id \(tenant_id=\? AND id[<>]/);
      expect(detail).not.toMatch(/TEMP B-TREE/);
    }
  });

  it("an id range alone needs no probe of the range's size (one statement per page)", async () => {
    const db = kit.sandbox.ctx.db;
    const prepare = db.prepare.bind(db);
    const seen: string[] = [];
    db.prepare = ((sql: string) => {
      seen.push(sql);
      return prepare(sql);
    }) as typeof db.prepare;
    try {
      const res = await kit.call("GET", "/v1/customers", { query: { rows: 20, idFrom: "9007199254741993", select: "id" } });
      expect(res.json.rows).toHaveLength(20);
    } finally {
      db.prepare = prepare;
    }
    expect(seen.filter((sql) => /FROM customers/.test(sql) && /count\(\*\)/.test(sql))).toEqual([]);
  });

  it("with an equality filter the id range rides on that filter's (tenant_id, col, id) index", () => {
    expect(plan({ idFrom: "9007199254741993", stage: "潜在客户" })).toMatch(/USING INDEX customers_stage \(tenant_id=\? AND stage=\? AND id>\?\)/);
    expect(plan({ idFrom: "9007199254741993", source: "web" })).toMatch(/USING INDEX customers_source \(tenant_id=\? AND source=\? AND id>\?\)/);
    expect(plan({ idFrom: "9007199254741993", dateCreatedFrom: "2000-01-01T00:00:00" })).not.toMatch(/TEMP B-TREE/);
  });

  it("walking by keyset gives the offset pages, ascending and descending", async () => {
    for (const sord of ["asc", "desc"] as const) {
      const offsetPages: string[][] = [];
      for (let page = 1; page <= 3; page++) {
        const res = await kit.call("GET", "/v1/customers", { query: { rows: 50, page, sord, select: "id" } });
        offsetPages.push(res.json.rows.map((r: { id: bigint }) => String(r.id)));
      }
      const keysetPages: string[][] = [offsetPages[0]!];
      for (let page = 2; page <= 3; page++) {
        const last = BigInt(keysetPages.at(-1)!.at(-1)!);
        const range: Record<string, string> = sord === "asc" ? { idFrom: String(last + 1n) } : { idTo: String(last - 1n) };
        const res = await kit.call("GET", "/v1/customers", { query: { rows: 50, page: 1, sord, select: "id", ...range } });
        keysetPages.push(res.json.rows.map((r: { id: bigint }) => String(r.id)));
      }
      expect(keysetPages, sord).toEqual(offsetPages);
    }
  });
});
