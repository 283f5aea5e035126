import { defineConfig, devices, type PlaywrightTestConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./browser";
import { e2eUrls, sandboxEnv } from "./e2e-env";

type SuiteOptions = Pick<PlaywrightTestConfig, "testDir" | "testIgnore" | "retries" | "timeout" | "outputDir" | "globalTeardown" | "webServer">;

/**
 * What the e2e suites (playwright*.config.ts) share: one worker in file order (they drive one
 * sandbox and one app), a real Chromium (Playwright's own, or the system's with its flags), traces
 * and screenshots kept on failure, JSON beside the list when `npm test` asks for it.
 */
export function e2eSuite(options: SuiteOptions) {
  const launchOptions = chromiumLaunchOptions();
  return defineConfig({
    fullyParallel: false,
    workers: 1,
    retries: 0,
    expect: { timeout: 10_000 },
    forbidOnly: !!process.env.CI,
    reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
    use: { trace: "retain-on-failure", screenshot: "only-on-failure", launchOptions },
    projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], launchOptions } }],
    ...options,
  });
}

/** The Platform Sandbox as a suite's web server, seeded with `seed` customers when given. */
export function sandboxServer(seed?: number) {
  return {
    name: "sandbox",
    command: `node --import tsx sandbox/main.ts${seed === undefined ? "" : ` --seed ${seed}`}`,
    url: `${e2eUrls.alpha}/health`,
    env: sandboxEnv(),
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
  };
}
