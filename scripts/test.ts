import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { findBrowser, HOW_TO_GET_A_BROWSER } from "./testing/browser";

/**
 * `npm test`: typecheck, lint, Vitest (unit + integration), Playwright e2e, the first-load JS budget,
 * the two-instance e2e (playwright.instances.config.ts) and the export across a restart
 * (playwright.restart.config.ts), in that order. Every layer runs even when an earlier one failed
 * (one run shows every problem); the exit code is non-zero when any layer failed. Ends with a
 * summary and one `tests: N passed, N failed, N skipped` line.
 */
const CI = process.env.CI === "true" || process.env.CI === "1";
const reports = path.resolve(".data/test-reports");

type Counts = { passed: number; failed: number; skipped: number };
type StageResult = { name: string; ok: boolean; seconds: number; note: string; counts?: Counts };

const results: StageResult[] = [];

function run(command: string, args: string[], extraEnv: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, ...extraEnv } });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on("error", () => resolve(1));
  });
}

function banner(text: string): void {
  console.log(`\n\u001b[1m━━ ${text} ${"━".repeat(Math.max(0, 70 - text.length))}\u001b[0m`);
}

function loud(text: string): void {
  const line = "!".repeat(78);
  console.warn(`\n${line}\n${text}\n${line}\n`);
}

async function stage(name: string, body: () => Promise<Omit<StageResult, "name" | "seconds">>): Promise<void> {
  banner(name);
  const started = Date.now();
  const result = await body();
  results.push({ name, seconds: (Date.now() - started) / 1000, ...result });
}

const bin = (name: string) => path.resolve("node_modules/.bin", name);

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

