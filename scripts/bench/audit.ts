/**
 * Benchmark of the audit log and the disconnect (README "Audit log and disconnect"; not a test;
 * `npm run bench -- audit`). One run, in this process, on SQLite (a file) and, with
 * TEST_DATABASE_URL, PostgreSQL (a schema of its own, dropped after):
 * - the Audit page's first page with AUDIT_BENCH_ENTRIES entries for the tenant (default 1,000,000)
 *   beside another tenant's: the store work of the page (page + filter choices + retention), without
 *   and with each filter, p50/p95 over 40 reads each. Target: p95 ≤ 300 ms.
 * - disconnect of a tenant with DISCONNECT_BENCH_CUSTOMERS indexed customers (default 1,000,000)
 *   and their tags: the whole removal (every table, found from the schema). Target ≤ 60 s.
 * Prints ratios to target and the load average of this one run.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

if (!process.execArgv.includes("--conditions=react-server")) {
  const result = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", import.meta.filename], { stdio: "inherit", env: { ...process.env, LOG_LEVEL: "warn" } });
  process.exit(result.status ?? 1);
}

const ENTRIES = Number(process.env.AUDIT_BENCH_ENTRIES ?? 1_000_000);
const CUSTOMERS = Number(process.env.DISCONNECT_BENCH_CUSTOMERS ?? 1_000_000);
const TARGET_PAGE_P95_MS = 300;
const TARGET_DISCONNECT_S = 60;
const KEY = { openAppId: "oa-bench", tenantId: "100" };
const OTHER = { openAppId: "oa-bench", tenantId: "200" };

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");

async function main() {
  const { sql } = await import("kysely");
  const { openStore } = await import("../../lib/store/database");
  const { listAuditEntries, auditFacets, auditRetentionDays } = await import("../../lib/audit/audit-store");
  const { removeTenantData } = await import("../../lib/tenant-data/disconnect");
  const { tenantHoldings } = await import("../../lib/tenant-data/tenant-tables");
  const { ensureTenant } = await import("../../lib/search/tenant-state");
  const { saveInstallation } = await import("../../lib/store/installations");
  const tokenKeys = [{ id: "bench", key: randomBytes(32) }];

  const dir = mkdtempSync(path.join(os.tmpdir(), "audit-bench-"));
  const stores: Array<{ name: string; open: () => Promise<Awaited<ReturnType<typeof openStore>>>; drop: () => Promise<void> }> = [
    { name: "sqlite", open: () => openStore({ database: { kind: "sqlite", file: path.join(dir, "bench.sqlite") }, tokenKeys }), drop: async () => rmSync(dir, { recursive: true, force: true }) },
  ];
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    const schema = `bench_${randomBytes(4).toString("hex")}`;
    stores.push({
      name: "postgres",
      open: () => openStore({ database: { kind: "postgres", url: pgUrl }, tokenKeys, schema }),
      drop: async () => {
        const pg = (await import("pg")).default;
        const client = new pg.Client({ connectionString: pgUrl });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      },
    });
  } else console.log("PostgreSQL skipped: set TEST_DATABASE_URL");

  for (const { name, open, drop } of stores) {
    const store = await open();
    const postgres = store.dialect === "postgres";
    try {
      // ── the audit log: ENTRIES for the tenant, 10% as many for another, one entry a minute back from now.
      let t0 = performance.now();
      const now = Date.now();
      const series = (n: number) => (postgres ? sql`SELECT g AS i FROM generate_series(1, ${n}) g` : sql`WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${n}) SELECT i FROM s`);
      const fill = async (key: typeof KEY, n: number) => {
        await sql`INSERT INTO audit_log (open_app_id, tenant_id, at, actor_id, actor_name, operation, method, outcome, status, reason, request_id, targets, changes)
          SELECT ${key.openAppId}, ${key.tenantId}, CAST(${now} AS BIGINT) - CAST(${n} - i AS BIGINT) * 60000, 'u' || (i % 7), 'Staff ' || (i % 7),
                 CASE i % 4 WHEN 0 THEN 'customers.update' WHEN 1 THEN 'customers.mergeById' WHEN 2 THEN 'deals.refund' ELSE 'preferences.put' END,
                 'POST', CASE WHEN i % 50 = 0 THEN 'refused' ELSE 'done' END, 200, NULL, 'req-' || i,
                 '[{"kind":"customer","id":"' || (9007199254740000 + i % 100000) || '"}]', '{"name":{"before":"a","after":"b"}}'
          FROM (${series(n)}) s`.execute(store.db);
        await sql`INSERT INTO audit_targets (open_app_id, tenant_id, target_id, entry_id)
          SELECT open_app_id, tenant_id, CAST(9007199254740000 + (id % 100000) AS TEXT), id FROM audit_log WHERE open_app_id = ${key.openAppId} AND tenant_id = ${key.tenantId}`.execute(store.db);
        await sql`INSERT INTO audit_facets (open_app_id, tenant_id, kind, value, label)
          SELECT DISTINCT open_app_id, tenant_id, 'actor', actor_id, actor_name FROM audit_log WHERE open_app_id = ${key.openAppId} AND tenant_id = ${key.tenantId}`.execute(store.db);
        await sql`INSERT INTO audit_facets (open_app_id, tenant_id, kind, value, label)
          SELECT DISTINCT open_app_id, tenant_id, 'operation', operation, NULL FROM audit_log WHERE open_app_id = ${key.openAppId} AND tenant_id = ${key.tenantId}`.execute(store.db);
      };
      await fill(KEY, ENTRIES);
      await fill(OTHER, Math.round(ENTRIES / 10));
      if (postgres) await sql`ANALYZE`.execute(store.db);
      console.log(`${name}: ${ENTRIES.toLocaleString("en")} audit entries written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

      const sampleTarget = String(9007199254740000 + 4242);
      const cases: Array<[string, Parameters<typeof listAuditEntries>[2]]> = [
        ["first page", {}],
        ["staff", { actorId: "u3" }],
        ["operation", { operation: "deals.refund" }],
        ["outcome refused", { outcome: "refused" }],
        ["customer", { targetId: sampleTarget }],
        ["last 7 days", { from: now - 7 * 86_400_000, to: now }],
        ["a day a year back", { from: now - 365 * 86_400_000, to: now - 364 * 86_400_000 }],
      ];
      for (const [label, filters] of cases) {
        const times: number[] = [];
        for (let i = 0; i < 40; i++) {
          t0 = performance.now();
          await Promise.all([listAuditEntries(store, KEY, filters, { limit: 50 }), auditFacets(store, KEY), auditRetentionDays(store, KEY)]);
          times.push(performance.now() - t0);
        }
        const p95 = percentile(times, 95);
        console.log(`${name}: Audit page (${label}): p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms = ${(p95 / TARGET_PAGE_P95_MS).toFixed(2)} × target ${TARGET_PAGE_P95_MS} ms; load ${load()}`);
      }

      // ── disconnect: CUSTOMERS indexed customers (two tags each) of the tenant, the same for another.
      t0 = performance.now();
      const tokens = { accessToken: "a", refreshToken: "r", accessTokenExpiresAt: now + 3_600_000 };
      await saveInstallation(store, { ...KEY, installedBy: "u0", tokens });
      const tenant = (await ensureTenant(store, KEY)).tenant;
      const other = (await ensureTenant(store, OTHER)).tenant;
      for (const tn of [tenant, other]) {
        const n = tn === tenant ? CUSTOMERS : Math.round(CUSTOMERS / 10);
        await sql`INSERT INTO customer_index (tenant, customer_id, display_name, name, email, search_text)
          SELECT ${tn}, CAST(9007199254740000 + i AS TEXT), 'Customer ' || i, 'Customer ' || i, 'c' || i || '@example.com', 'customer ' || i || ' c' || i || '@example.com'
          FROM (${series(n)}) s`.execute(store.db);
        await sql`INSERT INTO customer_index_tags (tenant, tag, customer_id) SELECT tenant, 'vip', customer_id FROM customer_index WHERE tenant = ${tn}`.execute(store.db);
        await sql`INSERT INTO customer_index_tags (tenant, tag, customer_id) SELECT tenant, 'new', customer_id FROM customer_index WHERE tenant = ${tn}`.execute(store.db);
        if (!postgres) await sql`INSERT INTO customer_fts (rowid, search_text) SELECT rowid, search_text FROM customer_index WHERE tenant = ${tn}`.execute(store.db);
      }
      if (postgres) await sql`ANALYZE`.execute(store.db);
      console.log(`${name}: ${CUSTOMERS.toLocaleString("en")} indexed customers written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      t0 = performance.now();
      await removeTenantData({ store, flushAudit: async () => {} }, KEY, { disconnected: true });
      const seconds = (performance.now() - t0) / 1000;
      const left = (await tenantHoldings(store, KEY)).reduce((sum, h) => sum + h.rows, 0);
      const otherLeft = (await tenantHoldings(store, OTHER)).reduce((sum, h) => sum + h.rows, 0);
      console.log(`${name}: disconnect of ${CUSTOMERS.toLocaleString("en")} indexed customers and ${ENTRIES.toLocaleString("en")} audit entries: ${seconds.toFixed(1)} s = ${(seconds / TARGET_DISCONNECT_S).toFixed(2)} × target ${TARGET_DISCONNECT_S} s; rows of the tenant left: ${left}; the other tenant's rows kept: ${otherLeft}; load ${load()}`);
    } finally {
      await store.close();
      await drop();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
