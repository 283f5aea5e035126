/**
 * Benchmark of the event import (not a test; `npm run bench`). 100,000 events (BENCH_EVENTS) go into
 * the sandbox two ways, with the same concurrency (the importer's DEFAULT_CONCURRENCY):
 *   direct  – POST /v1/collector/batchPushEvents of 100 events straight to the sandbox API: the
 *             sandbox's own batch ingest rate;
 *   console – the importer the /events page runs (`startEventImport`: the streaming CSV reader, row
 *             mapping and validation, the batch scheduler, the browser's fetcher) reading a generated
 *             CSV file from disk (`fs.openAsBlob(...).stream()`, as `File.stream()` in the browser)
 *             and sending through the app's platform proxy (scripts/bench/support/servers.ts).
 * Printed: events/s of both and the ratio console/direct (target >= 0.9).
 *
 * Fairness: the two paths take turns in halves (direct, console, console, direct) so that the
 * growing database and the machine's load hit both alike; every event is new (distinct identity,
 * type and time), so nothing is dropped as a duplicate (§2.3). Loopback only; the sandbox is in
 * memory and every server stops at the end. The CSV files go to a temporary folder that is removed.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { openAsBlob } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createBrowserFetch } from "../../lib/api/browser-fetch";
import { describeInEnglish } from "../../lib/events/event-csv";
import { DEFAULT_CONCURRENCY, MAX_BATCH_EVENTS } from "../../lib/events/import-run";
import { batchPushThrough, startEventImport } from "../../lib/events/start-import";
import { BENCH_OPEN_APP_ID, startBenchServers } from "./support/servers";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const HALF = Math.floor(EVENTS / 2);
const IDENTITIES = 5000;
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

async function direct(alpha: string, token: string, set: string, count: number): Promise<Result> {
  let next = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: DEFAULT_CONCURRENCY }, async () => {
      for (;;) {
        const from = next;
        if (from >= count) return;
        next = Math.min(count, from + MAX_BATCH_EVENTS);
        const events = [];
        for (let i = from; i < next; i++) events.push(eventRow(set, i).item);
        const res = await fetch(`${alpha}/v1/collector/batchPushEvents?access_token=${token}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ events }) });
        const body = (await res.json()) as { success?: boolean };
        if (!res.ok || body.success !== true) failed += events.length;
      }
    }),
  );
  return { events: count - failed, seconds: (performance.now() - started) / 1000, failed };
}

async function viaConsole(proxyUrl: string, file: string): Promise<Result> {
  const origin = new URL(proxyUrl).origin;
  // The browser's fetcher, unchanged; in Node the relative proxy URL gets the forwarder's origin, and
  // Origin says "same origin" as the browser would (the proxy's CSRF check).
  const fetcher = createBrowserFetch({
    openAppId: () => BENCH_OPEN_APP_ID,
    sessionToken: () => undefined,
    storage: () => undefined,
    onReauth: () => {},
    fetch: (url, init) => {
      const headers = new Headers(init?.headers);
      headers.set("origin", origin);
      return fetch(`${proxyUrl}${String(url)}`, { ...init, headers });
    },
  });
  const started = performance.now();
  const opened = await startEventImport({ stream: (await openAsBlob(file)).stream() as ReadableStream<Uint8Array>, send: batchPushThrough(fetcher), describe: describeInEnglish, rule: "date" });
  if (!("run" in opened)) throw new Error(`the CSV header was refused: ${JSON.stringify(opened.problems)}`);
  const result = await opened.run.done;
  if (opened.report.count > 0) console.error(`  first failure: ${opened.report.parts()[2]?.trim()}`);
  return { events: result.sent, seconds: (performance.now() - started) / 1000, failed: result.failed };
}

const rate = (r: Result) => r.events / r.seconds;
const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), "events-import-bench-"));
  const servers = await startBenchServers({ customers: 0 });
  try {
    const files = [path.join(dir, "a.csv"), path.join(dir, "b.csv")];
    await writeCsv(files[0]!, "console-a", HALF);
    await writeCsv(files[1]!, "console-b", EVENTS - HALF);
    console.log(`${fmt(EVENTS)} events per path, batches of ${MAX_BATCH_EVENTS}, concurrency ${DEFAULT_CONCURRENCY}, halves in turn (direct, console, console, direct)`);
    // Warm-up: connections, JIT, prepared statements (not counted).
    await direct(servers.alpha, servers.token, "warm", 2000);

    const d1 = await direct(servers.alpha, servers.token, "direct-a", HALF);
    const c1 = await viaConsole(servers.proxyUrl, files[0]!);
    const c2 = await viaConsole(servers.proxyUrl, files[1]!);
    const d2 = await direct(servers.alpha, servers.token, "direct-b", EVENTS - HALF);
    const sum = (a: Result, b: Result): Result => ({ events: a.events + b.events, seconds: a.seconds + b.seconds, failed: a.failed + b.failed });
    const d = sum(d1, d2);
    const c = sum(c1, c2);

    console.log("\n| path    | events  | failed | seconds | events/s |");
    console.log("|---------|---------|--------|---------|----------|");
    for (const [name, r] of [["direct", d], ["console", c]] as const) {
      console.log(`| ${name.padEnd(7)} | ${fmt(r.events).padStart(7)} | ${String(r.failed).padStart(6)} | ${fmt(r.seconds, 2).padStart(7)} | ${fmt(rate(r)).padStart(8)} |`);
    }
    console.log(`\nhalves events/s: direct ${fmt(rate(d1))} / ${fmt(rate(d2))}, console ${fmt(rate(c1))} / ${fmt(rate(c2))}`);
    console.log(`ratio console/direct: ${fmt(rate(c) / rate(d), 2)} (target >= 0.9)`);
    const stored = await fetch(`${servers.alpha}/__sandbox/stats`).then((r) => r.json() as Promise<{ calls?: Record<string, number> }>);
    const batches = Object.entries(stored.calls ?? {}).filter(([k]) => k.includes("batchPushEvents"));
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
