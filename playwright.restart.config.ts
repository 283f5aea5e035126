import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "./scripts/testing/browser";
import { e2eUrls, sandboxEnv } from "./scripts/testing/e2e-env";

const launchOptions = chromiumLaunchOptions();

/**
 * A background export across a hard restart of the app (e2e/restart): the sandbox is a web server of
 * the run, the app is not — the test starts `next start` itself, kills its process group and starts
 * it again on the same store (a SQLite file, then a PostgreSQL schema of its own, dropped after).
 * The app's port and the sandbox's are e2e-env's (E2E_*_PORT), free once the other suites are done.
 * Without TEST_DATABASE_URL the PostgreSQL half is skipped, and with CI=true it fails instead.
 */
export default defineConfig({
  testDir: "e2e/restart",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 300_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  outputDir: "test-results/e2e-restart",
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: { trace: "retain-on-failure", screenshot: "only-on-failure", launchOptions },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], launchOptions } }],
  webServer: [
    {
      name: "sandbox",
      command: "node --import tsx sandbox/main.ts",
      url: `${e2eUrls.alpha}/health`,
      env: sandboxEnv(),
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore",
      stderr: "pipe",
    },
  ],
});
