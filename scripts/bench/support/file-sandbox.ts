import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RunningSandbox } from "../../../sandbox/server";

/**
 * A sandbox in the benchmark's own process: free ports, its SQLite file in a new temporary folder
 * (`name` names it, `dir`; the benchmark may keep its own files there too), seeded by the caller
 * through `sandbox.ctx`; `close` stops it and removes the folder. Imported on first use, as the benchmarks load their code in a child process.
 */
export async function startFileSandbox(name: string): Promise<{ sandbox: RunningSandbox; dir: string; close(): Promise<void> }> {
  const { loadSandboxConfig } = await import("../../../sandbox/config");
  const { startSandbox } = await import("../../../sandbox/server");
  const dir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  const sandbox = await startSandbox({ ...loadSandboxConfig({ SANDBOX_ALPHA_PORT: "0", SANDBOX_BETA_PORT: "0" }), dbFile: path.join(dir, "sandbox.sqlite") });
  return {
    sandbox,
    dir,
    async close() {
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
