import { e2eSuite, sandboxServer } from "./scripts/testing/playwright-suite";

/**
 * A background export across a hard restart of the app (e2e/restart): the sandbox is a web server of
 * the run, the app is not — the test starts `next start` itself, kills its process group and starts
 * it again on the same store (a SQLite file, then a PostgreSQL schema of its own, dropped after).
 * The app's port and the sandbox's are e2e-env's (E2E_*_PORT), free once the other suites are done.
 * Without TEST_DATABASE_URL the PostgreSQL half is skipped, and with CI=true it fails instead.
 */
export default e2eSuite({
  testDir: "e2e/restart",
  timeout: 300_000,
  outputDir: "test-results/e2e-restart",
  webServer: [sandboxServer()],
});
