import { spawn } from "node:child_process";
import type { TestStore } from "@/lib/store/testing";

/**
 * A second app process (refresh-worker.ts) on the same PostgreSQL schema: `ready` once it has
 * opened the store; `go()` makes it fire its concurrent getAccessToken calls and resolves with the
 * tokens it got; `kill()` ends it at once (SIGKILL), wherever it is.
 */
export async function startSecondAppProcess(
  t: TestStore,
  key: { openAppId: string; tenantId: string },
  calls = 100,
): Promise<{ go(): Promise<string[]>; kill(): void }> {
  const worker = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/auth/testing/refresh-worker.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "test",
      WORKER_SCHEMA: t.schema!,
      WORKER_KEY: t.store.tokenKeys[0]!.key.toString("base64"),
      WORKER_CALLS: String(calls),
      WORKER_OPEN_APP_ID: key.openAppId,
      WORKER_TENANT_ID: key.tenantId,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  worker.stderr.on("data", (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => worker.once("exit", resolve));
  await new Promise<void>((resolve, reject) => {
    worker.stdout.on("data", (d) => {
      out += d;
      if (out.includes("ready\n")) resolve();
    });
    void exited.then((code) => reject(new Error(`second process exited ${code}: ${err}`)));
  });
  return {
    kill: () => void worker.kill("SIGKILL"),
    async go() {
      worker.stdin.write("go\n");
      const code = await exited;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (code !== 0 || !line) throw new Error(`second process exited ${code}: ${err}`);
      return (JSON.parse(line) as { tokens: string[] }).tokens;
    },
  };
}
