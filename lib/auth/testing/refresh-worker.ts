/**
 * A second app process for the cross-process refresh test: opens the same PostgreSQL schema, waits
 * for "go" on stdin, makes N concurrent getAccessToken calls and prints the tokens it got as JSON.
 * Run: node --conditions=react-server --import tsx lib/auth/testing/refresh-worker.ts
 * (env: TEST_DATABASE_URL, WORKER_SCHEMA, WORKER_KEY (base64), WORKER_CALLS, WORKER_OPEN_APP_ID,
 *  WORKER_TENANT_ID and the PLATFORM_* / SESSION_PASSWORD settings of the parent).
 */
import { resetEnvForTests } from "@/lib/env";
import { setStoreForTests } from "@/lib/store";
import { openStore } from "@/lib/store/database";
import { getAccessToken } from "../access-token";

async function main() {
  const store = await openStore({
    database: { kind: "postgres", url: process.env.TEST_DATABASE_URL! },
    tokenKeys: [{ id: "test1", key: Buffer.from(process.env.WORKER_KEY!, "base64") }],
    schema: process.env.WORKER_SCHEMA!,
  });
  resetEnvForTests();
  setStoreForTests(store);
  const key = { openAppId: process.env.WORKER_OPEN_APP_ID!, tenantId: process.env.WORKER_TENANT_ID! };
  process.stdout.write("ready\n");
  await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
  process.stdin.destroy();
  const calls = Number(process.env.WORKER_CALLS ?? "100");
  const results = await Promise.allSettled(Array.from({ length: calls }, () => getAccessToken(key)));
  const tokens = results.map((r) => (r.status === "fulfilled" ? r.value.accessToken : `error:${(r.reason as Error).message}`));
  process.stdout.write(`${JSON.stringify({ tokens })}\n`);
  await store.close();
}

main().catch((error) => {
  process.stderr.write(`worker failed: ${(error as Error).stack}\n`);
  process.exit(1);
});
