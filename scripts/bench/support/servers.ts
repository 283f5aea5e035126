/**
 * The servers of the benchmarks that go through the app's platform proxy, each in its own child
 * process (as on separate machines): the sandbox (in memory, loopback, port chosen by the system) and
 * the forwarders — the app's proxy (`handleProxyRequest` behind a node:http adapter: route match,
 * session stand-in, CSRF, validation, token, upstream call, lossless parse, JSON with string ids).
 * Next's own routing is not included
 * (no `next build` needed; scripts/bench/proxy.ts measures through `next start`); the session and
 * token lookups are stand-ins (in the app they are remembered, lib/proxy/proxy-cache.ts).
 *
 * `startBenchServers()` starts both and answers their addresses and a sandbox access token; this
 * file is also the children's entry point (`--sandbox`, `--forwarders <url>`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setPriority } from "node:os";
import { createInterface } from "node:readline";
import { pin, placement } from "./processes";

/** CPU milliseconds of a process (events-import reads it from here). */
export { cpuMsOf } from "./processes";

export type BenchServers = { alpha: string; proxyUrl: string; token: string; pids: { sandbox: number; forwarders: number }; placement: string; close(): void };

/** The openAppId the proxy's session stand-in belongs to (what the browser sends as X-Open-App-Id). */
export const BENCH_OPEN_APP_ID = "alpha-app";

async function sandboxRole(customers: number): Promise<void> {
  const { loadSandboxConfig } = await import("../../../sandbox/config");
  const { startSandbox } = await import("../../../sandbox/server");
  // Webhooks off: the sandbox must not post changes to an app (on port 3000 or wherever) that is not part of the benchmark.
  process.env.SANDBOX_WEBHOOK_ENABLED = "false";
  const sandbox = await startSandbox({ ...loadSandboxConfig({ SANDBOX_ALPHA_PORT: "0", SANDBOX_BETA_PORT: "0" }), dbFile: ":memory:" });
  const alpha = sandbox.urls.alpha!;
  if (customers > 0) {
    const { sandboxControl } = await import("../../../lib/platform/testing/sandbox-control");
    await sandboxControl(alpha)("/seed", { customers });
  }
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
  const { handleProxyRequest } = await import("../../../lib/proxy/proxy");
  const { sandboxControl, sandboxToken } = await import("../../../lib/platform/testing/sandbox-control");
  const { sandboxProxyDeps } = await import("../../../lib/proxy/testing/sandbox-deps");
  const token = await sandboxToken(sandboxControl(sandboxUrl));
  const deps = sandboxProxyDeps(sandboxUrl, token, { openAppId: BENCH_OPEN_APP_ID, tenantId: "80000000001" });

  const proxy = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const body = await readBody(req);
    const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: body ? new Uint8Array(body) : undefined });
    const response = await handleProxyRequest(request, deps);
    const out = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(out);
  });

  const proxyUrl = await new Promise<string>((resolve) => proxy.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`)));
  process.stdout.write(`${JSON.stringify({ proxyUrl, token })}\n`);
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

/** Places the processes apart (processes.ts `placement`); answers what was done, for the printout. */
function placeProcesses(sandbox: number, app: number): string {
  const place = placement();
  if (!place) return "not pinned: all processes share the cores";
  pin(sandbox, place.sandbox);
  for (const pid of [process.pid, app]) pin(pid, place.app);
  setPriority(process.pid, 10);
  return `the sandbox on core ${place.sandbox}, the app and the load generator (nice 10) on core(s) ${place.app}`;
}

/**
 * Starts the sandbox (seeded with `customers`, none when 0) and the forwarders; `close()` stops both.
 * `placeApart`: see placeProcesses above (the answer's `placement` says what was done).
 */
export async function startBenchServers(options: { customers: number; placeApart?: boolean }): Promise<BenchServers> {
  const children: ChildProcess[] = [];
  const close = () => {
    for (const child of children) child.kill();
  };
  try {
    const sb = await startChild(["--sandbox", String(options.customers)]);
    children.push(sb.child);
    const fw = await startChild(["--forwarders", sb.info.alpha!]);
    children.push(fw.child);
    const placed = options.placeApart ? placeProcesses(sb.child.pid!, fw.child.pid!) : "not pinned: all processes share the cores";
    return { alpha: sb.info.alpha!, proxyUrl: fw.info.proxyUrl!, token: fw.info.token!, pids: { sandbox: sb.child.pid!, forwarders: fw.child.pid! }, placement: placed, close };
  } catch (error) {
    close();
    throw error;
  }
}

if (process.argv[1] === import.meta.filename) {
  const [role, arg] = process.argv.slice(2);
  const run = role === "--sandbox" ? sandboxRole(Number(arg)) : role === "--forwarders" ? forwardersRole(arg!) : Promise.reject(new Error(`unknown role ${role}`));
  run.catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
