/**
 * Benchmark of the tenant customer index (README "Customer search"; not a test; `npm run bench`). One run, over
 * loopback, against the Platform Sandbox seeded with CUSTOMER_INDEX_BENCH_CUSTOMERS customers
 * (default 200,000; the figures are also extrapolated to 1,000,000):
 * - backfill: total time and customers per second (keyset pages of 1,000, identities and tags in
 *   batches of 200 ids, 4 calls at a time), for SQLite and, with TEST_DATABASE_URL, PostgreSQL
 *   (a database of its own, dropped after);
 * - search p50/p95 over the filled index: two characters of a name, a partial email, a bare mobile,
 *   three characters of a CJK name;
 * - a change on the platform → searchable: through a webhook (the job queue applies it) and through
 *   polling (the poll's own time; the poll interval adds up to 30 s in the app).
 * Targets: backfill of 1,000,000 ≤ 180 s; search p95 ≤ 50 ms; a change searchable ≤ 5 s after its webhook.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { startFileSandbox } from "./support/file-sandbox";

// The modules import `server-only`, importable only under the `react-server` condition (as in the app's server bundle).
if (!process.execArgv.includes("--conditions=react-server")) {
  const result = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", import.meta.filename], { stdio: "inherit", env: { ...process.env, LOG_LEVEL: "warn" } });
  process.exit(result.status ?? 1);
}

const CUSTOMERS = Number(process.env.CUSTOMER_INDEX_BENCH_CUSTOMERS ?? 200_000);
const TARGET_BACKFILL_1M_S = 180;
const TARGET_P95_MS = 50;
const TARGET_WEBHOOK_S = 5;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main() {
  const { seedSandbox } = await import("../../sandbox/seed/seed");
  const { openStore } = await import("../../lib/store/database");
  const { callPlatform } = await import("../../lib/platform/client");
  const { operations } = await import("../../lib/platform/operations");
  const { backfill, poll } = await import("../../lib/search/sync");
  const { searchIndex } = await import("../../lib/search/index-store");
  const { createSearchService } = await import("../../lib/search/service");
  const { inProcessQueue } = await import("../../lib/jobs/in-process");
  const { findTenant } = await import("../../lib/search/tenant-state");
  const { sandboxControl, sandboxToken } = await import("../../lib/platform/testing/sandbox-control");
  type OperationName = keyof typeof operations;

  const { sandbox, dir, close } = await startFileSandbox("customer-index-bench");
  const pgUrl = process.env.TEST_DATABASE_URL;
  const pgDatabase = `bench_search_${randomBytes(3).toString("hex")}`;
  try {
    console.log(`seeding ${CUSTOMERS.toLocaleString("en")} customers…`);
    seedSandbox(sandbox.ctx, { customers: CUSTOMERS });
    const control = sandboxControl(sandbox.urls.alpha!);
    const options = { apiUrl: sandbox.urls.alpha!, accessToken: await sandboxToken(control) };
    const call = ((name: OperationName, input: unknown) => callPlatform(operations[name], input as never, options)) as never;
    const key = { openAppId: "bench", tenantId: "1" };

    const dialects: Array<{ name: string; database: { kind: "sqlite"; file: string } | { kind: "postgres"; url: string } }> = [
      { name: "SQLite", database: { kind: "sqlite", file: path.join(dir, "app.sqlite") } },
    ];
    if (pgUrl) {
      const pg = (await import("pg")).default;
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${pgDatabase}`);
      await admin.end();
      const url = new URL(pgUrl);
      url.pathname = `/${pgDatabase}`;
      dialects.push({ name: "PostgreSQL", database: { kind: "postgres", url: url.toString() } });
    } else {
      console.log("PostgreSQL skipped: set TEST_DATABASE_URL to measure it too");
    }

    // Search terms from real customers of the tenant.
    const sample = (await callPlatform(operations["customers.list"], { query: { rows: 1000, page: 1, select: "id,name,email,mobile", hasMobile: true, hasEmail: true, sidx: "id", sord: "desc" } }, options)).rows as Array<Record<string, unknown>>;
    const named = sample.filter((c) => typeof c.name === "string" && [...(c.name as string)].length >= 2);
    const terms = {
      "name, 2 characters": named.map((c) => [...(c.name as string)].slice(0, 2).join("")),
      "CJK name, 3 characters": named.filter((c) => [...(c.name as string)].length >= 3).map((c) => [...(c.name as string)].slice(0, 3).join("")),
      "partial email": sample.map((c) => String(c.email).slice(2, 9)),
      "bare mobile": sample.map((c) => String(c.mobile).replace(/^\+\d+\s+/, "")),
    };

    const lines: string[] = [];
    for (const dialect of dialects) {
      const store = await openStore({ database: dialect.database, tokenKeys: [{ id: "b", key: randomBytes(32) }] });
      try {
        const started = performance.now();
        const state = await backfill({ store, call, pageSize: 1000, batchSize: 200, concurrency: 4 }, key);
        const seconds = (performance.now() - started) / 1000;
        const perSecond = state.indexed / seconds;
        const extrapolated = 1_000_000 / perSecond;
        lines.push(`${dialect.name} backfill: ${state.indexed.toLocaleString("en")} customers in ${seconds.toFixed(1)} s (${Math.round(perSecond).toLocaleString("en")}/s); 1,000,000 ≈ ${extrapolated.toFixed(0)} s (target ≤ ${TARGET_BACKFILL_1M_S} s): ${extrapolated <= TARGET_BACKFILL_1M_S ? "met" : "MISSED"}`);
        console.log(lines.at(-1));

        const tenant = (await findTenant(store, key))!.tenant;
        for (const [label, list] of Object.entries(terms)) {
          const times: number[] = [];
          for (let i = 0; i < 200; i++) {
            const q = list[i % list.length]!;
            const t = performance.now();
            await searchIndex(store, tenant, { q, limit: 20 });
            times.push(performance.now() - t);
          }
          const p95 = percentile(times, 95);
          lines.push(`${dialect.name} search ${label}: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (target ≤ ${TARGET_P95_MS} ms): ${p95 <= TARGET_P95_MS ? "met" : "MISSED"}`);
          console.log(lines.at(-1));
        }

        // Webhook path: the change is made, the delivery handed to the service (as the receiver does), then searched for.
        const queue = inProcessQueue();
        const service = createSearchService({ store: async () => store, queue: async () => queue, callerFor: () => call, enabled: true, pollSeconds: 0 });
        const webhookTimes: number[] = [];
        for (let i = 0; i < 10; i++) {
          const marker = `wh${i}-${randomBytes(3).toString("hex")}`;
          const id = String(sample[i]!.id);
          const t = performance.now();
          await callPlatform(operations["customers.update"], { params: { id }, body: { email: `${marker}@bench.test` } }, options);
          await service.applyWebhook({ delivery: { ...key, kind: "customer.updated", resource: "customer", action: "updated", resourceId: id, dedupeKey: `id:${marker}`, verification: "none", payload: "{}" }, data: {} });
          while ((await searchIndex(store, tenant, { q: marker, limit: 5 })).hits.length === 0) {
            if (performance.now() - t > 30_000) throw new Error("a webhook change was not searchable within 30 s");
            await new Promise((r) => setTimeout(r, 5));
          }
          webhookTimes.push(performance.now() - t);
        }
        await queue.stop();
        const p95Webhook = percentile(webhookTimes, 95) / 1000;
        lines.push(`${dialect.name} change → searchable after its webhook: p50 ${(percentile(webhookTimes, 50)).toFixed(0)} ms, p95 ${(p95Webhook * 1000).toFixed(0)} ms (target ≤ ${TARGET_WEBHOOK_S} s): ${p95Webhook <= TARGET_WEBHOOK_S ? "met" : "MISSED"}`);
        console.log(lines.at(-1));

        // Polling path: one poll after a change (the app polls every 30 s, so a change waits up to that long plus this).
        await control("/clock", { advanceSeconds: 120 });
        const marker = `poll-${randomBytes(3).toString("hex")}`;
        await callPlatform(operations["customers.update"], { params: { id: String(sample[20]!.id) }, body: { email: `${marker}@bench.test` } }, options);
        const t = performance.now();
        const changed = await poll({ store, call, pageSize: 1000, batchSize: 200, concurrency: 4 }, key);
        const pollMs = performance.now() - t;
        const found = (await searchIndex(store, tenant, { q: marker, limit: 5 })).hits.length === 1;
        lines.push(`${dialect.name} change → searchable by polling: one poll ${pollMs.toFixed(0)} ms (${changed} changed customers read; found: ${found}) + up to the 30 s poll interval`);
        console.log(lines.at(-1));
      } finally {
        await store.close();
      }
    }
    console.log(`\nsummary (${CUSTOMERS.toLocaleString("en")} customers seeded)\n${lines.join("\n")}`);
  } finally {
    await close();
    if (pgUrl) {
      const pg = (await import("pg")).default;
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${pgDatabase} WITH (FORCE)`);
      await admin.end();
    }
  }
}

await main();
