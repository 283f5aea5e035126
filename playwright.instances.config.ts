import { instancesRun } from "./e2e/instances/instances-env";
import { e2ePorts, e2eUrls } from "./scripts/testing/e2e-env";
import { e2eSuite, sandboxServer } from "./scripts/testing/playwright-suite";

/**
 * The console as two instances (e2e/instances): two `next start` of the one production build, one
 * PostgreSQL schema of their own (fresh per run, dropped afterwards), a round-robin proxy on the app's
 * address (E2E_APP_PORT) in front of them on the next two ports, and a sandbox that knows the app by
 * the proxy's address only (its marketplace, admin iframe and webhooks all go through it).
 * Without TEST_DATABASE_URL the suite is skipped, and with CI=true it fails instead (the config throws).
 */
const run = instancesRun();

const instance = (name: string, port: number) => ({
  name,
  command: "node node_modules/next/dist/bin/next start",
  url: `http://127.0.0.1:${port}/api/health`,
  env: run.appEnv(port),
  reuseExistingServer: false,
  timeout: 120_000,
  stdout: "ignore" as const,
  stderr: "pipe" as const,
});

export default e2eSuite({
  testDir: "e2e/instances",
  timeout: 120_000,
  outputDir: "test-results/e2e-instances",
  globalTeardown: "./e2e/instances/drop-schema.ts",
  webServer: run.enabled
    ? [
        sandboxServer(60),
        instance("instance-a", run.instancePorts[0]),
        instance("instance-b", run.instancePorts[1]),
        {
          name: "proxy",
          command: `node --import tsx e2e/support/round-robin-proxy.ts ${e2ePorts.app} ${run.instanceUrls.join(" ")}`,
          url: `${e2eUrls.app}/__proxy/health`,
          reuseExistingServer: false,
          timeout: 30_000,
          stdout: "ignore",
          stderr: "pipe",
        },
      ]
    : [],
});
