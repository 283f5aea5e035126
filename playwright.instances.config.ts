import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "./scripts/testing/browser";
import { instancesRun } from "./e2e/instances/instances-env";
import { e2ePorts, e2eUrls, sandboxEnv } from "./scripts/testing/e2e-env";

const launchOptions = chromiumLaunchOptions();

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

export default defineConfig({
  testDir: "e2e/instances",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  outputDir: "test-results/e2e-instances",
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  globalTeardown: "./e2e/instances/drop-schema.ts",
  use: { trace: "retain-on-failure", screenshot: "only-on-failure", launchOptions },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], launchOptions } }],
  webServer: run.enabled
    ? [
        {
          name: "sandbox",
          command: "node --import tsx sandbox/main.ts --seed 60",
          url: `${e2eUrls.alpha}/health`,
          env: sandboxEnv(),
          reuseExistingServer: false,
          timeout: 120_000,
          stdout: "ignore",
          stderr: "pipe",
        },
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