async function main() {
  rmSync(reports, { recursive: true, force: true });
  mkdirSync(reports, { recursive: true });

  await stage("typecheck", async () => {
    // Route types first, so a clean clone and a stale .next/ check the same thing.
    const code = (await run(bin("next"), ["typegen"])) || (await run(bin("tsc"), ["--noEmit"]));
    return { ok: code === 0, note: code === 0 ? "no type errors" : "type errors" };
  });

  await stage("lint", async () => {
    const code = await run(bin("eslint"), ["--max-warnings=0", "."]);
    return { ok: code === 0, note: code === 0 ? "clean" : "lint problems" };
  });

  await stage("unit + integration (vitest)", async () => {
    let pgProblem = "";
    if (!process.env.TEST_DATABASE_URL) {
      if (CI) pgProblem = "TEST_DATABASE_URL is not set: with CI=true the PostgreSQL tests must run.";
      else loud("TEST_DATABASE_URL is not set: the PostgreSQL tests are SKIPPED.\nSet it, e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test");
    }
    const file = path.join(reports, "vitest.json");
    const code = await run(bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile=${file}`]);
    const report = readJson(file) as
      | { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number }
      | undefined;
    const counts = report
      ? { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + report.numTodoTests }
      : undefined;
    if (pgProblem) console.error(pgProblem);
    const ok = code === 0 && !pgProblem;
    return { ok, counts, note: pgProblem || (ok ? "" : "tests failed") };
  });

  await stage("e2e (playwright)", async () => {
    const browser = findBrowser();
    if (!browser.found) {
      const message = `No browser for the e2e tests (${browser.reason}).\n${HOW_TO_GET_A_BROWSER}`;
      if (CI) {
        console.error(message);
        return { ok: false, note: "no browser (required with CI=true)" };
      }
      loud(`E2E TESTS SKIPPED. ${message}`);
      return { ok: true, note: "SKIPPED: no browser" };
    }
    console.log(`browser: ${browser.source}${browser.executablePath ? ` (${browser.executablePath})` : ""}`);
    const buildCode = await run(bin("next"), ["build"]);
    if (buildCode !== 0 || !existsSync(".next/BUILD_ID")) return { ok: false, note: "next build failed" };
    const file = path.join(reports, "playwright.json");
    const code = await run(bin("playwright"), ["test"], { PLAYWRIGHT_JSON_OUTPUT_NAME: file });
    const report = readJson(file) as { stats?: { expected: number; unexpected: number; skipped: number; flaky: number } } | undefined;
    const s = report?.stats;
    const counts = s ? { passed: s.expected + s.flaky, failed: s.unexpected, skipped: s.skipped } : undefined;
    return { ok: code === 0, counts, note: code === 0 ? (s?.flaky ? `${s.flaky} flaky` : "") : "tests failed" };
  });

  // Every console route's first-load JavaScript against its ceiling, from the build of the e2e stage.
  await stage("first-load JS budget", async () => {
    if (!existsSync(".next/diagnostics/route-bundle-stats.json")) return { ok: !CI, note: "SKIPPED: no build (see above)" };
    const code = await run(bin("tsx"), ["scripts/bench/console-first-load.ts", "--check"]);
    return { ok: code === 0, note: code === 0 ? "every console route within its ceiling" : "a route is over its ceiling" };
  });

  // The console as two instances behind a round-robin proxy over one PostgreSQL (e2e/instances): the
  // build of the previous stage, servers of its own on the same ports once the main suite is done.
  await stage("e2e: two instances (playwright)", async () => {
    if (!findBrowser().found || !existsSync(".next/BUILD_ID")) return { ok: !CI, note: "SKIPPED: no browser or no build (see above)" };
    if (!process.env.TEST_DATABASE_URL) {
      if (CI) {
        console.error("TEST_DATABASE_URL is not set: with CI=true the two-instance suite must run.");
        return { ok: false, note: "no PostgreSQL (required with CI=true)" };
      }
      loud("TWO-INSTANCE E2E SKIPPED: it needs PostgreSQL.\nSet TEST_DATABASE_URL, e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test");
      return { ok: true, note: "SKIPPED: TEST_DATABASE_URL not set" };
    }
    const file = path.join(reports, "playwright-instances.json");
    const code = await run(bin("playwright"), ["test", "-c", "playwright.instances.config.ts"], { PLAYWRIGHT_JSON_OUTPUT_NAME: file });
    const report = readJson(file) as { stats?: { expected: number; unexpected: number; skipped: number; flaky: number } } | undefined;
    const s = report?.stats;
    const counts = s ? { passed: s.expected + s.flaky, failed: s.unexpected, skipped: s.skipped } : undefined;
    return { ok: code === 0, counts, note: code === 0 ? "" : "tests failed" };
  });

  // A customer export across a hard kill and restart of the app, on SQLite and on PostgreSQL
  // (e2e/restart): the same build, its own sandbox and app on the same ports once the suites above are done.
  await stage("e2e: export across a restart", async () => {
    if (!findBrowser().found || !existsSync(".next/BUILD_ID")) return { ok: !CI, note: "SKIPPED: no browser or no build (see above)" };
    if (!process.env.TEST_DATABASE_URL && !CI) loud("EXPORT RESTART E2E: the PostgreSQL half is SKIPPED.\nSet TEST_DATABASE_URL, e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test");
    const file = path.join(reports, "playwright-restart.json");
    const code = await run(bin("playwright"), ["test", "-c", "playwright.restart.config.ts"], { PLAYWRIGHT_JSON_OUTPUT_NAME: file });
    const report = readJson(file) as { stats?: { expected: number; unexpected: number; skipped: number; flaky: number } } | undefined;
    const s = report?.stats;
    const counts = s ? { passed: s.expected + s.flaky, failed: s.unexpected, skipped: s.skipped } : undefined;
    return { ok: code === 0, counts, note: code === 0 ? (s?.skipped ? "PostgreSQL half skipped" : "") : "tests failed" };
  });

  banner("summary");
  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  for (const r of results) {
    const counts = r.counts ? `${r.counts.passed} passed, ${r.counts.failed} failed, ${r.counts.skipped} skipped` : "";
    console.log(`${r.ok ? "✔" : "✘"} ${r.name.padEnd(30)} ${`${r.seconds.toFixed(1)}s`.padStart(7)}  ${[counts, r.note].filter(Boolean).join(" · ")}`);
    if (r.counts) {
      total.passed += r.counts.passed;
      total.failed += r.counts.failed;
      total.skipped += r.counts.skipped;
    }
  }
  const failedStages = results.filter((r) => !r.ok).map((r) => r.name);
  console.log(failedStages.length ? `\nFAILED: ${failedStages.join(", ")}` : "\nAll layers passed.");
  console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  process.exit(failedStages.length ? 1 : 0);
}

void main();
