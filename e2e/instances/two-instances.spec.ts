import { expect, test, type FrameLocator, type Page } from "@playwright/test";
import { e2eUrls } from "../../scripts/testing/e2e-env";
import { appFrame, appUrl, customerIdsOnScreen, openFromMarket } from "../support/admin-frame";
import type { UpstreamStats } from "../support/round-robin-proxy";
import { platformSend, sandboxToken } from "../support/sandbox-api";
import { ALPHA, installAlpha } from "../support/sandbox-login";
import { instancesRun, SKIP_WITHOUT_POSTGRES } from "./instances-env";

/**
 * The console as two instances of one build behind a round-robin proxy, over one PostgreSQL
 * (playwright.instances.config.ts), driven as staff use it: installed from the sandbox's marketplace
 * and opened in the admin's iframe, every request of which alternates between the instances. The
 * sandbox knows the app only by the proxy's address, so its webhooks land on either instance too.
 * The tests run in order on one page: each starts where the previous one left the console.
 */

const run = instancesRun();
const [A, B] = run.instanceUrls;

test.skip(!run.enabled, SKIP_WITHOUT_POSTGRES);

async function proxyStats(): Promise<UpstreamStats[]> {
  return (await (await fetch(`${e2eUrls.app}/__proxy/stats`)).json()) as UpstreamStats[];
}

/** Per instance: how many answers of routes matching `route` (`METHOD /path`) had a status matching `status`. */
async function served(route: RegExp, status: RegExp = /^2\d\d$/): Promise<number[]> {
  return (await proxyStats()).map((u) =>
    Object.entries(u.routes)
      .filter(([key]) => route.test(key.slice(0, key.lastIndexOf(" "))) && status.test(key.slice(key.lastIndexOf(" ") + 1)))
      .reduce((sum, [, n]) => sum + n, 0),
  );
}

