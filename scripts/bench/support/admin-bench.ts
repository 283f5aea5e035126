/**
 * What the benches that drive the console inside the sandbox admin's iframe share: free loopback ports,
 * the browser, installing the app from the marketplace, finding the console's frame, and a run bounded
 * by a deadline that stops its servers and browser however it ends.
 */
import { createServer } from "node:net";
import { chromium, type Browser, type Frame, type Page } from "@playwright/test";
import { chromiumLaunchOptions, findBrowser, HOW_TO_GET_A_BROWSER } from "../../testing/browser";
import { stopAll as stopServers } from "./processes";

export const APP_ID = "engage-console";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Free loopback ports unless the caller picked them; call before importing e2e-env, which reads them. */
export async function pickE2ePorts(): Promise<void> {
  process.env.E2E_APP_PORT ??= String(await freePort());
  process.env.E2E_ALPHA_PORT ??= String(await freePort());
  process.env.E2E_BETA_PORT ??= String(await freePort());
}

let browser: Browser | undefined;

/** Playwright's Chromium when installed, else the system's (scripts/testing/browser.ts); closed by `runBench`. */
export async function launchBrowser(): Promise<Browser> {
  const choice = findBrowser();
  if (!choice.found) throw new Error(`${choice.reason}. ${HOW_TO_GET_A_BROWSER}`);
  browser = await chromium.launch(chromiumLaunchOptions());
  return browser;
}

/** Signs in to the sandbox admin as the demo admin and installs the app (once; a second call only signs in). */
export async function installApp(page: Page, alpha: string): Promise<void> {
  await page.goto(`${alpha}/application/mktapp/index.html?install=${APP_ID}#/market`);
  await page.getByLabel("Email").fill("admin@alpha.test");
  await page.getByLabel("Password").fill("sandbox");
  await page.getByRole("button", { name: "Sign in" }).click();
  const card = page.getByRole("region", { name: "Engage Console" });
  const open = card.getByRole("link", { name: "Open" });
  await card.waitFor();
  if (await open.isVisible()) return;
  await card.getByRole("button", { name: "Install" }).click();
  await page.getByRole("button", { name: "Authorize" }).click();
  await open.waitFor({ timeout: 30_000 });
}

/** The admin page's URL that opens the console at `path` in its iframe (the sandbox's `?path=` deep link). */
export const adminUrl = (alpha: string, path: string) => `${alpha}/application/mktapp/open?app=${APP_ID}&path=${encodeURIComponent(path)}`;

/** The console's frame once its URL satisfies `reached` (30 s at most). */
export async function consoleFrame(page: Page, reached: (url: string) => boolean, what: string): Promise<Frame> {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    const frame = page.frames().find((f) => reached(f.url()));
    if (frame) return frame;
    await page.waitForTimeout(20);
  }
  throw new Error(`the console's frame did not reach ${what}`);
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

async function stopAll(): Promise<void> {
  await browser?.close().catch(() => undefined);
  await stopServers();
}

/** Runs `main` within `deadlineMs`, then stops the browser and every server it started, and exits. */
export function runBench(name: string, deadlineMs: number, main: () => Promise<void>): void {
  const deadline = setTimeout(() => {
    console.error(`${name}: no result within ${deadlineMs / 1000} s, stopping`);
    void stopAll().then(() => process.exit(1));
  }, deadlineMs);
  main()
    .then(async () => {
      clearTimeout(deadline);
      await stopAll();
      process.exit(0);
    })
    .catch(async (error: unknown) => {
      clearTimeout(deadline);
      console.error(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      await stopAll();
      process.exit(1);
    });
}
