/**
 * One `next start` of the production build that a test starts, kills hard and starts again on the
 * same store (Playwright's webServer cannot be restarted mid-test). It runs in a process group of
 * its own, so a SIGKILL of the group takes Next's children with it, as a crash or an OOM kill would.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, openSync, closeSync } from "node:fs";
import path from "node:path";

export type AppProcess = {
  /** Starts the app; resolves when its health route answers 200. */
  start(): Promise<void>;
  /** SIGKILL of the whole process group; resolves when the process is gone (its port is free). */
  kill(): Promise<void>;
  readonly running: boolean;
};

const live = new Set<ChildProcess>();
// However the worker ends: no server of a test outlives it.
process.once("exit", () => {
  for (const child of live) killGroup(child);
});

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

export function appProcess(options: { port: number; env: Record<string, string>; logFile: string; startTimeoutMs?: number }): AppProcess {
  let child: ChildProcess | undefined;
  let starts = 0;
  const health = `http://127.0.0.1:${options.port}/api/health`;

  return {
    get running() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },

    async start() {
      if (this.running) throw new Error("the app is already running");
      mkdirSync(path.dirname(options.logFile), { recursive: true });
      const log = openSync(options.logFile, "a");
      starts += 1;
      // Loopback only: the sandbox and the browser reach it as localhost.
      const started = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(options.port)], {
        env: { ...process.env, ...options.env, PORT: String(options.port) },
        stdio: ["ignore", log, log],
        detached: true,
      });
      closeSync(log);
      child = started;
      live.add(started);
      started.once("exit", () => live.delete(started));
      const deadline = Date.now() + (options.startTimeoutMs ?? 120_000);
      for (;;) {
        if (!this.running) throw new Error(`next start (start ${starts}) exited with ${started.exitCode ?? started.signalCode}; see ${options.logFile}`);
        const ok = await fetch(health, { signal: AbortSignal.timeout(5_000) }).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) return;
        if (Date.now() > deadline) throw new Error(`next start (start ${starts}) did not answer ${health} in time; see ${options.logFile}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    },

    async kill() {
      const current = child;
      if (!current || !this.running) return;
      const exited = new Promise<void>((resolve) => current.once("exit", () => resolve()));
      killGroup(current);
      await exited;
    },
  };
}
