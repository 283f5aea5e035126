/**
 * Benchmark of the platform API proxy (not a test; `npm run bench`). In one run, GET
 * /v1/customers?rows=50 is measured three ways, at concurrency 1 and 32:
 *   direct  – load generator → sandbox
 *   proxy   – load generator → the app's proxy (`handleProxyRequest` behind a node:http adapter:
 *             route match, session stand-in, validation, token, upstream call with retries and
 *             timeout, lossless parse, output schema, JSON with string ids) → sandbox
 *   bare    – load generator → a bare undici pass-through → sandbox
 * and printed as a table of p50, p99, requests/s and the ratios proxy/direct and proxy/bare.
 * Targets (issue 6): proxy p50 <= 1.15 × direct and throughput >= 0.85 × direct at concurrency 32.
 *
 * The sandbox and the two forwarding servers run in child processes (as they would on separate
 * machines), the load generator here. Next's own routing is not included (no `next build` needed),
 * and the session and token lookups are stand-ins (in the app they are remembered for seconds,
 * see lib/platform/proxy-cache.ts).
 * The three paths take turns in rounds (load on a shared machine drifts). Settings: BENCH_SECONDS
 * (per cell, over all rounds; default 3), BENCH_CUSTOMERS (seeded, default 2000).
 */
import { Agent, request } from "undici";
import { startBenchServers } from "./support/servers";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 2000);
const PATH = "/v1/customers?rows=50";
const ROUNDS = 3;

// ── load generator ──────────────────────────────────────────────────────────────────────────────

type Cell = { p50: number; p99: number; rps: number; errors: number };
type Sample = { latencies: number[]; seconds: number; errors: number };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function measure(url: string, concurrency: number, seconds: number, into: Sample): Promise<void> {
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
  const once = async () => {
    const res = await request(url, { dispatcher: agent });
    await res.body.arrayBuffer();
    return res.statusCode;
  };
  // Warm-up: connections, JIT, caches.
  const warmEnd = performance.now() + 300;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < warmEnd) await once();
  }));
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) {
      const t = performance.now();
      const status = await once();
      into.latencies.push(performance.now() - t);
      if (status !== 200) into.errors++;
    }
  }));
  into.seconds += (performance.now() - start) / 1000;
  await agent.close();
}

function summarize(sample: Sample): Cell {
  const sorted = [...sample.latencies].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), rps: sorted.length / sample.seconds, errors: sample.errors };
}

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "-");

async function main(): Promise<void> {
  const servers = await startBenchServers({ customers: CUSTOMERS });
  try {
    const targets = {
      direct: `${servers.alpha}${PATH}&access_token=${servers.token}`,
      proxy: `${servers.proxyUrl}/api/platform${PATH}`,
      bare: `${servers.bareUrl}/api/platform${PATH}`,
    };
    console.log(`GET ${PATH} — ${CUSTOMERS} customers seeded, ${SECONDS} s per cell in ${ROUNDS} rounds`);
    // The three paths take turns in short rounds, so that a change in machine load hits all alike.
    const results: Record<string, Record<number, Cell>> = { direct: {}, proxy: {}, bare: {} };
    for (const concurrency of [1, 32]) {
      const samples: Record<string, Sample> = {};
      for (const name of Object.keys(targets)) samples[name] = { latencies: [], seconds: 0, errors: 0 };
      const names = Object.keys(targets);
      for (let round = 0; round < ROUNDS; round++) {
        for (const name of [...names.slice(round % names.length), ...names.slice(0, round % names.length)]) {
          await measure(targets[name as keyof typeof targets], concurrency, SECONDS / ROUNDS, samples[name]!);
        }
      }
      for (const name of names) results[name]![concurrency] = summarize(samples[name]!);
    }
    console.log("\n| path   | conc | p50 ms | p99 ms | req/s   | errors |");
    console.log("|--------|------|--------|--------|---------|--------|");
    for (const concurrency of [1, 32]) {
      for (const name of ["direct", "proxy", "bare"]) {
        const c = results[name]![concurrency]!;
        console.log(`| ${name.padEnd(6)} | ${String(concurrency).padStart(4)} | ${fmt(c.p50).padStart(6)} | ${fmt(c.p99).padStart(6)} | ${fmt(c.rps, 0).padStart(7)} | ${String(c.errors).padStart(6)} |`);
      }
    }
    console.log("\n| conc | p50 proxy/direct | p50 proxy/bare | req/s proxy/direct | req/s proxy/bare |");
    console.log("|------|------------------|----------------|--------------------|------------------|");
    for (const concurrency of [1, 32]) {
      const [d, p, b] = [results.direct![concurrency]!, results.proxy![concurrency]!, results.bare![concurrency]!];
      console.log(`| ${String(concurrency).padStart(4)} | ${fmt(p.p50 / d.p50).padStart(16)} | ${fmt(p.p50 / b.p50).padStart(14)} | ${fmt(p.rps / d.rps).padStart(18)} | ${fmt(p.rps / b.rps).padStart(16)} |`);
    }
    const c32 = { d: results.direct![32]!, p: results.proxy![32]! };
    console.log(`\ntargets at concurrency 32: p50 ratio ${fmt(c32.p.p50 / c32.d.p50)} (<= 1.15), throughput ratio ${fmt(c32.p.rps / c32.d.rps)} (>= 0.85)`);
  } finally {
    servers.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
