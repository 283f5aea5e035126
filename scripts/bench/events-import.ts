/**
 * Benchmark of the event import (not a test; `npm run bench`). 100,000 events (BENCH_EVENTS) go into
 * the sandbox two ways, with the same number of batches at the sandbox at once (the importer's
 * DEFAULT_CONCURRENCY):
 *   direct  – POST /v1/collector/batchPushEvents of 100 events straight to the sandbox API: the
 *             sandbox's own batch ingest rate;
 *   console – the work function of the app's import task (`runEventImport`: the streaming CSV
 *             reader, row mapping and validation, the batch scheduler, checkpoints and the failure
 *             report) reading a generated CSV file from disk (`fs.openAsBlob(...).stream()`, as the
 *             task reads its upload from the store) and sending with the task's sender
 *             (`sendToPlatform`: the platform client, which validates each batch of 100 against its
 *             schema, straight to the sandbox), in a task context held in memory.
 * Printed: events/s of both and the ratio console/direct (target >= 0.9).
 *
 * Placement (support/servers.ts `placeProcesses`; BENCH_PIN=0 lets all processes share the cores):
 * the sandbox gets a core of its own and this process, where the import task runs as it would in the
 * app, at a lower priority, as each runs on its own machine in reality: the task's work must not
 * take the CPU of the platform whose rate is measured.
 *
 * Fairness: each path imports its 100,000 events four times, whole (start to last answer), in the
 * order of ORDER, so that a machine that speeds up or slows down during the run (and the growing
 * database) weighs on both alike; a path's rate is its events over its time in all its trials.
 * Every event is new (distinct identity, type and time), so nothing is dropped as a duplicate
 * (§2.3). The sandbox holds 200,000 events before the first trial (PREFILL_EVENTS). Both paths are
 * warmed up alike before (the app's process too), and neither pays for making its test data: the
 * CSV files are written and each direct trial's request bodies are made before the clocks (and CPU
 * counts) start. Loopback only; the sandbox is in memory and every server
 * stops at the end. The CSV files go to a temporary folder that is removed.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { openAsBlob } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { describeInEnglish } from "../../lib/events/event-csv";
import { DEFAULT_CONCURRENCY, MAX_BATCH_EVENTS } from "../../lib/events/import-run";
import { classifyPlatformError, sendToPlatform } from "../../lib/events/import-send";
import { runEventImport, type EventImportCheckpoint, type EventImportInput } from "../../lib/events/import-task";
import { callPlatform } from "../../lib/platform/client";
import { operations } from "../../lib/platform/operations";
import type { PlatformCall } from "../../lib/platform/installation-call";
import { fakeTaskContext, savedTask } from "../../lib/tasks/fake-context";
import { sandboxCalls, sandboxControl } from "../../lib/platform/testing/sandbox-control";
import { cpuMsOf, startBenchServers, type BenchServers } from "./support/servers";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
/**
 * ABBA BAAB: a steady (or steadily bending) drift of the machine or of the growing database weighs
 * on both paths alike; four trials each, since this machine's speed also jumps within seconds.
 */
const ORDER = ["direct", "console", "console", "direct", "console", "direct", "direct", "console"] as const;
const IDENTITIES = 5000;
/**
 * Events per path before measuring. The app's process reaches its steady cost only after some
 * 20,000 events (V8 tiers its code up), and only the console path goes through it; a short warm-up
 * would charge that start to the console path.
 */
const WARM_EVENTS = Math.min(20_000, EVENTS);
/**
 * Events stored before anything is timed. An empty database ingests fastest and slows most over
 * its first 100,000 events (its indexes outgrow the caches), which would favour whichever trial
 * comes first; a platform is never empty anyway.
 */
const PREFILL_EVENTS = 2 * EVENTS;
const HEADER = "identityType,identityValue,event,date,targetId,targetName,source,score,carModel,visits:number,price:money";
const BASE_MS = Date.now() - 7 * 86_400_000;

/** `YYYY-MM-DD HH:MM:SS` in UTC+8 (the import's documented format). */
const homeTime = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 19).replace("T", " ");

