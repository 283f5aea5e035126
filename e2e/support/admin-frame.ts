import { expect, type Frame, type FrameLocator, type Page, type Request } from "@playwright/test";
import { e2eUrls } from "../../scripts/testing/e2e-env";
import { ALPHA, marketUrl } from "./sandbox-login";

export const APP_FRAME = 'iframe[title="Engage Console"]';

/** The admin page that shows the installed app in its iframe at `path` (the sandbox's `?path=` deep link). */
export const adminOpenUrl = (path: string, origin: string = ALPHA.origin) => `${origin}/application/mktapp/open?app=engage-console&path=${encodeURIComponent(path)}`;

/**
 * A fresh load of the admin page with the console at `path`; resolves when the frame shows a level-1
 * heading and takes clicks: the shell's first activity poll follows every mount effect, so once it
 * is sent the server-rendered page is hydrated.
 */
export async function openInAdmin(page: Page, path: string, origin: string = ALPHA.origin): Promise<FrameLocator> {
  const hydrated = page.waitForRequest((r) => r.url().includes("/api/activity"), { timeout: 20_000 });
  await page.goto(adminOpenUrl(path, origin));
  const frame = page.frameLocator(APP_FRAME);
  await expect(frame.getByRole("heading", { level: 1 }).first()).toBeVisible({ timeout: 20_000 });
  await hydrated;
  return frame;
}

/** Open on alpha's marketplace page: the console in the admin's iframe. */
export async function openFromMarket(page: Page): Promise<FrameLocator> {
  await page.goto(marketUrl(ALPHA.origin));
  await page.getByRole("region", { name: "Engage Console" }).getByRole("link", { name: "Open" }).click();
  return page.frameLocator(APP_FRAME);
}

/** The console opened from the marketplace, then the `area` link of its navigation; resolves when the area's heading shows. */
export async function openArea(page: Page, area: "Customers" | "Lists" | "Tags" | "Orders" | "Shops" | "Media imports"): Promise<FrameLocator> {
  const frame = await openFromMarket(page);
  await frame.getByRole("navigation").getByRole("link", { name: area }).click();
  await expect(frame.getByRole("heading", { level: 1, name: area })).toBeVisible({ timeout: 20_000 });
  return frame;
}

/** The app's URL of a console page of alpha's installation. */
export const appUrl = (path: string) => `${e2eUrls.app}${path}${path.includes("?") ? "&" : "?"}openAppId=${ALPHA.openAppId}`;

/** The app's frame in the page (a `Frame`: its URL can be read and moved). */
export const appFrame = (page: Page): Frame => page.frames().find((f) => f.url().startsWith(e2eUrls.app))!;

/**
 * The console's frame opened from the marketplace and moved to `path` when given; resolves once the
 * page at `path` is hydrated (its shell's first activity poll, as `openInAdmin`), so a file chosen or
 * a click made next reaches React rather than the bare server-rendered HTML.
 */
export async function consoleFrameAt(page: Page, path: string): Promise<Frame> {
  await (await openFromMarket(page)).getByRole("navigation").waitFor({ timeout: 20_000 });
  const frame = appFrame(page);
  if (!path) return frame;
  const target = new URL(appUrl(path)).pathname;
  const hydrated = page.waitForRequest((r) => r.url().includes("/api/activity") && documentPath(r) === target, { timeout: 20_000 });
  await frame.goto(appUrl(path));
  await hydrated;
  return frame;
}

/** The path of the document a request came from (the previous page's late polls do not count). */
function documentPath(request: Request): string | undefined {
  try {
    return new URL(request.frame().url()).pathname;
  } catch {
    return undefined;
  }
}

/** The customer ids of the list on screen, from each row's `data-row-id` (the id column is off by default). */
export const customerIdsOnScreen = async (scope: Pick<Page, "locator"> | FrameLocator) =>
  scope.locator("tbody tr[data-row-id]").evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.rowId ?? ""));

/** How much wider than its frame the console's page is (above 0, it scrolls sideways). */
export const horizontalOverflow = (frame: Frame) => frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
