import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "./scripts/testing/browser";
import { appEnv, e2eDataDir, e2eUrls, sandboxEnv } from "./scripts/testing/e2e-env";

const launchOptions = chromiumLaunchOptions();

/**
 * E2E tests drive a real Chromium through the sandbox (alpha, beta) and the app's production build
 * (`npm run build` first; `npm test` does it). Servers run on the contract ports unless E2E_*_PORT say
 * otherwise; see scripts/testing/e2e-env.ts.
 */
export default defineConfig({
  testDir: "e2e",
  // The two-instance and restart suites have servers of their own (playwright.instances.config.ts, playwright.restart.config.ts).
  testIgnore: ["instances/**", "restart/**"],
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  outputDir: "test-results/e2e",
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: {
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions,
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], launchOptions } }],
  webServer: [
    {
      name: "sandbox",
      command: "node --import tsx sandbox/main.ts --seed 200",
      url: `${e2eUrls.alpha}/health`,
      env: sandboxEnv(),
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      name: "app",
      command: `rm -rf ${e2eDataDir} && mkdir -p ${e2eDataDir} && node node_modules/next/dist/bin/next start`,
      url: `${e2eUrls.app}/api/health`,
      env: appEnv(),
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore",
      stderr: "pipe",
    },
  ],
});
