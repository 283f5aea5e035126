import { expect, type FrameLocator, type Page } from "@playwright/test";
import { ALPHA } from "./sandbox-login";

export const APP_FRAME = 'iframe[title="Engage Console"]';
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** The admin page that shows the installed app in its iframe at `path` (the sandbox's `?path=` deep link). */
export const adminOpenUrl = (path: string, origin: string = ALPHA.origin) => `${origin}/application/mktapp/open?app=engage-console&path=${encodeURIComponent(path)}`;

/** A fresh load of the admin page with the console at `path`; resolves when the frame shows a level-1 heading. */
export async function openInAdmin(page: Page, path: string): Promise<FrameLocator> {
  await page.goto(adminOpenUrl(path));
  const frame = page.frameLocator(APP_FRAME);
  await expect(frame.getByRole("heading", { level: 1 }).first()).toBeVisible({ timeout: 20_000 });
  return frame;
}

/** POST/PUT on the sandbox's platform API (test setup); ids come back as strings. */
export async function platformSend(method: string, path: string, body: unknown, token: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${ALPHA.origin}${path}?access_token=${token}`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await response.text();
  return JSON.parse(text.replace(/([:\[,]\s*)(\d{16,})(?=\s*[,\]}])/g, '$1"$2"')) as Record<string, unknown>;
}
