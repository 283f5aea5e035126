import { expect, test, type APIRequestContext } from "@playwright/test";
import { e2eUrls } from "../scripts/testing/e2e-env";
import { inCookieRefusingBrowser } from "./support/cookie-stripping-proxy";
import { BETA, installIn, marketUrl, signIn } from "./support/sandbox-login";

/**
 * Where two sound features meet, in Chromium against the sandbox's beta (users/current without ids,
 * as on the real platform): a login CSRF link (an attacker's own flow, restart mark and verifier)
 * must not sign the victim in as the attacker nor touch her own session; and the sign-out of a
 * console whose cookies the frame refuses must end the sign-in of the tab's token.
 */

const APP = e2eUrls.app;
const BOB = { email: "admin@beta.test", name: "Bob Admin 李博" };
const CAROL = { email: "carol@beta.test", name: "Carol Clerk 陈洁" };
const TENANT = "Beta Foods 贝塔食品";
const ATTACKER_PAGE = "http://attacker.example/";

async function control(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${e2eUrls.alpha}/__sandbox${path}`, { method: "POST", body: JSON.stringify(body) });
  expect(res.status, path).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** The attacker (Carol, plain HTTP): starts a flow marked restarted, authorizes as herself, keeps the return unopened. */
async function attackersLink(): Promise<string> {
  const start = await fetch(`${APP}/api/auth/start?openAppId=${BETA.openAppId}&restart=1&returnTo=${encodeURIComponent("/customers/new")}`, { redirect: "manual" });
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get("location")!);
  expect(authorize.hash).toMatch(/^#ecv=/);
  const { callbackUrl } = (await control("/authorize", {
    environment: "beta",
    redirect_uri: authorize.searchParams.get("redirect_uri"),
    state: authorize.searchParams.get("state"),
    staffEmail: CAROL.email,
  })) as { callbackUrl: string };
  return `${callbackUrl}${authorize.hash}`;
}

/** Who the app takes the page's browser for (its cookie), or the HTTP status when nobody. */
async function whoAmI(request: APIRequestContext): Promise<string | number> {
  const res = await request.get(`${APP}/api/auth/session`, { headers: { "X-Open-App-Id": BETA.openAppId, "X-Engage-Request": "1" } });
  return res.ok() ? ((await res.json()) as { session: { userName: string } }).session.userName : res.status();
}

test.describe.serial("login CSRF and cookie-less sign-out", () => {
  test.beforeAll(async ({ request }) => {
    expect((await request.post(`${e2eUrls.alpha}/__sandbox/reset`)).ok()).toBe(true);
  });

  test("an attacker's link with his own return and verifier does not sign the victim in as him; her session is unchanged", async ({ page }) => {
    // The victim, Bob, installs and is signed in as himself.
    await installIn(page, BETA);
    await page.goto(`${APP}/?openAppId=${BETA.openAppId}`);
    await expect(page.getByTestId("user")).toContainText(BOB.name);
    expect(await whoAmI(page.request)).toBe(BOB.name);

    const link = await attackersLink();
    await page.route(ATTACKER_PAGE, (route) =>
      route.fulfill({ contentType: "text/html", body: `<!doctype html><title>Report</title><a id="go" href="${link.replace(/"/g, "&quot;")}">Open the new customers report</a>` }),
    );
    await page.goto(ATTACKER_PAGE);
    await page.locator("#go").click();

    // The sign-in waits for the answer; it names the attacker and says who the browser is.
    await expect(page.getByTestId("confirm-sign-in")).toHaveText(`Continue as ${CAROL.name} at ${TENANT}?`);
    await expect(page.getByTestId("current-sign-in")).toContainText(BOB.name);
    expect(await whoAmI(page.request)).toBe(BOB.name);

    // Not answering, she opens the page the link aimed at in another tab: still herself.
    const other = await page.context().newPage();
    await other.goto(`${APP}/customers/new?openAppId=${BETA.openAppId}`);
    expect(await whoAmI(other.request)).toBe(BOB.name);
    await other.close();
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("heading", { name: "Nothing was changed" })).toBeVisible();
    expect(await whoAmI(page.request)).toBe(BOB.name);
    await page.goto(`${APP}/?openAppId=${BETA.openAppId}`);
    await expect(page.getByTestId("user")).toContainText(BOB.name);
  });

  test("sign-out in the admin's iframe with the app's cookies refused ends the token's sign-in and shows the signed-out page", async () => {
    await inCookieRefusingBrowser(APP, async ({ context, page }) => {
      await page.goto(marketUrl(BETA.origin));
      await signIn(page, BOB.email);
      await page.getByRole("region", { name: "Engage Console" }).getByRole("link", { name: "Open" }).click();
      const frame = page.frameLocator('iframe[title="Engage Console"]');
      await frame.getByRole("button", { name: `Continue as ${BOB.name}` }).click();
      await expect(frame.getByTestId("user")).toContainText(BOB.name, { timeout: 20_000 });
      expect((await context.cookies(APP)).map((c) => c.name)).toEqual([]);

      // Where the tab keeps it (lib/auth/tab-storage.ts): sessionStorage, or window.name where the frame gets none.
      const storedToken = () =>
        frame
          .locator("body")
          .evaluate((_body, key) => {
            let raw: string | null | undefined;
            try {
              raw = window.sessionStorage.getItem(key);
            } catch {
              raw = (JSON.parse(window.name || "{}") as { ec?: Record<string, string> }).ec?.[key];
            }
            return raw ? (JSON.parse(raw) as { token: string }).token : null;
          }, `ec.session.${BETA.openAppId}`);
      const token = (await storedToken())!;
      expect(token).toBeTruthy();
      const read = () => fetch(`${APP}/api/auth/session`, { headers: { authorization: `Bearer ${token}`, "X-Open-App-Id": BETA.openAppId, "X-Engage-Request": "1" } });
      const renew = () => fetch(`${APP}/api/auth/session`, { method: "POST", headers: { authorization: `Bearer ${token}`, "X-Open-App-Id": BETA.openAppId } });
      expect((await read()).status).toBe(200);

      await expect(frame.getByRole("button", { name: "Sign out everywhere" })).toBeVisible();
      await frame.getByRole("button", { name: "Sign out", exact: true }).click();
      await expect(frame.getByRole("heading", { name: "You are signed out" })).toBeVisible();
      await expect(frame.getByTestId("signed-out")).toContainText("Your sign-in in this browser has ended");
      expect((await read()).status).toBe(401);
      expect((await renew()).status).toBe(401);
      expect(await storedToken()).toBeNull(); // and the tab forgot it
    });
  });
});