/** One event as a CSV row and as the equivalent batchPushEvents item; `set` keeps identities apart. */
function eventRow(set: string, i: number): { csv: string; item: Record<string, string | number> } {
  const custom = i % 2 === 0;
  const ms = BASE_MS + i * 1000;
  const item: Record<string, string | number> = {
    identityType: `bench-${set}`,
    identityValue: `U-${i % IDENTITIES}`,
    event: custom ? "c_bench_visit" : "open_page",
    date: new Date(ms).toISOString().slice(0, 19) + "Z",
    targetId: `p-${i % 97}`,
    targetName: `页面 ${i % 97}`,
    source: "bench",
    score: i % 5,
  };
  if (custom) Object.assign(item, { carModel: `X${i % 7}`, visits: i % 9, price: (i % 500) + 0.5 });
  const csv = [item.identityType, item.identityValue, item.event, homeTime(ms), item.targetId, `"${item.targetName}"`, item.source, item.score, custom ? item.carModel : "", custom ? item.visits : "", custom ? String(item.price) : ""].join(",");
  return { csv, item };
}

async function writeCsv(file: string, set: string, count: number): Promise<void> {
  const lines = [HEADER];
  for (let i = 0; i < count; i++) lines.push(eventRow(set, i).csv);
  await writeFile(file, `\uFEFF${lines.join("\r\n")}\r\n`);
}

type Result = { events: number; seconds: number; failed: number };

/** CPU time per process (this load generator, the proxy, the sandbox), to see where an event's cost goes. */
type Cpu = { client: number; proxy: number; sandbox: number };
const cpuNow = (s: BenchServers): Cpu => {
  const own = process.cpuUsage();
  return { client: (own.user + own.system) / 1000, proxy: cpuMsOf(s.pids.forwarders) ?? NaN, sandbox: cpuMsOf(s.pids.sandbox) ?? NaN };
};
const cpuAdd = (into: Cpu, from: Cpu, to: Cpu) => {
  for (const k of ["client", "proxy", "sandbox"] as const) into[k] += to[k] - from[k];
};

/**
 * The request bodies of a direct round, made before it is timed: the console path's input (the CSV
 * file) is written before its clock starts too, so neither path pays for making its test data.
 */
function directBodies(set: string, from0: number, count: number): { body: string; events: number }[] {
  const bodies = [];
  for (let from = from0; from < from0 + count; from += MAX_BATCH_EVENTS) {
    const events = [];
    for (let i = from; i < Math.min(from0 + count, from + MAX_BATCH_EVENTS); i++) events.push(eventRow(set, i).item);
    bodies.push({ body: JSON.stringify({ events }), events: events.length });
  }
  return bodies;
}

async function direct(alpha: string, token: string, bodies: { body: string; events: number }[]): Promise<Result> {
  let next = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: DEFAULT_CONCURRENCY }, async () => {
      while (next < bodies.length) {
        const { body, events } = bodies[next++]!;
        const res = await fetch(`${alpha}/v1/collector/batchPushEvents?access_token=${token}`, { method: "POST", headers: { "content-type": "application/json" }, body });
        const answer = (await res.json()) as { success?: boolean };
        if (!res.ok || answer.success !== true) failed += events;
      }
    }),
  );
  const count = bodies.reduce((n, b) => n + b.events, 0);
  return { events: count - failed, seconds: (performance.now() - started) / 1000, failed };
}

/** One whole console import of `file` by the import task's work function, timed from its start to the last answer. */
async function viaConsole(alpha: string, token: string, file: string): Promise<Result> {
  const call = ((name, input) => callPlatform(operations[name], input as never, { apiUrl: alpha, accessToken: token })) as PlatformCall;
  const blob = await openAsBlob(file);
  const input: EventImportInput = { upload: "bench", name: path.basename(file), size: blob.size, rule: "date", locale: "en" };
  const saved = savedTask<EventImportCheckpoint>();
  const task = fakeTaskContext<EventImportInput, EventImportCheckpoint>(input, saved);
  const started = performance.now();
  const result = await runEventImport(task.ctx, {
    open: () => blob.stream() as ReadableStream<Uint8Array>,
    send: sendToPlatform(call),
    classify: classifyPlatformError,
    describe: describeInEnglish,
    labels: { row: "row", reason: "reason" },
    headerError: (problems) => new Error(`the CSV header was refused: ${problems.join(", ")}`),
  });
  task.finish();
  const seconds = (performance.now() - started) / 1000;
  if (result.failed > 0) console.error(`  first failure: ${task.text().split("\r\n")[1]?.trim()}`);
  return { events: result.sent, seconds, failed: result.failed };
}

const rate = (r: Result) => r.events / r.seconds;
const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

