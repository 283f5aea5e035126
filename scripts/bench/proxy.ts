/**
 * Benchmark of the platform API proxy as users meet it, through `next start` (not a test;
 * `npm run bench`). In one run, GET /v1/customers?rows=50 is measured at concurrency 32 and 1 three ways:
 *   direct – load generator → sandbox (`sandbox/main.ts`, BENCH_CUSTOMERS seeded, default 2000);
 *   app    – load generator → the app's production build under `next start` (its Next proxy, route,
 *            session of a real install, token, validation, relay; built first when `.next` is
 *            missing or older than the sources) → sandbox, with the headers of the console's browser
 *            (session cookie, X-Open-App-Id);
 *   floor  – load generator → scripts/bench/next-floor under `next start`: one route handler that
 *            passes the request to the sandbox with undici and relays the answer (what any proxy in
 *            Next pays) → sandbox; sent the same headers as the app, session cookie included.
 * Every path sends the browser's Accept-Encoding (BENCH_ACCEPT_ENCODING; `identity` for none), so Next
 * compresses as it does for users.
 * Printed: p50, p99, req/s and the CPU each request cost the server in the middle, the ratios
 * app/floor against the targets (p50 <= 1.15 ×, req/s >= 0.85 ×, at both concurrencies), and the
 * machine's load at start and end.
 *
 * The paths take turns in rounds ABC CBA ABC … (BENCH_ROUNDS, default 6), so that a drift of the
 * machine's load weighs on all alike; each cell gets BENCH_SECONDS (default 6) over its rounds, after
 * a warm-up of every path. Placement (support/processes.ts `placement`; BENCH_PIN=0 lets all share
 * the cores): the sandbox on core 0, the Next servers and this load generator (nice 10) on the others.
 * BENCH_PROFILE=<dir> runs both Next servers with `--cpu-prof` into <dir> and prints where the app
 * spends CPU per request beyond the floor over the measured rounds (BENCH_PROFILE_TOP lines per
 * table; a build it makes then is `next build --no-mangling`, which keeps the function names).
 * Loopback only, ports E2E_APP_PORT (3500), E2E_ALPHA_PORT (4500), E2E_BETA_PORT (4501),
 * BENCH_FLOOR_PORT (3550); bounded by BENCH_DEADLINE_S (default 600 s, a build included); every
 * server is stopped however it ends.
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { setPriority } from "node:os";
import path from "node:path";
import { Agent, request } from "undici";
import { sandboxControl, sandboxToken } from "../../lib/platform/testing/sandbox-control";
import { signIn } from "./support/app-session";
import { printDifference, summarize as cpuSummary } from "./support/cpuprofile";
import { ensureNextBuild, groupCpuMs, machineLoad, pin, placement, startServer, stopAll, waitFor, type Server } from "./support/processes";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 2000);
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 600) * 1000;
const PROFILE_DIR = process.env.BENCH_PROFILE;
const PROFILE_TOP = Number(process.env.BENCH_PROFILE_TOP ?? 25);
const FLOOR_PORT = Number(process.env.BENCH_FLOOR_PORT ?? 3550);
const FLOOR_DIR = "scripts/bench/next-floor";
const PATH = "/v1/customers?rows=50";
const CONCURRENCIES = [32, 1];
const NAMES = ["direct", "app", "floor"] as const;
type Name = (typeof NAMES)[number];
const NEXT_BIN = "node_modules/next/dist/bin/next";
/** What the console's browser (Chrome) accepts; Next compresses its answers for it. `identity` turns that off. */
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? "gzip, deflate, br, zstd";

// ── load generator ──────────────────────────────────────────────────────────────────────────────

/** `served`: requests sent since the measured rounds began (to read a CPU profile per request). */
type Target = { url: string; headers: Record<string, string>; server: Server; served: number };
type Sample = { latencies: number[]; seconds: number; errors: number; cpuMs: number; sandboxCpuMs: number };
type Cell = { p50: number; p99: number; rps: number; errors: number; cpuUs: number; sandboxCpuUs: number };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** `concurrency` loops of one request after another for `seconds` (after a short warm-up, not counted). */
async function measure(target: Target, sandbox: Server, concurrency: number, seconds: number, into?: Sample): Promise<void> {
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
  const once = async () => {
    const res = await request(target.url, { dispatcher: agent, headers: target.headers });
    await res.body.arrayBuffer();
    target.served++;
    return res.statusCode;
  };
  const loops = async (until: number, record?: Sample) =>
    Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < until) {
          const t = performance.now();
          const status = await once();
          record?.latencies.push(performance.now() - t);
          if (record && status !== 200) record.errors++;
        }
      }),
    );
  await loops(performance.now() + 300); // connections, caches
  const [cpu0, sandbox0, start] = [groupCpuMs(target.server.pid), groupCpuMs(sandbox.pid), performance.now()];
  await loops(start + seconds * 1000, into);
  if (into) {
    into.seconds += (performance.now() - start) / 1000;
    into.cpuMs += groupCpuMs(target.server.pid) - cpu0;
    into.sandboxCpuMs += groupCpuMs(sandbox.pid) - sandbox0;
  }
  await agent.close();
}