/** The sandbox's control plane (sandbox/README.md): POST with a body, GET without. */
async function control(path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${ALPHA.origin}/__sandbox${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(response.ok, `sandbox ${path}`).toBe(true);
  return response.json();
}

const refreshGrants = async () => ((await control("/stats")) as { tokenGrants: Record<string, number> }).tokenGrants.refresh_token ?? 0;

/** The console's navigation link `area`, clicked in the frame; resolves when the area's heading shows. */
async function goTo(frame: FrameLocator, area: string): Promise<void> {
  await frame.getByRole("navigation").getByRole("link", { name: area, exact: true }).click();
  await expect(frame.getByRole("heading", { level: 1, name: area })).toBeVisible({ timeout: 20_000 });
}

test.describe.serial("the console as two instances behind a round-robin proxy, one PostgreSQL", () => {
  let page: Page;
  let frame: FrameLocator;

  test.beforeAll(async ({ browser }) => {
    page = await browser.newPage({ viewport: { width: 1024, height: 800 } });
  });
  test.afterAll(async () => {
    await page?.close();
  });

  test("install from the marketplace and sign in: the OAuth steps alternate between the instances", async () => {
    await installAlpha(page);
    frame = await openFromMarket(page);
    // The instances are cold (store opened and migrated, queue started on first use): the first page may take a while.
    await expect(frame.getByRole("heading", { level: 1 }).first()).toBeVisible({ timeout: 60_000 });
    // The callback's GET and its return POST were each answered by one instance; the flow held across both.
    const [a, b] = await served(/^(GET|POST) \/api\/auth\/callback$/, /^(2|3)\d\d$/);
    expect(a! + b!).toBeGreaterThanOrEqual(2);
    expect(await served(/./, /^5\d\d$/)).toEqual([0, 0]);
  });

  test("browse: pages and their data come from both instances, signed in on each", async () => {
    for (const area of ["Customers", "Orders", "Customers"]) await goTo(frame, area);
    await expect.poll(async () => (await customerIdsOnScreen(frame)).length, { timeout: 20_000 }).toBeGreaterThan(0);
    const [pagesA, pagesB] = await served(/^GET \/customers$/);
    expect(pagesA, `instance ${A} served the customers page`).toBeGreaterThan(0);
    expect(pagesB, `instance ${B} served the customers page`).toBeGreaterThan(0);
    const [apiA, apiB] = await served(/^GET \/api\//);
    expect(apiA).toBeGreaterThan(0);
    expect(apiB).toBeGreaterThan(0);
    // Neither instance asked the browser to sign in again, nor failed.
    expect(await served(/^GET \/api\//, /^401$/)).toEqual([0, 0]);
    expect(await served(/./, /^5\d\d$/)).toEqual([0, 0]);
  });

  test("webhooks land on either instance and the shared index follows: new customers are found by name", async () => {
    const token = await sandboxToken();
    const before = await served(/^POST \/api\/webhooks\/platform$/);
    const stamp = `Twin ${Date.now().toString(36)}`;
    const created: string[] = [];
    for (const suffix of ["Ada", "Bo"]) created.push(String((await platformSend<{ id: string }>("POST", "/v1/customers", { name: `${stamp} ${suffix}` }, token)).id));
    // Consecutive deliveries alternate: each instance receives (and accepts) at least one.
    await expect
      .poll(async () => (await served(/^POST \/api\/webhooks\/platform$/)).map((n, i) => n - before[i]! > 0), { timeout: 30_000 })
      .toEqual([true, true]);
    expect(await served(/^POST \/api\/webhooks\/platform$/, /^(4|5)\d\d$/)).toEqual([0, 0]);

    await goTo(frame, "Customers");
    await frame.getByTestId("customer-search").fill(stamp);
    await expect.poll(async () => (await customerIdsOnScreen(frame)).sort(), { timeout: 30_000 }).toEqual([...created].sort());
  });

  test("an export job started on one instance is finished and downloaded on the other", async () => {
    // The session cookie the frame sends, read off a load, so each instance can be asked directly.
    const load = page.waitForRequest((r) => new URL(r.url()).pathname === "/customers" && r.url().startsWith(e2eUrls.app));
    await appFrame(page).goto(appUrl("/customers"));
    const cookie = (await (await load).allHeaders()).cookie ?? "";
    const headers = { cookie, "X-Open-App-Id": ALPHA.openAppId, "X-Engage-Request": "1" };
    const total = Number(await platformSend<unknown>("GET", "/v1/customers/count", undefined, await sandboxToken()));
    expect(total).toBeGreaterThan(0);

    // As the console's own page sends it: from the app's public address (the proxy), with the app's header.
    const started = await fetch(`${A}/api/export/customers`, { method: "POST", headers: { ...headers, origin: e2eUrls.app, "content-type": "application/json" }, body: JSON.stringify({ list: "" }) });
    expect([200, 202], await started.clone().text()).toContain(started.status);
    const { task } = (await started.json()) as { task: { id: string } };

    // The other instance sees the same task (one queue in PostgreSQL) and, when it is done, serves its file.
    await expect
      .poll(async () => ((await (await fetch(`${B}/api/tasks/${task.id}`, { headers })).json()) as { task: { state: string } }).task.state, { timeout: 60_000 })
      .toBe("done");
    const file = await fetch(`${B}/api/tasks/${task.id}/file`, { headers });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toContain("text/csv");
    const lines = (await file.text()).split(/\r?\n/).filter((line) => line.trim() !== "");
    // A header row, then one row per customer on the platform.
    expect(lines.length - 1).toBe(total);
    // The first instance answers the same task, from the same row.
    expect(((await (await fetch(`${A}/api/tasks/${task.id}`, { headers })).json()) as { task: { state: string } }).task.state).toBe("done");
  });

  test("token expiry storm: many calls at once on both instances end with one refresh and nobody signed out", async () => {
    const before = await refreshGrants();
    // Every access token the sandbox issued has expired (its clock moves past their 2 hours); a slow
    // token endpoint keeps the refresh in flight while the other calls arrive.
    await control("/faults", { faults: [{ path: "/oauth2/token", latencyMs: 300 }] });
    await control("/clock", { advanceSeconds: 7_200 + 60 });
    try {
      const CALLS = 40;
      const statuses = await appFrame(page).evaluate(
        async ({ openAppId, calls }) =>
          Promise.all(
            Array.from({ length: calls }, (_, i) =>
              fetch(`/api/platform/v1/customers?rows=1&page=${i + 1}&select=id`, { headers: { "X-Engage-Request": "1", "X-Open-App-Id": openAppId } }).then((r) => r.status),
            ),
          ),
        { openAppId: ALPHA.openAppId, calls: CALLS },
      );
      expect(statuses).toEqual(Array.from({ length: CALLS }, () => 200));
      const [a, b] = await served(/^GET \/api\/platform\/v1\/customers$/);
      expect(a).toBeGreaterThanOrEqual(CALLS / 2);
      expect(b).toBeGreaterThanOrEqual(CALLS / 2);
      expect((await refreshGrants()) - before).toBe(1);
    } finally {
      await control("/clock", { advanceSeconds: -(7_200 + 60) });
      await control("/faults", { faults: [] });
    }
    // Still signed in: a fresh load of a page (through either instance) shows the console.
    for (let i = 0; i < 2; i++) {
      await appFrame(page).goto(appUrl("/customers"));
      await expect(frame.getByRole("heading", { level: 1, name: "Customers" })).toBeVisible({ timeout: 20_000 });
    }
  });

  test("sign-out through one instance is seen by both", async () => {
    // The console's own sign-out is on its overview (the admin around the frame has one of its own).
    // The cookie is the one the frame sends (its partition of the admin's site), read off that load.
    const load = page.waitForRequest((r) => new URL(r.url()).pathname === "/" && r.url().startsWith(e2eUrls.app));
    await appFrame(page).goto(appUrl("/"));
    const cookie = (await (await load).allHeaders()).cookie ?? "";
    expect(cookie).toContain("=");
    const sessionOn = async (origin: string) =>
      (await fetch(`${origin}/api/auth/session`, { headers: { cookie, "X-Open-App-Id": ALPHA.openAppId, "X-Engage-Request": "1" } })).status;
    expect(await sessionOn(A)).toBe(200);
    expect(await sessionOn(B)).toBe(200);

    await frame.getByRole("button", { name: "Sign out", exact: true }).click();
    await expect(frame.getByRole("heading", { name: "You are signed out" })).toBeVisible();
    // Each instance trusts its last look at a sign-in for a moment (SIGN_IN_CHECK_CACHE_MS): wait for the revocation itself.
    await expect.poll(() => sessionOn(A), { timeout: 15_000 }).toBe(401);
    await expect.poll(() => sessionOn(B), { timeout: 15_000 }).toBe(401);
  });
});