const add = (a: Result, b: Result): Result => ({ events: a.events + b.events, seconds: a.seconds + b.seconds, failed: a.failed + b.failed });

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), "events-import-bench-"));
  const servers = await startBenchServers({ customers: 0, placeApart: true });
  try {
    const warmFile = path.join(dir, "warm.csv");
    await writeCsv(warmFile, "warm-console", WARM_EVENTS);
    const files = ORDER.filter((trial) => trial === "console").map((_, i) => path.join(dir, `events-${i}.csv`));
    for (const [i, file] of files.entries()) await writeCsv(file, `console-${i}`, EVENTS);
    console.log(`${fmt(EVENTS)} events per trial, batches of ${MAX_BATCH_EVENTS}, ${DEFAULT_CONCURRENCY} at the sandbox at once, trials ${ORDER.join(", ")}`);
    for (let from = 0; from < PREFILL_EVENTS; from += 50_000) await direct(servers.alpha, servers.token, directBodies("prefill", from, Math.min(50_000, PREFILL_EVENTS - from)));
    // Warm-up of both paths alike: connections, JIT, prepared statements (not counted). The app's
    // process is warmed too, or the console path alone would pay for its cold start.
    await direct(servers.alpha, servers.token, directBodies("warm", 0, WARM_EVENTS));
    await viaConsole(servers.alpha, servers.token, warmFile);

    const zero = (): Result => ({ events: 0, seconds: 0, failed: 0 });
    const totals = { direct: zero(), console: zero() };
    const cpu = { direct: { client: 0, proxy: 0, sandbox: 0 }, console: { client: 0, proxy: 0, sandbox: 0 } };
    let consoleTrials = 0;
    let directTrials = 0;
    for (const trial of ORDER) {
      const bodies = trial === "direct" ? directBodies(`direct-${directTrials++}`, 0, EVENTS) : undefined;
      const before = cpuNow(servers);
      const r = bodies ? await direct(servers.alpha, servers.token, bodies) : await viaConsole(servers.alpha, servers.token, files[consoleTrials++]!);
      cpuAdd(cpu[trial], before, cpuNow(servers));
      totals[trial] = add(totals[trial], r);
      console.log(`  ${trial.padEnd(7)} ${fmt(rate(r)).padStart(7)} events/s`);
    }
    const [d, c] = [totals.direct, totals.console];

    console.log("\n| path    | events  | failed | seconds | events/s |");
    console.log("|---------|---------|--------|---------|----------|");
    for (const [name, r] of [["direct", d], ["console", c]] as const) {
      console.log(`| ${name.padEnd(7)} | ${fmt(r.events).padStart(7)} | ${String(r.failed).padStart(6)} | ${fmt(r.seconds, 2).padStart(7)} | ${fmt(rate(r)).padStart(8)} |`);
    }
    console.log(`ratio console/direct: ${fmt(rate(c) / rate(d), 2)} (target >= 0.9)`);
    const perEvent = (x: Cpu, r: Result) => (["client", "proxy", "sandbox"] as const).map((k) => `${k} ${fmt((x[k] * 1000) / r.events)}`).join(", ");
    console.log(`CPU µs per event — direct: ${perEvent(cpu.direct, d)}; console: ${perEvent(cpu.console, c)} (the import task runs in this process, as "client"; the proxy's process does nothing on either path)`);
    // On a saturated machine the rate follows the CPU an event costs in all processes together; with a
    // core per process it would follow the busiest process. Both are shown so the figure can be read.
    const busiest = (x: Cpu, r: Result) => Math.max(x.client, x.proxy, x.sandbox) / r.events;
    const total = (x: Cpu, r: Result) => (x.client + x.proxy + x.sandbox) / r.events;
    console.log(`CPU per event, all processes: direct/console ${fmt(total(cpu.direct, d) / total(cpu.console, c), 2)} (what a saturated machine's ratio tends to)`);
    console.log(`projection with a core per process (busiest process): ratio ${fmt(busiest(cpu.direct, d) / busiest(cpu.console, c), 2)} — computed from CPU figures, not measured`);
    console.log(`machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}; ${servers.placement}`);
    const batches = Object.entries(await sandboxCalls(sandboxControl(servers.alpha))).filter(([k]) => k.includes("batchPushEvents"));
    console.log(`sandbox batchPushEvents calls: ${batches.map(([k, v]) => `${k} ${v}`).join(", ")}`);
    if (d.failed > 0 || c.failed > 0) process.exitCode = 1;
  } finally {
    servers.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
