/**
 * Benchmark of the sandbox resource API on a large tenant (not a test; `npm run bench`).
 * Seeds SANDBOX_API_BENCH_CUSTOMERS (default 1,000,000) customers into a temporary SQLite file, then measures
 * over loopback: seed time; GET /v1/customers with two filters (p50, p99); page 5000 against page 1;
 * event ingest through batchPushEvents. Targets: seed <= 90 s, filtered p50 <= 20 ms, deep/first <= 2.
 */
import { cpus, loadavg } from "node:os";
import { seedSandbox } from "../../sandbox/seed/seed";
import { sandboxControl, sandboxToken } from "../../lib/platform/testing/sandbox-control";
import { startFileSandbox } from "./support/file-sandbox";

const CUSTOMERS = Number(process.env.SANDBOX_API_BENCH_CUSTOMERS ?? 1_000_000);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timed(url: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(url);
  await res.text();
  if (res.status !== 200) throw new Error(`${url} -> ${res.status}`);
  return performance.now() - t;
}

async function main() {
  const { sandbox, close } = await startFileSandbox("sandbox-bench");
  try {
    const loadBefore = loadavg()[0]!;
    const cpuBefore = process.cpuUsage();
    const seedStart = performance.now();
    seedSandbox(sandbox.ctx, { customers: CUSTOMERS, log: (line) => console.log(`  seed ${line}`) });
    const seedSeconds = (performance.now() - seedStart) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const seedCpuSeconds = (cpu.user + cpu.system) / 1e6;

    const base = sandbox.urls.alpha!;
    // Loopback only: no outbound webhooks for the benchmark's changes.
    const control = sandboxControl(base);
    await control("/webhooks/config", { enabled: false });
    const token = await sandboxToken(control);
    const customers = (q: string) => `${base}/v1/customers?access_token=${token}&${q}`;

    // Warm up the connection and the page cache.
    for (let i = 0; i < 20; i++) await timed(customers("rows=20"));

    const filtered: number[] = [];
    const stages = ["潜在客户", "意向客户", "首次购买", "重复购买", "忠诚客户"];
    for (let i = 0; i < 300; i++) {
      const q = `stage=${encodeURIComponent(stages[i % stages.length]!)}&gender=${1 + (i % 2)}&rows=20&page=${1 + (i % 10)}`;
      filtered.push(await timed(customers(q)));
    }

    // Other reads the console makes on a big tenant: a wide creation-time range, the event stream.
    const ranged: number[] = [];
    const events: number[] = [];
    for (let i = 0; i < 50; i++) {
      ranged.push(await timed(customers(`dateCreatedFrom=2000-01-01T00:00:00&rows=20&page=${1 + (i % 5)}`)));
      events.push(await timed(`${base}/v1/customerevents?access_token=${token}&max=20&sord=${i % 2 ? "asc" : "desc"}`));
    }

    const first: number[] = [];
    const deep: number[] = [];
    for (let i = 0; i < 100; i++) {
      first.push(await timed(customers("rows=20&page=1")));
      deep.push(await timed(customers("rows=20&page=5000")));
    }

    const batches = 100;
    const ingestStart = performance.now();
    for (let b = 0; b < batches; b++) {
      const events = Array.from({ length: 100 }, (_, i) => ({
        identityType: "mobile",
        identityValue: `+86 1990${String((b * 100 + i) % 5000).padStart(7, "0")}`,
        event: i % 3 === 0 ? "c_coupon_claim" : "open_page",
        targetId: `page-${i}`,
        externalId: `bench-${b}-${i}`,
      }));
      const res = await fetch(`${base}/v1/collector/batchPushEvents?access_token=${token}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ events, commonProps: { source: "bench" } }),
      });
      const body = await res.text();
      if (!body.includes('"success":true')) throw new Error(`batchPushEvents failed: ${body}`);
    }
    const ingestRate = (batches * 100) / ((performance.now() - ingestStart) / 1000);

    const p50First = percentile(first, 50);
    const p50Deep = percentile(deep, 50);
    const rows: Array<[string, string, string, string]> = [
      ["seed time", `${seedSeconds.toFixed(1)} s (${CUSTOMERS.toLocaleString("en")} customers + beta tenth)`, "<= 90 s", seedSeconds <= 90 ? "ok" : "MISSED"],
      ["seed CPU time (this process)", `${seedCpuSeconds.toFixed(1)} s`, "", ""],
      ["load average at start (cores)", `${loadBefore.toFixed(1)} (${cpus().length})`, "", ""],
      ["GET /v1/customers stage+gender p50", `${percentile(filtered, 50).toFixed(2)} ms`, "<= 20 ms", percentile(filtered, 50) <= 20 ? "ok" : "MISSED"],
      ["GET /v1/customers stage+gender p99", `${percentile(filtered, 99).toFixed(2)} ms`, "", ""],
      ["GET /v1/customers dateCreatedFrom (wide) p50", `${percentile(ranged, 50).toFixed(2)} ms`, "", ""],
      ["GET /v1/customerevents max=20 p50", `${percentile(events, 50).toFixed(2)} ms`, "", ""],
      ["page 1 p50", `${p50First.toFixed(2)} ms`, "", ""],
      ["page 5000 p50", `${p50Deep.toFixed(2)} ms`, "", ""],
      ["deep / first page", `${(p50Deep / p50First).toFixed(2)}`, "<= 2", p50Deep / p50First <= 2 ? "ok" : "MISSED"],
      ["batchPushEvents ingest", `${Math.round(ingestRate).toLocaleString("en")} events/s`, "", ""],
    ];
    console.log("\nsandbox-api benchmark");
    const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => r[c]!.length), ["measure", "value", "target", ""][c]!.length));
    const line = (r: string[]) => r.map((cell, c) => cell.padEnd(widths[c]!)).join("  ");
    console.log(line(["measure", "value", "target", ""]));
    console.log(widths.map((w) => "-".repeat(w)).join("  "));
    for (const r of rows) console.log(line(r));
  } finally {
    await close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
