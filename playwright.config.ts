import { appEnv, e2eDataDir, e2eUrls } from "./scripts/testing/e2e-env";
import { e2eSuite, sandboxServer } from "./scripts/testing/playwright-suite";

/**
 * E2E tests drive a real Chromium through the sandbox (alpha, beta) and the app's production build
 * (`npm run build` first; `npm test` does it). Servers run on the contract ports unless E2E_*_PORT say
 * otherwise; see scripts/testing/e2e-env.ts.
 */
export default e2eSuite({
  testDir: "e2e",
  // The two-instance and restart suites have servers of their own (playwright.instances.config.ts, playwright.restart.config.ts).
  testIgnore: ["instances/**", "restart/**"],
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  outputDir: "test-results/e2e",
  webServer: [
    sandboxServer(200),
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
