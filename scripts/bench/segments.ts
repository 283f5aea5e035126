/**
 * Benchmark of segments (README "Segments"; not a test; `npm run bench -- segments`). One run:
 * - count of a 4-condition segment (stage, tag, two or more orders, last order within 30 days) and
 *   the first preview page, p50/p95 over SEGMENTS_BENCH_QUERIES runs, at SEGMENTS_BENCH_CUSTOMERS
 *   (default 1,000,000) customers written straight into the index tables (the index's own sync is
 *   benchmarked by customer-index.ts), on SQLite and, with TEST_DATABASE_URL, PostgreSQL;
 * - sync of a SEGMENTS_BENCH_MEMBERS-member segment (default 100,000) into an empty list of the
 *   Platform Sandbox over loopback, the list read back and compared, then a re-sync after 1 % of
 *   the members changed: its member calls against what the change needs at least.
 * Targets: count p95 ≤ 200 ms, preview p95 ≤ 300 ms, sync ≤ 5 min and exact, re-sync ≤ 1 % extra calls.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { startFileSandbox } from "./support/file-sandbox";
import { benchStores } from "./support/bench-stores";

if (!process.execArgv.includes("--conditions=react-server")) {
  const result = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", import.meta.filename], { stdio: "inherit", env: { ...process.env, LOG_LEVEL: "warn" } });
  process.exit(result.status ?? 1);
}

const CUSTOMERS = Number(process.env.SEGMENTS_BENCH_CUSTOMERS ?? 1_000_000);
const MEMBERS = Number(process.env.SEGMENTS_BENCH_MEMBERS ?? 100_000);
const QUERIES = Number(process.env.SEGMENTS_BENCH_QUERIES ?? 30);
const TARGET_COUNT_MS = 200;
const TARGET_PREVIEW_MS = 300;
const TARGET_SYNC_S = 300;

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const load = () => os.loadavg().map((n) => n.toFixed(1)).join(" / ");

async function main() {
  const { sql } = await import("kysely");
  const { openStore } = await import("../../lib/store/database");
  const { ensureTenant } = await import("../../lib/search/tenant-state");
  const { definitionSchema } = await import("../../lib/segments/segment-conditions");
  const { countSegment, previewSegment } = await import("../../lib/segments/segment-query");
  console.log(`load average at start (1/5/15 min): ${load()}`);

  const { sandbox, dir, close } = await startFileSandbox("segments-bench");
  const { stores: dialects, drop: dropPg } = await benchStores(dir, "bench_segments");
  try {

    const now = Date.now();
    const definition = definitionSchema.parse({
      match: "all",
      conditions: [
        { field: "stage", op: "is", values: ["意向客户"] },
        { field: "tags", op: "any", values: ["VIP"] },
        { field: "orderCount", op: "gte", value: 2 },
        { field: "daysSinceLastOrder", op: "lte", value: 30 },
      ],
    });

    // SEGMENTS_BENCH_ONLY=count or =sync runs one half.
    const only = process.env.SEGMENTS_BENCH_ONLY;
    for (const dialect of only === "sync" ? [] : dialects) {
      const store = await openStore({ database: dialect.database, tokenKeys: [{ id: "b", key: randomBytes(32) }] });
      try {
        const { tenant } = await ensureTenant(store, { openAppId: "bench", tenantId: "1" });
        const filled = Date.now();
        // Rows made by the database itself (a series 1..N): stage 1 in 5, VIP 1 in 10, orders 0–5, last order 0–119 days ago.
        if (store.dialect === "sqlite") {
          const series = sql`WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${CUSTOMERS})`;
          await sql`${series} INSERT INTO customer_index (tenant, customer_id, display_name, name, stage, source, gender, date_created, last_updated, search_text)
            SELECT ${tenant}, CAST(1000000000 + i AS TEXT), 'P' || i, 'P' || i,
              CASE i % 5 WHEN 0 THEN '意向客户' WHEN 1 THEN 'customer' WHEN 2 THEN 'lead' ELSE NULL END,
              CASE i % 4 WHEN 0 THEN '小程序' WHEN 1 THEN 'web' ELSE 'store' END, i % 3,
              strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-' || (i % 700) || ' days'), strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-' || (i % 90) || ' days'), ''
            FROM s`.execute(store.db);
          await sql`${series} INSERT INTO customer_index_tags (tenant, tag, customer_id) SELECT ${tenant}, 'VIP', CAST(1000000000 + i AS TEXT) FROM s WHERE i % 10 = 0`.execute(store.db);
          await sql`${series} INSERT INTO customer_index_tags (tenant, tag, customer_id) SELECT ${tenant}, 'new', CAST(1000000000 + i AS TEXT) FROM s WHERE i % 7 = 0`.execute(store.db);
          await sql`${series} INSERT INTO customer_facts (tenant, customer_id, order_count, order_amount, last_order_at, activity_score, refreshed_at)
            SELECT ${tenant}, CAST(1000000000 + i AS TEXT), i % 6, (i % 6) * 35.5, CASE WHEN i % 6 = 0 THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%S', 'now', '-' || (i % 120) || ' days') END, i % 50, ${now}
            FROM s`.execute(store.db);
          await sql`ANALYZE`.execute(store.db);
        } else {
          const series = sql`FROM generate_series(1, ${CUSTOMERS}) AS s(i)`;
          await sql`INSERT INTO customer_index (tenant, customer_id, display_name, name, stage, source, gender, date_created, last_updated, search_text)
            SELECT ${tenant}, (1000000000 + i)::text, 'P' || i, 'P' || i,
              CASE i % 5 WHEN 0 THEN '意向客户' WHEN 1 THEN 'customer' WHEN 2 THEN 'lead' ELSE NULL END,
              CASE i % 4 WHEN 0 THEN '小程序' WHEN 1 THEN 'web' ELSE 'store' END, i % 3,
              to_char(now() - (i % 700) * interval '1 day', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), to_char(now() - (i % 90) * interval '1 day', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), '' ${series}`.execute(store.db);
          await sql`INSERT INTO customer_index_tags (tenant, tag, customer_id) SELECT ${tenant}, 'VIP', (1000000000 + i)::text ${series} WHERE i % 10 = 0`.execute(store.db);
          await sql`INSERT INTO customer_index_tags (tenant, tag, customer_id) SELECT ${tenant}, 'new', (1000000000 + i)::text ${series} WHERE i % 7 = 0`.execute(store.db);
          await sql`INSERT INTO customer_facts (tenant, customer_id, order_count, order_amount, last_order_at, activity_score, refreshed_at)
            SELECT ${tenant}, (1000000000 + i)::text, i % 6, (i % 6) * 35.5, CASE WHEN i % 6 = 0 THEN NULL ELSE to_char(now() - (i % 120) * interval '1 day', 'YYYY-MM-DD"T"HH24:MI:SS') END, i % 50, ${now} ${series}`.execute(store.db);
          await sql`ANALYZE`.execute(store.db);
        }
        console.log(`${dialect.name}: ${CUSTOMERS.toLocaleString("en")} customers written into the index tables in ${((Date.now() - filled) / 1000).toFixed(1)} s`);
        const counts: number[] = [];
        const previews: number[] = [];
        let count = 0;
        for (let i = 0; i < QUERIES; i++) {
          let t = performance.now();
          count = await countSegment({ store, tenant, definition, now });
          counts.push(performance.now() - t);
          t = performance.now();
          await previewSegment({ store, tenant, definition, now, limit: 50 });
          previews.push(performance.now() - t);
        }
        const c95 = percentile(counts, 95);
        const p95 = percentile(previews, 95);
        console.log(`${dialect.name}: 4-condition count = ${count.toLocaleString("en")}: p50 ${percentile(counts, 50).toFixed(0)} ms, p95 ${c95.toFixed(0)} ms (target ≤ ${TARGET_COUNT_MS} ms: ${(c95 / TARGET_COUNT_MS).toFixed(2)} × target)`);
        console.log(`${dialect.name}: first preview page: p50 ${percentile(previews, 50).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms (target ≤ ${TARGET_PREVIEW_MS} ms: ${(p95 / TARGET_PREVIEW_MS).toFixed(2)} × target)`);
        console.log(`load average (1/5/15 min): ${load()}`);
      } finally {
        await store.close();
      }
    }

    if (only !== "count") await syncBench(sandbox, dir);
  } finally {
    await close();
    await dropPg();
  }
  console.log(`load average at the end (1/5/15 min): ${load()}`);
}

async function syncBench(sandbox: Awaited<ReturnType<typeof startFileSandbox>>["sandbox"], dir: string) {
  const { seedSandbox } = await import("../../sandbox/seed/seed");
  const { openStore } = await import("../../lib/store/database");
  const { callPlatform } = await import("../../lib/platform/client");
  const { operations } = await import("../../lib/platform/operations");
  const { sandboxControl, sandboxToken } = await import("../../lib/platform/testing/sandbox-control");
  const { ensureTenant } = await import("../../lib/search/tenant-state");
  const { upsertCustomers } = await import("../../lib/search/index-store");
  const { createSegment } = await import("../../lib/segments/segment-store");
  const { runSegmentSync } = await import("../../lib/segments/segment-sync");
  type OperationName = keyof typeof operations;

  console.log(`seeding ${MEMBERS.toLocaleString("en")} customers into the sandbox…`);
  seedSandbox(sandbox.ctx, { customers: MEMBERS });
  const control = sandboxControl(sandbox.urls.alpha!);
  const options = { apiUrl: sandbox.urls.alpha!, accessToken: await sandboxToken(control) };
  const calls = new Map<string, number>();
  const call = ((name: OperationName, input: unknown) => {
    calls.set(name, (calls.get(name) ?? 0) + 1);
    return callPlatform(operations[name], input as never, options);
  }) as never;
  const store = await openStore({ database: { kind: "sqlite", file: path.join(dir, "sync.sqlite") }, tokenKeys: [{ id: "b", key: randomBytes(32) }] });
  try {
    const key = { openAppId: "bench", tenantId: "1" };
    const { tenant } = await ensureTenant(store, key);
    // The index: every customer of the sandbox's tenant, tagged by the bench as members (stage "bench").
    const ids: string[] = [];
    for (let after: string | null = null; ; ) {
      const page = (await callPlatform(operations["customers.list"], { query: { select: "id", rows: 1000, page: 1, sidx: "id", sord: "asc", ...(after ? { idFrom: (BigInt(after) + 1n).toString() } : {}) } }, options)) as { rows: Array<{ id: unknown }> };
      if (page.rows.length === 0) break;
      for (const row of page.rows) ids.push(String(row.id));
      after = ids.at(-1)!;
    }
    const members = ids.slice(0, MEMBERS);
    await upsertCustomers(store, tenant, members.map((id) => ({ id, name: id, stage: "bench" })));
    const segment = await createSegment(store, key, { name: "bench", definition: { match: "all", conditions: [{ field: "stage", op: "is", values: ["bench"] }] } }, { userId: "bench", name: "bench" }, Date.now());
    const ctx = (checkpoint?: never) => ({ key, input: { segmentId: segment.id, newListName: "segments bench" }, checkpoint, actor: null, signal: new AbortController().signal, now: Date.now, progress: async () => undefined });
    const deps = { store, call, tenantOf: async () => tenant };

    calls.clear();
    let t = performance.now();
    const first = await runSegmentSync(ctx(), deps);
    const syncS = (performance.now() - t) / 1000;
    const held = await readList(first.listId);
    const exact = held.size === members.length && members.every((id) => held.has(id));
    console.log(`sync of ${members.length.toLocaleString("en")} members into a new list: ${syncS.toFixed(1)} s (target ≤ ${TARGET_SYNC_S} s: ${(syncS / TARGET_SYNC_S).toFixed(3)} × target), ${first.memberCalls} member calls; list read back: ${held.size.toLocaleString("en")} members, ${exact ? "exactly the segment" : "NOT the segment"}`);

    // 1 % change: 0.5 % leave the segment, 0.5 % of the tenant's others join (or leave only, if none).
    const change = Math.max(2, Math.floor(members.length / 100));
    const leavers = members.slice(0, change / 2);
    const joiners = ids.slice(MEMBERS, MEMBERS + change / 2);
    await upsertCustomers(store, tenant, [...leavers.map((id) => ({ id, name: id, stage: "left" })), ...joiners.map((id) => ({ id, name: id, stage: "bench" }))]);
    calls.clear();
    t = performance.now();
    const again = await runSegmentSync({ ...ctx(), input: { segmentId: segment.id } }, deps);
    const needed = Math.ceil(joiners.length / 500) + Math.ceil(leavers.length / 200);
    const extra = Math.max(0, again.memberCalls - needed);
    const after = await readList(first.listId);
    const expected = new Set([...members.filter((id) => !leavers.includes(id)), ...joiners]);
    const exactAgain = after.size === expected.size && [...expected].every((id) => after.has(id));
    console.log(
      `re-sync after ${(leavers.length + joiners.length).toLocaleString("en")} changes (1 %): ${((performance.now() - t) / 1000).toFixed(1)} s, ${again.memberCalls} member calls (${again.added} added, ${again.removed} removed), at least ${needed} needed: ${extra} extra (${((extra / Math.max(1, needed)) * 100).toFixed(1)} %, target ≤ 1 %); list ${exactAgain ? "exactly the segment" : "NOT the segment"}`,
    );
    calls.clear();
    const third = await runSegmentSync({ ...ctx(), input: { segmentId: segment.id } }, deps);
    console.log(`a third run on the unchanged segment: ${third.memberCalls} member calls`);
    if (!exact || !exactAgain) process.exitCode = 1;
  } finally {
    await store.close();
  }

  async function readList(listId: string): Promise<Set<string>> {
    const held = new Set<string>();
    for (let since: string | undefined; ; ) {
      const page = (await callPlatform(operations["listMembers.list"], { query: { listId, rows: 10_000, sidx: "customerId", sord: "asc", ...(since ? { sinceId: since } : {}) } }, options)) as { items: Array<{ customerId: unknown }> };
      const fresh = page.items.map((m) => String(m.customerId)).filter((id) => !held.has(id));
      if (fresh.length === 0) break;
      for (const id of fresh) held.add(id);
      since = fresh.at(-1);
    }
    return held;
  }
}

await main();
