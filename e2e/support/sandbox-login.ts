import { expect, test, type Page } from "@playwright/test";
import { e2eUrls } from "../../scripts/testing/e2e-env";

/**
 * Signing in through the Platform Sandbox as staff do: marketplace → sign in → Install → consent,
 * then Open (the console in the admin's cross-site iframe). The same steps as app-auth's
 * install-flow.spec.ts; kept here so console specs do not depend on another spec file.
 */
export const ALPHA = { origin: e2eUrls.alpha, email: "admin@alpha.test", openAppId: "oa-alpha-7f3c9e21", environment: "alpha" } as const;
/** Beta answers as the real platform does (the sandbox's `observed` profile). */
export const BETA = { origin: e2eUrls.beta, email: "admin@beta.test", openAppId: "oa-beta-2d81b6a4", environment: "beta" } as const;
export type SandboxEnvironment = typeof ALPHA | typeof BETA;

export const marketUrl = (origin: string) => `${origin}/application/mktapp/index.html?install=engage-console#/market`;

export async function signIn(page: Page, email: string) {
  await expect(page.getByRole("heading", { name: /Sign in/ })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("sandbox");
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Installs the app in alpha (or re-authorizes it when installed) and ends on the marketplace page. */
export async function installAlpha(page: Page) {
  await installIn(page, ALPHA);
}

/** Installs the app in `env` (or re-authorizes it when installed) and ends on the marketplace page. */
export async function installIn(page: Page, env: SandboxEnvironment) {
  await page.goto(marketUrl(env.origin));
  await signIn(page, env.email);
  const card = page.getByRole("region", { name: "Engage Console" });
  const open = card.getByRole("link", { name: "Open" });
  if (await open.isVisible().catch(() => false)) return;
  await card.getByRole("button", { name: "Install" }).click();
  await expect(page.getByRole("heading", { name: "Authorize Engage Console" })).toBeVisible();
  await page.getByRole("button", { name: "Authorize" }).click();
  await page.waitForURL(`${env.origin}/application/mktapp/index.html?install=engage-console**`);
  await expect(open).toBeVisible();
}

/**
 * Each test of the suite starts in a `width`×`height` window with the app installed in alpha and the
 * staff signed in, on the marketplace page (1024 px is the narrowest admin layout the console supports).
 */
export function installBeforeEach(size: { width: number; height: number }) {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(size);
    await installAlpha(page);
  });
}
