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
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { Agent, request } from "undici";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 2000);
const PATH = "/v1/customers?rows=50";
const ROUNDS = 3;

// ── roles ───────────────────────────────────────────────────────────────────────────────────────

async function sandboxRole(): Promise<void> {
  const { loadSandboxConfig } = await import("../../sandbox/config");
  const { startSandbox } = await import("../../sandbox/server");
  const sandbox = await startSandbox({ ...loadSandboxConfig({ SANDBOX_ALPHA_PORT: "0", SANDBOX_BETA_PORT: "0" }), dbFile: ":memory:" });
  const alpha = sandbox.urls.alpha!;
  const seeded = await fetch(`${alpha}/__sandbox/seed`, { method: "POST", body: JSON.stringify({ customers: CUSTOMERS }) });
  if (!seeded.ok) throw new Error(`seeding failed: HTTP ${seeded.status} (is the sandbox resource API merged?)`);
  process.stdout.write(`${JSON.stringify({ alpha })}\n`);
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  if (req.method === "GET" || req.method === "HEAD") return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

async function forwardersRole(sandboxUrl: string): Promise<void> {
  const { handleProxyRequest } = await import("../../lib/platform/proxy");
  const tokenRes = await fetch(`${sandboxUrl}/__sandbox/tokens`, { method: "POST", body: JSON.stringify({ environment: "alpha" }) });
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  const session = { openAppId: "alpha-app", tenantId: "80000000001" };
  const deps = {
    requireSession: async () => ({ ok: true as const, session }),
    getAccessToken: async () => ({ accessToken: token, apiUrl: sandboxUrl }),
    isReauthRequired: () => false,
    log: { info() {}, warn() {}, error() {} },
  };

  const proxy = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const body = await readBody(req);
    const response = await handleProxyRequest(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: body ? new Uint8Array(body) : undefined }), deps);
    const out = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(out);
  });

  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 128 });
  const bare = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = `${sandboxUrl}${req.url!.replace(/^\/api\/platform/, "")}${req.url!.includes("?") ? "&" : "?"}access_token=${token}`;
    const upstream = await request(url, { method: "GET", dispatcher: agent });
    const out = Buffer.from(await upstream.body.arrayBuffer());
    res.writeHead(upstream.statusCode, { "content-type": "application/json" }).end(out);
  });

  const listen = (server: ReturnType<typeof createServer>) =>
    new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
  const [proxyUrl, bareUrl] = [await listen(proxy), await listen(bare)];
  process.stdout.write(`${JSON.stringify({ proxyUrl, bareUrl, token })}\n`);
}

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

function startChild(args: string[]): Promise<{ child: ChildProcess; info: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    // `react-server` makes `server-only` importable outside Next, as in the app's server bundle.
    const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", import.meta.filename, ...args], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, LOG_LEVEL: "warn" } });
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (line) => resolve({ child, info: JSON.parse(line) as Record<string, string> }));
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}`)));
  });
}

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "-");

async function main(): Promise<void> {
  const role = process.argv[2];
  if (role === "--sandbox") return sandboxRole();
  if (role === "--forwarders") return forwardersRole(process.argv[3]!);

  const children: ChildProcess[] = [];
  try {
    const sb = await startChild(["--sandbox"]);
    children.push(sb.child);
    const fw = await startChild(["--forwarders", sb.info.alpha!]);
    children.push(fw.child);
    const targets = {
      direct: `${sb.info.alpha}${PATH}&access_token=${fw.info.token}`,
      proxy: `${fw.info.proxyUrl}/api/platform${PATH}`,
      bare: `${fw.info.bareUrl}/api/platform${PATH}`,
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
    for (const child of children) child.kill();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
