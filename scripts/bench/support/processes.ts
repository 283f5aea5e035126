/**
 * Server processes of the benchmarks that run the real thing (the sandbox's `main.ts`, `next start`):
 * each in a process group of its own, so that the whole tree is stopped at the end and its CPU time
 * can be read; optionally bound to some cores (Linux `taskset`, which its children inherit).
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import path from "node:path";

export type Server = { name: string; child: ChildProcess; pid: number };

const running: Server[] = [];
let stopping = false;

/**
 * Starts `args` (a node script and its arguments) under this Node in a process group of its own,
 * on `cores` (e.g. "0" or "1-3") when given and taskset exists. Its stderr's tail is printed if it
 * dies before `stopAll`.
 */
export function startServer(name: string, args: string[], env: Record<string, string>, cores?: string): Server {
  const pinned = cores !== undefined && hasTaskset();
  const [command, argv] = pinned ? ["taskset", ["-c", cores, process.execPath, ...args]] : [process.execPath, args];
  const child = spawn(command, argv, { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"], detached: true });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  child.on("exit", (code, signal) => {
    if (!stopping) console.error(`${name} exited (${signal ?? code}): ${stderr}`);
  });
  const server = { name, child, pid: child.pid! };
  running.push(server);
  return server;
}

/** SIGTERM to every started group; waits (at most `graceMs`) for them to exit (a CPU profile is written on exit). */
export async function stopAll(graceMs = 10_000): Promise<void> {
  stopping = true;
  const exits = running.filter((s) => s.child.exitCode === null && s.child.signalCode === null).map((s) => {
    const exited = new Promise<void>((resolve) => s.child.once("exit", () => resolve()));
    try {
      process.kill(-s.pid, "SIGTERM");
    } catch {
      return Promise.resolve(); // already gone
    }
    return exited;
  });
  await Promise.race([Promise.all(exits), new Promise((r) => setTimeout(r, graceMs).unref())]);
  for (const s of running) {
    try {
      process.kill(-s.pid, "SIGKILL");
    } catch {
      // Gone, as it should be.
    }
  }
}

export async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

let taskset: boolean | undefined;
function hasTaskset(): boolean {
  taskset ??= spawnSync("taskset", ["-p", String(process.pid)], { stdio: "ignore" }).status === 0;
  return taskset;
}

/**
 * Cores for a bench's processes as if each ran on its own machine, as they do in reality (the
 * platform's servers, the app's server, the user's browser): the sandbox core 0, the app and the
 * load generator the others, where the load generator should run at a lower priority (nice 10) so
 * that it never delays the app. Otherwise the browser's work takes CPU from the platform whose rate
 * is measured and from the app in the middle. Undefined (all share the cores) with BENCH_PIN=0, a
 * single core, or no taskset.
 */
export function placement(): { sandbox: string; app: string } | undefined {
  const n = availableParallelism();
  if (process.env.BENCH_PIN === "0" || n < 2 || !hasTaskset()) return undefined;
  return { sandbox: "0", app: n > 2 ? `1-${n - 1}` : "1" };
}

/** Binds a running process to `cores` (its threads too). */
export function pin(pid: number, cores: string): void {
  execFileSync("taskset", ["-apc", cores, String(pid)], { stdio: "ignore" });
}

/** A process's group and CPU milliseconds (user + system) so far, from /proc (Linux); undefined once it is gone. */
function statOf(pid: number | string): { pgrp: number; cpuMs: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // After the command name (in parentheses, may hold spaces): state, ppid, pgrp, … utime (12th), stime (13th).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { pgrp: Number(fields[2]), cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 }; // USER_HZ
  } catch {
    return undefined;
  }
}

/** CPU milliseconds (user + system) a process has used so far; undefined where /proc cannot tell. */
export const cpuMsOf = (pid: number): number | undefined => statOf(pid)?.cpuMs;

/** CPU milliseconds (user + system) of every live process in the group `pgid`. */
export function groupCpuMs(pgid: number): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    const stat = /^\d+$/.test(entry) ? statOf(entry) : undefined;
    if (stat?.pgrp === pgid) total += stat.cpuMs;
  }
  return total;
}

export const machineLoad = () => `${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`;

/** Newest modification time (ms) of the files under `paths` (folders walked, test files skipped). */
function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (p: string) => {
    if (!existsSync(p)) return;
    const s = statSync(p);
    if (s.isDirectory()) {
      for (const e of readdirSync(p)) if (e !== "node_modules" && e !== ".next") visit(path.join(p, e));
    } else if (!/\.test\.tsx?$/.test(p)) newest = Math.max(newest, s.mtimeMs);
  }
  for (const p of paths) visit(p);
  return newest;
}

/**
 * `next build [args]` of the app in `dir` when its build is missing or older than any of its
 * `sources` (relative to `dir`); answers whether it built.
 */
export function ensureNextBuild(dir: string, sources: string[], args: string[] = []): boolean {
  const buildId = path.join(dir, ".next", "BUILD_ID");
  if (existsSync(buildId) && statSync(buildId).mtimeMs >= newestMtime(sources.map((s) => path.join(dir, s)))) return false;
  console.log(`building ${dir} (next build)…`);
  const result = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build", ...args, ...(dir === "." ? [] : [dir])], { stdio: "inherit" });
  if (result.status !== 0) throw new Error(`next build of ${dir} failed`);
  return true;
}
