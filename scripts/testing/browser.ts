import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";

/**
 * Which Chromium the e2e tests drive: Playwright's own when it is installed (a developer's laptop),
 * else `CHROMIUM_PATH`, else a system `chromium` (Debian's package on CI machines, which cannot
 * download Playwright's browsers).
 */
export type BrowserChoice =
  | { found: true; source: "playwright" | "CHROMIUM_PATH" | "system"; executablePath?: string }
  | { found: false; reason: string };

/** Flags for a system Chromium running headless as root on a machine with no outside network. */
export const SYSTEM_CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function onPath(name: string): string | undefined {
  try {
    return execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

export function findBrowser(env: Record<string, string | undefined> = process.env): BrowserChoice {
  try {
    if (existsSync(chromium.executablePath())) return { found: true, source: "playwright" };
  } catch {
    // Playwright's browser registry has no entry for this platform: fall through.
  }
  if (env.CHROMIUM_PATH) {
    if (existsSync(env.CHROMIUM_PATH)) return { found: true, source: "CHROMIUM_PATH", executablePath: env.CHROMIUM_PATH };
    return { found: false, reason: `CHROMIUM_PATH=${env.CHROMIUM_PATH} does not exist` };
  }
  for (const name of ["chromium", "chromium-browser", "google-chrome"]) {
    const path = onPath(name);
    if (path) return { found: true, source: "system", executablePath: path };
  }
  return { found: false, reason: "no Chromium found" };
}

export const HOW_TO_GET_A_BROWSER =
  "Get a browser for the e2e tests with one of: `npx playwright install chromium`; " +
  "`sudo apt-get install chromium` (Debian/Ubuntu); or set CHROMIUM_PATH to a Chromium or Chrome binary.";

/** Playwright's launch options for the browser found: a system Chromium gets its path and flags. */
export function chromiumLaunchOptions(): { executablePath?: string; args: string[] } {
  const browser = findBrowser();
  return browser.found && browser.executablePath ? { executablePath: browser.executablePath, args: SYSTEM_CHROMIUM_ARGS } : { args: [] };
}