function summarize(s: Sample): Cell {
  const sorted = [...s.latencies].sort((a, b) => a - b);
  const n = sorted.length;
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), rps: n / s.seconds, errors: s.errors, cpuUs: (s.cpuMs * 1000) / n, sandboxCpuUs: (s.sandboxCpuMs * 1000) / n };
}

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "-");

// ── servers ─────────────────────────────────────────────────────────────────────────────────────

async function main(): Promise<void> {
  const loadAtStart = machineLoad();
  // A profile is read by function names, which a build keeps only without mangling.
  const buildArgs = PROFILE_DIR ? ["--no-mangling"] : [];
  ensureNextBuild(".", ["app", "lib", "components", "proxy.ts", "instrumentation.ts", "next.config.mjs", "package-lock.json"], buildArgs);
  ensureNextBuild(FLOOR_DIR, ["app", "next.config.mjs"], buildArgs);

  process.env.E2E_APP_PORT ??= "3500";
  process.env.E2E_ALPHA_PORT ??= "4500";
  process.env.E2E_BETA_PORT ??= "4501";
  const { appEnv, e2eDataDir, e2ePorts, e2eUrls, sandboxEnv } = await import("../testing/e2e-env");
  const place = placement();
  const profile: Record<string, string> = PROFILE_DIR ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(PROFILE_DIR)}` } : {};
  if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });

  const sandbox = startServer("sandbox", ["--import", "tsx", "sandbox/main.ts", "--seed", String(CUSTOMERS)], sandboxEnv(), place?.sandbox);
  rmSync(e2eDataDir, { recursive: true, force: true });
  mkdirSync(e2eDataDir, { recursive: true });
  const app = startServer("app", [NEXT_BIN, "start", "-H", "127.0.0.1"], { ...appEnv(), ...profile }, place?.app);
  const appUrl = `http://127.0.0.1:${e2ePorts.app}`;
  await Promise.all([waitFor(`${e2eUrls.alpha}/health`, 120_000), waitFor(`${appUrl}/api/health`, 120_000)]);

  const token = await sandboxToken(sandboxControl(e2eUrls.alpha));
  const floorEnv = { NODE_ENV: "production", BENCH_FLOOR_UPSTREAM: e2eUrls.alpha, BENCH_FLOOR_TOKEN: token, ...profile };
  const floor = startServer("floor", [NEXT_BIN, "start", FLOOR_DIR, "-H", "127.0.0.1", "-p", String(FLOOR_PORT)], floorEnv, place?.app);
  const floorUrl = `http://127.0.0.1:${FLOOR_PORT}`;
  await waitFor(`${floorUrl}/api/platform/v1/customers?rows=1`, 120_000);

  const browser = { "accept-encoding": ACCEPT_ENCODING };
  // The floor gets the very request the app gets (session cookie included), which it ignores.
  const staff = { ...browser, ...(await signIn(appUrl, e2eUrls.alpha)) };
  const targets: Record<Name, Target> = {
    direct: { url: `${e2eUrls.alpha}${PATH}&access_token=${token}`, headers: browser, server: sandbox, served: 0 },
    app: { url: `${appUrl}/api/platform${PATH}`, headers: staff, server: app, served: 0 },
    floor: { url: `${floorUrl}/api/platform${PATH}`, headers: staff, server: floor, served: 0 },
  };
  // The same 50 customers every way (the app writes ids as strings).
  const ids: string[] = [];
  for (const name of NAMES) {
    const res = await fetch(targets[name].url, { headers: { ...targets[name].headers, "accept-encoding": "identity" } });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status} ${text.slice(0, 300)}`);
    ids.push([...text.matchAll(/"id":"?(\d+)/g)].map((m) => m[1]).join(","));
  }
  if (new Set(ids).size !== 1 || ids[0]!.split(",").length !== 50) throw new Error(`the paths answer different customers: ${ids.map((s) => s.slice(0, 60)).join(" | ")}`);

  if (place) pin(process.pid, place.app);
  setPriority(process.pid, 10);
  console.log(`GET ${PATH} — ${CUSTOMERS} customers seeded; ${SECONDS} s per cell in ${ROUNDS} rounds (ABC CBA …); Accept-Encoding: ${ACCEPT_ENCODING}`);
  console.log(`placement: ${place ? `sandbox on core ${place.sandbox}; app, floor and the load generator (nice 10) on core(s) ${place.app}` : "not pinned: all processes share the cores"}`);
  console.log(`machine at start: ${loadAtStart}`);

  // Warm-up of every path alike (JIT of both Next servers, connection pools).
  for (const name of NAMES) await measure(targets[name], sandbox, 32, 3);

  const results: Record<Name, Record<number, Cell>> = { direct: {}, app: {}, floor: {} };
  for (const name of NAMES) targets[name].served = 0;
  const window: [number, number] = [monotonicUs(), 0];
  const windowCpuMs = [groupCpuMs(app.pid), groupCpuMs(floor.pid)];
  for (const concurrency of CONCURRENCIES) {
    const samples = Object.fromEntries(NAMES.map((n) => [n, { latencies: [], seconds: 0, errors: 0, cpuMs: 0, sandboxCpuMs: 0 }])) as unknown as Record<Name, Sample>;
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? NAMES : [...NAMES].reverse();
      for (const name of order) await measure(targets[name], sandbox, concurrency, SECONDS / ROUNDS, samples[name]);
    }
    for (const name of NAMES) results[name][concurrency] = summarize(samples[name]);
  }
  window[1] = monotonicUs();
  windowCpuMs.splice(0, 2, groupCpuMs(app.pid) - windowCpuMs[0]!, groupCpuMs(floor.pid) - windowCpuMs[1]!);

  console.log("\n| path   | conc | p50 ms | p99 ms | req/s   | errors | server CPU µs/req | sandbox CPU µs/req |");
  console.log("|--------|------|--------|--------|---------|--------|-------------------|--------------------|");
  for (const concurrency of CONCURRENCIES) {
    for (const name of NAMES) {
      const c = results[name][concurrency]!;
      const server = name === "direct" ? "-" : fmt(c.cpuUs, 0);
      console.log(
        `| ${name.padEnd(6)} | ${String(concurrency).padStart(4)} | ${fmt(c.p50).padStart(6)} | ${fmt(c.p99).padStart(6)} | ${fmt(c.rps, 0).padStart(7)} | ${String(c.errors).padStart(6)} | ${server.padStart(17)} | ${fmt(c.sandboxCpuUs, 0).padStart(18)} |`,
      );
    }
  }
  console.log("\n| conc | p50 app/floor | req/s app/floor | CPU µs/req app/floor | p50 app/direct | req/s app/direct |");
  console.log("|------|---------------|-----------------|----------------------|----------------|------------------|");
  let met = true;
  for (const concurrency of CONCURRENCIES) {
    const [d, a, f] = [results.direct[concurrency]!, results.app[concurrency]!, results.floor[concurrency]!];
    met &&= a.p50 / f.p50 <= 1.15 && a.rps / f.rps >= 0.85;
    console.log(
      `| ${String(concurrency).padStart(4)} | ${fmt(a.p50 / f.p50).padStart(13)} | ${fmt(a.rps / f.rps).padStart(15)} | ${fmt(a.cpuUs / f.cpuUs).padStart(20)} | ${fmt(a.p50 / d.p50).padStart(14)} | ${fmt(a.rps / d.rps).padStart(16)} |`,
    );
  }
  console.log(`\ntargets (p50 app/floor <= 1.15, req/s app/floor >= 0.85, at concurrency 32 and 1): ${met ? "met" : "NOT met"}`);
  console.log(`machine at end: ${machineLoad()}`);
  const errors = NAMES.flatMap((n) => CONCURRENCIES.map((c) => results[n][c]!.errors)).reduce((a, b) => a + b, 0);
  if (errors > 0) process.exitCode = 1;
  if (PROFILE_DIR) {
    await stopAll(); // the profiles are written as the servers exit
    const [appCpu, floorCpu] = [app, floor].map((s, i) => {
      const file = readdirSync(PROFILE_DIR).find((f) => f.includes(`.${s.pid}.`) && f.endsWith(".cpuprofile"));
      if (!file) throw new Error(`no CPU profile of ${s.name} (pid ${s.pid}) in ${PROFILE_DIR}`);
      return cpuSummary(path.join(PROFILE_DIR, file), { window, requests: targets[s.name as Name].served, cpuUs: windowCpuMs[i]! * 1000 });
    });
    console.log(`
CPU profiles in ${PROFILE_DIR}, read over the measured rounds and scaled to the CPU time used (${targets.app.served} app, ${targets.floor.served} floor requests):`);
    printDifference(appCpu!, floorCpu!, ["app", "floor"], PROFILE_TOP);
  }
}

/** Now on CLOCK_MONOTONIC in µs, the clock of V8's CPU profiles in every process. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

const deadline = setTimeout(() => {
  console.error(`proxy bench: no result within ${DEADLINE_MS / 1000} s, stopping`);
  void stopAll().then(() => process.exit(1));
}, DEADLINE_MS);

main()
  .catch((error: unknown) => {
    console.error(`proxy bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  })
  .finally(async () => {
    clearTimeout(deadline);
    await stopAll();
    process.exit();
  });
