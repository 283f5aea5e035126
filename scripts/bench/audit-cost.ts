/**
 * What recording a write in the audit log costs the write (README "Audit log and disconnect"; not a
 * test; `npm run bench -- audit-cost`). Through `next start`, one run: a proxied customer edit
 * (PUT /api/platform/v1/customers/{id}, as the console's browser sends it: session cookie, app
 * header, Origin) one after another, the app started alternately with the audit log on and off (its
 * sink replaced by nothing through a preload: scripts/bench/support/no-audit.mjs), BENCH_ROUNDS
 * rounds (default 4) of BENCH_WRITES writes each (default 300), after a warm-up, on one SQLite file
 * and one sign-in kept across the restarts. Prints each side's p50 and p95, the ratio of the p50s
 * against the target (recording costs ≤ 5 % of a proxied write's p50), the entries each side wrote
 * (the off side must write none), and the load average. Loopback ports E2E_APP_PORT (3600),
 * E2E_ALPHA_PORT (4600), E2E_BETA_PORT (4601); bounded by BENCH_DEADLINE_S (default 600 s).
 */
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { signIn } from "./support/app-session";
import { ensureNextBuild, machineLoad, startServer, stopAll, waitFor, type Server } from "./support/processes";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const WRITES = Number(process.env.BENCH_WRITES ?? 300);
const WARMUP = 40;
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 600) * 1000;
const TARGET = 1.05;
const NEXT_BIN = "node_modules/next/dist/bin/next";
const NO_AUDIT = path.resolve("scripts/bench/support/no-audit.mjs");

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function stop(server: Server): Promise<void> {
  const exited = new Promise<void>((resolve) => server.child.once("exit", () => resolve()));
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {
    return;
  }
  await exited;
}

async function main(): Promise<void> {
  const loadAtStart = machineLoad();
  ensureNextBuild(".", ["app", "lib", "components", "proxy.ts", "instrumentation.ts", "next.config.mjs", "package-lock.json"]);
  process.env.E2E_APP_PORT ??= "3600";
  process.env.E2E_ALPHA_PORT ??= "4600";
  process.env.E2E_BETA_PORT ??= "4601";
  const { appEnv, e2eDataDir, e2ePorts, e2eUrls, sandboxEnv } = await import("../testing/e2e-env");
  // One env for every start: the same session password and token key, so the sign-in outlives the restarts.
  const env = appEnv();
  const appUrl = `http://127.0.0.1:${e2ePorts.app}`;
  startServer("sandbox", ["--import", "tsx", "sandbox/main.ts", "--seed", "200"], { ...sandboxEnv(), SANDBOX_WEBHOOK_ENABLED: "false" });
  rmSync(e2eDataDir, { recursive: true, force: true });
  mkdirSync(e2eDataDir, { recursive: true });
  await waitFor(`${e2eUrls.alpha}/health`, 120_000);

  const startApp = async (audit: boolean) => {
    const app = startServer(audit ? "app (audit on)" : "app (audit off)", [NEXT_BIN, "start", "-H", "127.0.0.1"], { ...env, ...(audit ? {} : { NODE_OPTIONS: `--import=${new URL(`file://${NO_AUDIT}`).href}` }) });
    await waitFor(`${appUrl}/api/health`, 120_000);
    return app;
  };

  let app = await startApp(true);
  const staff = await signIn(appUrl, e2eUrls.alpha);
  const list = await fetch(`${appUrl}/api/platform/v1/customers?rows=50&select=id`, { headers: { ...staff, "x-engage-request": "1" } });
  const ids = [...(await list.text()).matchAll(/"id":"?(\d+)/g)].map((m) => m[1]!);
  if (ids.length < 10) throw new Error(`no customers to edit (HTTP ${list.status})`);

  let sent = 0;
  const write = async (): Promise<number> => {
    const id = ids[sent % ids.length]!;
    const body = JSON.stringify({ name: `Bench ${sent++}` });
    const t = performance.now();
    const res = await fetch(`${appUrl}/api/platform/v1/customers/${id}`, {
      method: "PUT",
      headers: { ...staff, "x-engage-request": "1", origin: env.APP_URL!, "content-type": "application/json" },
      body,
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`PUT customers/${id}: HTTP ${res.status}`);
    return performance.now() - t;
  };
  const { default: Database } = await import("better-sqlite3");
  const entries = () => {
    const db = new Database(path.join(e2eDataDir, "app.sqlite"), { readonly: true, fileMustExist: true });
    try {
      return (db.prepare("SELECT count(*) AS n FROM audit_log WHERE operation = 'customers.update'").get() as { n: number }).n;
    } finally {
      db.close();
    }
  };

  const samples = { on: [] as number[], off: [] as number[] };
  const written = { on: 0, off: 0 };
  let audit = true;
  for (let round = 0; round < ROUNDS * 2; round++) {
    if (round > 0) {
      await stop(app);
      audit = !audit;
      app = await startApp(audit);
    }
    for (let i = 0; i < WARMUP; i++) await write();
    // Entries of the warm-up are written in the background: counted after a pause, then the round's.
    await new Promise((r) => setTimeout(r, 1500));
    const before = entries();
    for (let i = 0; i < WRITES; i++) samples[audit ? "on" : "off"].push(await write());
    await new Promise((r) => setTimeout(r, 1500));
    written[audit ? "on" : "off"] += entries() - before;
  }
  await stopAll();

  const on = [...samples.on].sort((a, b) => a - b);
  const off = [...samples.off].sort((a, b) => a - b);
  const ratio = percentile(on, 50) / percentile(off, 50);
  console.log(`PUT /api/platform/v1/customers/{id} through next start, one at a time; ${ROUNDS} rounds each way of ${WRITES} writes (on, off, on, …; the app restarted between)`);
  console.log(`machine at start: ${loadAtStart}`);
  console.log(`audit on : p50 ${percentile(on, 50).toFixed(2)} ms, p95 ${percentile(on, 95).toFixed(2)} ms, ${written.on} entries written for ${on.length} writes`);
  console.log(`audit off: p50 ${percentile(off, 50).toFixed(2)} ms, p95 ${percentile(off, 95).toFixed(2)} ms, ${written.off} entries written for ${off.length} writes`);
  console.log(`recording costs ${((ratio - 1) * 100).toFixed(1)} % of the write's p50 (on/off ${ratio.toFixed(3)}; target ≤ ${TARGET.toFixed(2)}: ${(ratio / TARGET).toFixed(3)} × target)`);
  console.log(`machine at end: ${machineLoad()}`);
  if (written.off !== 0 || written.on < on.length) {
    console.error("the sides did not record as they should (off must record none, on every write)");
    process.exitCode = 1;
  }
}

const deadline = setTimeout(() => {
  console.error(`audit-cost: over its ${DEADLINE_MS / 1000} s deadline`);
  void stopAll().then(() => process.exit(1));
}, DEADLINE_MS);
deadline.unref();
main()
  .catch(async (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
    await stopAll();
  })
  .finally(() => clearTimeout(deadline));
