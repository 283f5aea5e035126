import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../app";
import { loadSandboxConfig } from "../config";
import type { SandboxContext } from "../context";
import "../parts";
import { startApiKit, type ApiKit } from "../api/testkit";
import { seedSandbox } from "./seed";

function freshContext(): SandboxContext {
  const ctx = createContext({ ...loadSandboxConfig({}), dbFile: ":memory:" });
  return ctx;
}

const count = (ctx: SandboxContext, sql: string, ...params: unknown[]) => (ctx.db.prepare(sql).get(...params) as { n: number }).n;

describe("seeder", () => {
  it("is deterministic: the same seed on a fresh sandbox gives the same data", () => {
    const digest = (ctx: SandboxContext) =>
      JSON.stringify(ctx.db.prepare("SELECT id, name, mobile, email, stage, doc FROM customers ORDER BY id").safeIntegers(true).all(), (_k, v) => (typeof v === "bigint" ? v.toString() : v));
    const a = freshContext();
    const b = freshContext();
    // The same clock reading on both, so that dates match too.
    const now = Date.now();
    a.clock.advance((now - a.clock.nowMs()) / 1000);
    b.clock.advance((now - b.clock.nowMs()) / 1000);
    seedSandbox(a, { customers: 200 });
    seedSandbox(b, { customers: 200 });
    expect(digest(a)).toBe(digest(b));
    a.db.close();
    b.db.close();
  });

  it("is deterministic across every table: two seeds of the same size hash the same (rows come from the generator worker)", () => {
    const tables = ["customers", "customer_identities", "customer_md5_identities", "customer_events", "deals", "refunds", "list_members", "customer_tags"];
    const hash = (ctx: SandboxContext) => {
      const h = createHash("sha256");
      for (const table of tables) {
        // Every column, in a stable order (customer_tags has no id column).
        for (const row of ctx.db.prepare(`SELECT * FROM ${table} ORDER BY ${table === "customer_tags" ? "customer_id, tag_id" : "id"}`).safeIntegers(true).iterate()) {
          h.update(JSON.stringify(row, (_k, v) => (typeof v === "bigint" ? v.toString() : v)));
        }
        h.update(`|${table}|`);
      }
      return h.digest("hex");
    };
    const [a, b] = [freshContext(), freshContext()];
    // One frozen clock reading for all (a seed of this size takes longer than a millisecond).
    const now = Date.now();
    for (const ctx of [a, b]) ctx.clock.nowMs = () => now;
    // More than one batch of 5000, so that several batches cross from the worker.
    seedSandbox(a, { customers: 6_000 });
    seedSandbox(b, { customers: 6_000 });
    expect(count(a, "SELECT count(*) AS n FROM customer_events")).toBeGreaterThan(5_000);
    expect(hash(a)).toBe(hash(b));
    // A different size gives different data (the hash is not blind).
    const c = freshContext();
    c.clock.nowMs = () => now;
    seedSandbox(c, { customers: 5_999 });
    expect(hash(c)).not.toBe(hash(a));
    for (const ctx of [a, b, c]) ctx.db.close();
  }, 60_000); // three seeds of ≈ 6,600 customers: room for a loaded 2-core machine

  it("seeds shops in two groups (two left out); alpha's first group has the id the README names", () => {
    const ctx = freshContext();
    seedSandbox(ctx, { customers: 10 });
    const alpha = ctx.config.environments[0]!.tenant.id;
    const rows = ctx.db
      .prepare("SELECT g.id, g.name, count(m.store_id) AS n FROM store_groups g LEFT JOIN store_group_members m ON m.group_id = g.id WHERE g.tenant_id = ? GROUP BY g.id ORDER BY g.id")
      .safeIntegers(true)
      .all(alpha) as Array<{ id: bigint; name: string; n: bigint }>;
    expect(rows.map((r) => [String(r.id), r.name, Number(r.n)])).toEqual([
      ["9007199254741992", "华东门店", 6],
      ["9007199254741993", "华南及其他门店", 4],
    ]);
    expect(count(ctx, "SELECT count(*) AS n FROM stores WHERE tenant_id = ? AND id NOT IN (SELECT store_id FROM store_group_members)", alpha)).toBe(2);
    ctx.db.close();
  });

  it("fills both tenants with every kind of data (beta smaller) and respects ifEmpty", () => {
    const ctx = freshContext();
    const [alpha, beta] = ctx.config.environments.map((e) => e.tenant.id) as [number, number];
    seedSandbox(ctx, { customers: 1000 });
    expect(count(ctx, "SELECT count(*) AS n FROM customers WHERE tenant_id = ?", alpha)).toBe(1000);
    expect(count(ctx, "SELECT count(*) AS n FROM customers WHERE tenant_id = ?", beta)).toBe(100);
    for (const type of ["mobile", "email", "messenger", "messenger-unionid"]) {
      expect(count(ctx, "SELECT count(*) AS n FROM customer_identities WHERE tenant_id = ? AND type = ?", alpha, type), type).toBeGreaterThan(0);
    }
    expect(count(ctx, "SELECT count(*) AS n FROM customer_md5_identities WHERE tenant_id = ? AND md5type = 'common'", alpha)).toBeGreaterThan(0);
    expect(count(ctx, "SELECT count(*) AS n FROM customer_md5_identities WHERE tenant_id = ? AND md5type = 'marketplace'", alpha)).toBeGreaterThan(0);
    expect(count(ctx, "SELECT count(*) AS n FROM customer_events WHERE tenant_id = ? AND event LIKE 'c\\_%' ESCAPE '\\'", alpha)).toBeGreaterThan(0);
    expect(count(ctx, "SELECT count(*) AS n FROM customer_events WHERE tenant_id = ? AND event NOT LIKE 'c\\_%' ESCAPE '\\'", alpha)).toBeGreaterThan(0);
    expect(count(ctx, "SELECT count(*) AS n FROM customer_events WHERE tenant_id = ? AND date < ?", alpha, ctx.clock.nowMs() - 61 * 86_400_000)).toBe(0);
    expect(count(ctx, "SELECT count(*) AS n FROM deals WHERE tenant_id = ?", alpha)).toBeGreaterThan(0);
    expect(count(ctx, "SELECT count(*) AS n FROM refunds WHERE tenant_id = ?", alpha)).toBeGreaterThan(0);
    expect(count(ctx, "SELECT count(*) AS n FROM list_members WHERE tenant_id = ?", alpha)).toBeGreaterThan(0);
    expect(count(ctx, "SELECT count(*) AS n FROM customer_tags WHERE tenant_id = ?", alpha)).toBeGreaterThan(0);
    expect(count(ctx, "SELECT count(*) AS n FROM tag_dimensions WHERE tenant_id = ? AND dimension_key IN ('basic','interests','consumptive_habit')", alpha)).toBe(3);
    expect(count(ctx, "SELECT count(*) AS n FROM stores WHERE tenant_id = ?", alpha)).toBeGreaterThan(0);
    const sample = ctx.db.prepare("SELECT name, mobile FROM customers WHERE tenant_id = ? AND name IS NOT NULL AND mobile IS NOT NULL LIMIT 1").get(alpha) as { name: string; mobile: string };
    expect(sample.name).toMatch(/^[\u4e00-\u9fa5]{2,3}$/);
    expect(sample.mobile).toMatch(/^\+86 1\d{10}$/);

    const again = seedSandbox(ctx, { customers: 1000, ifEmpty: true });
    expect(again.tenants.every((t) => t.skipped)).toBe(true);
    expect(count(ctx, "SELECT count(*) AS n FROM customers WHERE tenant_id = ?", alpha)).toBe(1000);
    // A second seed without ifEmpty adds customers without clashing identities, even after deletions.
    ctx.db.prepare("DELETE FROM customers WHERE id IN (SELECT id FROM customers WHERE tenant_id = ? ORDER BY id LIMIT 10)").run(alpha);
    seedSandbox(ctx, { customers: 200 });
    expect(count(ctx, "SELECT count(*) AS n FROM customers WHERE tenant_id = ?", alpha)).toBe(1190);
    ctx.db.close();
  });
});

