import { expect, test, type Page, type Response } from "@playwright/test";
import { e2eUrls } from "../scripts/testing/e2e-env";
import { inCookieRefusingBrowser } from "./support/cookie-stripping-proxy";

/**
 * The app's install and authorization flow in Chromium, through the Platform Sandbox (§5.2, §5.4,
 * ARCHITECTURE.md §4): install from the marketplace, open the console in the admin's cross-site iframe,
 * two environments in one browser, a plain tab, and the fallback when the app's cookies are refused.
 */

const ENVIRONMENTS = {
  alpha: { origin: e2eUrls.alpha, email: "admin@alpha.test", openAppId: "oa-alpha-7f3c9e21", tenant: "Alpha Retail 阿尔法零售", user: "Alice Admin 王丽" },
  beta: { origin: e2eUrls.beta, email: "admin@beta.test", openAppId: "oa-beta-2d81b6a4", tenant: "Beta Foods 贝塔食品", user: "Bob Admin 李博" },
} as const;
type Env = (typeof ENVIRONMENTS)[keyof typeof ENVIRONMENTS];

const market = (env: Env) => `${env.origin}/application/mktapp/index.html?install=engage-console#/market`;
const CALLBACK = `${e2eUrls.app}/api/auth/callback`;

async function signIn(page: Page, env: Env) {
  await expect(page.getByRole("heading", { name: /Sign in/ })).toBeVisible();
  await page.getByLabel("Email").fill(env.email);
  await page.getByLabel("Password").fill("sandbox");
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Marketplace → Install → consent → back on the marketplace; returns the callback's final response. */
async function install(page: Page, env: Env): Promise<Response> {
  await page.goto(market(env));
  await signIn(page, env);
  const card = page.getByRole("region", { name: "Engage Console" });
  await card.getByRole("button", { name: "Install" }).click();
  await expect(page.getByRole("heading", { name: "Authorize Engage Console" })).toBeVisible();
  // The return's GET only answers a page; the code is exchanged on that page's same-origin post (docs/decisions/sign-in-hardening.md).
  const completion = page.waitForResponse((r) => r.url() === CALLBACK && r.request().method() === "POST" && r.request().frame() === page.mainFrame());
  await page.getByRole("button", { name: "Authorize" }).click();
  const response = await completion;
  // §5.2.8: back on the marketplace page, where the app now opens.
  await page.waitForURL(`${env.origin}/application/mktapp/index.html?install=engage-console**`);
  await expect(card.getByRole("link", { name: "Open" })).toBeVisible();
  return response;
}

/** Open from the marketplace: the console in the admin's iframe shows the tenant and the user. */
async function openAndExpectConsole(page: Page, env: Env) {
  await page.goto(market(env));
  await page.getByRole("region", { name: "Engage Console" }).getByRole("link", { name: "Open" }).click();
  const frame = page.frameLocator('iframe[title="Engage Console"]');
  await expect(frame.getByTestId("tenant")).toContainText(env.tenant, { timeout: 20_000 });
  await expect(frame.getByTestId("user")).toContainText(env.user);
  await expect(frame.getByTestId("open-app-id")).toHaveText(env.openAppId);
}

test.describe.serial("install and authorization flow", () => {
  test.beforeAll(async ({ request }) => {
    expect((await request.post(`${e2eUrls.alpha}/__sandbox/reset`)).ok()).toBe(true);
  });

  test("install → consent → marketplace → Open shows tenant and user in the iframe; exact Set-Cookie attributes", async ({ page }) => {
    const completion = await install(page, ENVIRONMENTS.alpha);
    const cookies = (await completion.headersArray()).filter((h) => h.name.toLowerCase() === "set-cookie").map((h) => h.value);
    const session = cookies.find((c) => c.startsWith("ec_session="));
    expect(session).toBeTruthy();
    const attributes = session!.split(";").slice(1).map((a) => a.trim()).filter((a) => !a.startsWith("Max-Age="));
    expect(attributes.sort()).toEqual(["HttpOnly", "Partitioned", "Path=/", "SameSite=None", "Secure"]);
    expect(session).toMatch(/; Max-Age=\d+;/);
    const spent = cookies.find((c) => c.startsWith("ec_flow_"));
    expect(spent).toMatch(/^ec_flow_[\w-]+=; Path=\/api\/auth; HttpOnly; Secure; SameSite=None; Partitioned; Max-Age=0$/);
    await openAndExpectConsole(page, ENVIRONMENTS.alpha);
  });

  test("beta in the same browser does not mix with alpha", async ({ page }) => {
    await page.goto(market(ENVIRONMENTS.alpha));
    await signIn(page, ENVIRONMENTS.alpha);
    await openAndExpectConsole(page, ENVIRONMENTS.alpha);
    await install(page, ENVIRONMENTS.beta);
    await openAndExpectConsole(page, ENVIRONMENTS.beta);
    await openAndExpectConsole(page, ENVIRONMENTS.alpha);
  });

  test("the app in a plain tab with ?openAppId= authorizes (platform login) and shows that environment", async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    for (const env of [ENVIRONMENTS.alpha, ENVIRONMENTS.beta]) {
      await page.goto(`${e2eUrls.app}/?openAppId=${env.openAppId}`);
      // no session: redirected to the environment's authorization, which asks for the platform login
      await signIn(page, env);
      await page.waitForURL(`${e2eUrls.app}/?openAppId=${env.openAppId}**`);
      await expect(page.getByTestId("tenant")).toContainText(env.tenant);
      await expect(page.getByTestId("user")).toContainText(env.user);
    }
    // both sessions live side by side in one cookie
    await page.goto(`${e2eUrls.app}/?openAppId=${ENVIRONMENTS.alpha.openAppId}`);
    await expect(page.getByTestId("tenant")).toContainText(ENVIRONMENTS.alpha.tenant);
    await context.close();
  });

  test("inside the iframe with the app's cookies refused, the sealed-token fallback keeps the console working", async () => {
    // Every framed response of the app loses its Set-Cookie on the way (a proxy in front of the
    // browser, loopback included), as in a browser that refuses the app's cookies in the frame.
    await inCookieRefusingBrowser(e2eUrls.app, async ({ context, page, stripped }) => {
      await page.goto(market(ENVIRONMENTS.alpha));
      await signIn(page, ENVIRONMENTS.alpha);
      // Only the fragment's verifier vouches for this frame, and a link could carry one: the frame
      // asks who signs in before anything is stored (README "Sign-in: what the app promises").
      await page.getByRole("region", { name: "Engage Console" }).getByRole("link", { name: "Open" }).click();
      const frame = page.frameLocator('iframe[title="Engage Console"]');
      await frame.getByRole("button", { name: `Continue as ${ENVIRONMENTS.alpha.user}` }).click();
      await expect(frame.getByTestId("tenant")).toContainText(ENVIRONMENTS.alpha.tenant, { timeout: 20_000 });
      await expect(frame.getByTestId("user")).toContainText(ENVIRONMENTS.alpha.user);
      // the app did try to set its cookies in the frame, and none of them reached the browser
      expect(stripped).toContain("ec_session");
      expect((await context.cookies(e2eUrls.app)).map((c) => c.name)).toEqual([]);
    });
  });
});
