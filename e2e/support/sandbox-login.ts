import { expect, type Page } from "@playwright/test";
import { e2eUrls } from "../../scripts/testing/e2e-env";

/**
 * Signing in through the Platform Sandbox as staff do: marketplace → sign in → Install → consent,
 * then Open (the console in the admin's cross-site iframe). The same steps as app-auth's
 * install-flow.spec.ts; kept here so console specs do not depend on another spec file.
 */
export const ALPHA = { origin: e2eUrls.alpha, email: "admin@alpha.test", openAppId: "oa-alpha-7f3c9e21", environment: "alpha" } as const;

export const marketUrl = (origin: string) => `${origin}/application/mktapp/index.html?install=engage-console#/market`;

export async function signIn(page: Page, email: string) {
  await expect(page.getByRole("heading", { name: /Sign in/ })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("sandbox");
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Installs the app in alpha (or re-authorizes it when installed) and ends on the marketplace page. */
export async function installAlpha(page: Page) {
  await page.goto(marketUrl(ALPHA.origin));
  await signIn(page, ALPHA.email);
  const card = page.getByRole("region", { name: "Engage Console" });
  const open = card.getByRole("link", { name: "Open" });
  if (await open.isVisible().catch(() => false)) return;
  await card.getByRole("button", { name: "Install" }).click();
  await expect(page.getByRole("heading", { name: "Authorize Engage Console" })).toBeVisible();
  await page.getByRole("button", { name: "Authorize" }).click();
  await page.waitForURL(`${ALPHA.origin}/application/mktapp/index.html?install=engage-console**`);
  await expect(open).toBeVisible();
}

/** A sandbox access token for checking results through the platform API (ARCHITECTURE.md §3 /__sandbox/tokens). */
export async function sandboxToken(origin = ALPHA.origin, environment = ALPHA.environment): Promise<string> {
  const response = await fetch(`${origin}/__sandbox/tokens`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ environment }) });
  expect(response.ok).toBe(true);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** GET on the sandbox's platform API; ids are read as strings (they exceed 2^53). */
export async function platformGet(path: string, query: Record<string, string>, token: string): Promise<unknown> {
  const url = new URL(`${ALPHA.origin}${path}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  url.searchParams.set("access_token", token);
  const response = await fetch(url);
  const text = await response.text();
  // Quote bare integers of 16+ digits so JSON.parse keeps them exact.
  return JSON.parse(text.replace(/([:\[,]\s*)(\d{16,})(?=\s*[,\]}])/g, '$1"$2"'));
}