describe("deep paging over seeded data", () => {
  let kit: ApiKit;
  beforeAll(async () => {
    kit = await startApiKit();
    seedSandbox(kit.sandbox.ctx, { customers: 5000 });
  });
  afterAll(() => kit.close());

  it("§4.1 page N through the rank blocks equals plain id order, ascending and descending, after deletes too", async () => {
    const tenant = kit.sandbox.ctx.config.environments[0]!.tenant.id;
    const ids = () => (kit.sandbox.ctx.db.prepare("SELECT id FROM customers WHERE tenant_id = ? ORDER BY id").safeIntegers(true).all(tenant) as Array<{ id: bigint }>).map((r) => r.id);
    const check = async () => {
      const all = ids();
      for (const [page, sord] of [[1, "asc"], [2, "asc"], [52, "asc"], [100, "asc"], [1, "desc"], [52, "desc"], [101, "desc"]] as const) {
        const res = await kit.call("GET", "/v1/customers", { query: { rows: 50, page, sord, select: "id" } });
        const expected = (sord === "asc" ? all : [...all].reverse()).slice((page - 1) * 50, page * 50);
        expect(res.json.rows.map((r: { id: bigint }) => r.id), `${sord} page ${page}`).toEqual(expected);
      }
    };
    await check();
    const all = ids();
    for (const id of [all[0], all[1030], all[2500], all[4999]]) expect((await kit.call("DELETE", `/v1/customers/${id}`)).status).toBe(204);
    await kit.call("POST", "/v1/customers", { body: { name: "新来的" } });
    await check();
    expect((await kit.call("GET", "/v1/customers/count")).json).toBe(ids().length);
  });

  it("POST /__sandbox/seed seeds through the control plane", async () => {
    const res = await fetch(`${kit.sandbox.urls.alpha}/__sandbox/seed`, { method: "POST", body: JSON.stringify({ customers: 10, ifEmpty: true }) });
    expect(res.status).toBe(200);
    expect((await res.json()).tenants[0].skipped).toBe(true);
    const bad = await fetch(`${kit.sandbox.urls.alpha}/__sandbox/seed`, { method: "POST", body: JSON.stringify({ customers: -1 }) });
    expect(bad.status).toBe(400);
  });
});
