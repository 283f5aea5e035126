import { expect, test, type Page } from "@playwright/test";
import { e2eUrls } from "../scripts/testing/e2e-env";
import { expectAccessible } from "./support/a11y";
import { makeCustomers, mockPlatform, type PlatformCall } from "./support/mock-platform";
import { attachScreenshot } from "./support/screenshots";

const OPEN_APP_ID = "oa-ui-test";
/**
 * `authorized=1` is app-auth's mark of a page reached right after authorization whose cookie the
 * browser refused: the server renders without a session and the browser's calls (mocked here) run
 * on the tab's sealed token. That is the path these UI tests take, without signing in.
 */
const customersUrl = (query = "") => `${e2eUrls.app}/customers?openAppId=${OPEN_APP_ID}&authorized=1${query ? `&${query}` : ""}`;
const consoleUrl = (path: string) => `${e2eUrls.app}${path}?openAppId=${OPEN_APP_ID}&authorized=1`;
/** Reload as if coming back from authorization (see customersUrl). */
async function reloadPage(page: Page) {
  const url = new URL(page.url());
  url.searchParams.set("authorized", "1");
  await page.goto(url.toString());
}

const lastList = (calls: PlatformCall[]) => calls.filter((c) => c.path === "/v1/customers").at(-1)!;

test.use({ viewport: { width: 1024, height: 768 } });

test.describe("console shell and customers list (UI, platform mocked at the proxy)", () => {
  test("shows the tenant, user, customers, total and times in UTC+8 with UTC on hover", async ({ page }) => {
    const calls = await mockPlatform(page);
    await page.goto(customersUrl());
    await expect(page.getByRole("heading", { level: 1, name: "Customers" })).toBeVisible();
    await expect(page.getByText("Alpha Trading")).toBeVisible();
    await expect(page.getByText("Admin Alpha")).toBeVisible();
    await expect(page.getByText("45 customers")).toBeVisible();
    await expect(page.getByRole("row")).toHaveCount(21);
    const created = page.locator("tbody tr").first().locator("time").first();
    await expect(created).toHaveText("2026-02-01 00:30:00");
    await expect(created).toHaveAttribute("title", "2026-01-31 16:30:00 UTC");
    // Every call names the environment and carries the app's header, reads included (the SameSite=None cookie).
    const list = lastList(calls);
    expect(list.headers["x-open-app-id"]).toBe(OPEN_APP_ID);
    expect(list.headers["x-engage-request"]).toBe("1");
    expect(list.query.get("select")).toBe("id,displayName,mobile,email,stage,source,dateCreated,lastUpdated");
    await attachScreenshot(page, "customers-en");
    await expectAccessible(page);
  });

  test("filters are debounced, sent in UTC, and kept in the URL with replace", async ({ page }) => {
    const calls = await mockPlatform(page);
    await page.goto(customersUrl());
    await expect(page.getByRole("row")).toHaveCount(21);
    const historyLength = await page.evaluate(() => history.length);

    await page.getByRole("textbox", { name: "Source", exact: true }).pressSequentially("web", { delay: 30 });
    await expect(page).toHaveURL(/source=web/);
    await expect(page.getByText("22 customers")).toBeVisible();
    // Debounced: one list call for the three keystrokes.
    expect(calls.filter((c) => c.path === "/v1/customers" && c.query.get("source")?.startsWith("w"))).toHaveLength(1);

    await page.getByRole("button", { name: "More filters" }).click();
    await page.getByLabel("Created from (UTC+8)").fill("2026-03-01T00:00");
    await expect.poll(() => lastList(calls).query.get("dateCreatedFrom")).toBe("2026-02-28T16:00:00");
    // `:` may be written as is (a legal query character) or encoded; either form is the typed time.
    await expect(page).toHaveURL(/createdFrom=2026-03-01T00(:|%3A)00/);

    await page.getByLabel("Only customers without a stage").check();
    await expect.poll(() => lastList(calls).query.get("stage")).toBe("_empty");

    expect(await page.evaluate(() => history.length)).toBe(historyLength);

    // A reload restores the state from the URL.
    await reloadPage(page);
    await expect(page.getByRole("textbox", { name: "Source", exact: true })).toHaveValue("web");
    await expect(page.getByLabel("Only customers without a stage")).toBeChecked();
  });

  test("filters the count does not take hide the total instead of showing a wrong one", async ({ page }) => {
    const calls = await mockPlatform(page);
    await page.goto(customersUrl("email=c2%40example.com"));
    await expect(page.getByRole("row")).toHaveCount(2);
    await expect(page.getByText(/the total is not shown/)).toBeVisible();
    expect(calls.some((c) => c.path === "/v1/customers/count")).toBe(false);
  });

  test("sorts by a column header and pages with the total", async ({ page }) => {
    const calls = await mockPlatform(page);
    await page.goto(customersUrl());
    await page.getByRole("button", { name: /^Email/ }).click();
    await expect.poll(() => `${lastList(calls).query.get("sidx")} ${lastList(calls).query.get("sord")}`).toBe("email asc");
    await expect(page.getByRole("columnheader", { name: /Email/ })).toHaveAttribute("aria-sort", "ascending");
    await page.getByRole("button", { name: /^Email/ }).click();
    await expect.poll(() => lastList(calls).query.get("sord")).toBe("desc");

    await expect(page.getByText("Page 1 of 3")).toBeVisible();
    await page.getByRole("button", { name: "Next page" }).click();
    await expect(page.getByText("Page 2 of 3")).toBeVisible();
    await expect(page).toHaveURL(/page=2/);
    await page.getByLabel("Rows per page").selectOption("50");
    await expect(page.getByText("Page 1 of 1")).toBeVisible();
    await expect(page.getByRole("row")).toHaveCount(46);
  });

  test("the column chooser changes what is fetched (select)", async ({ page }) => {
    const calls = await mockPlatform(page);
    await page.goto(customersUrl());
    await page.locator("summary", { hasText: "Columns" }).click();
    await page.getByRole("checkbox", { name: "Mobile", exact: true }).uncheck();
    await page.getByRole("checkbox", { name: "Gender", exact: true }).check();
    await expect.poll(() => lastList(calls).query.get("select")).toBe("id,displayName,email,stage,source,gender,dateCreated,lastUpdated");
    await expect(page.getByRole("columnheader", { name: "Gender" })).toBeVisible();
    await expect(page.getByRole("columnheader", { name: /^Mobile/ })).toHaveCount(0);
  });

  test("an empty tenant and a filter without results say different things", async ({ page }) => {
    await mockPlatform(page, { customers: [] });
    await page.goto(customersUrl());
    await expect(page.getByTestId("customers-empty")).toContainText("No customers yet");
    await page.unrouteAll();
    await mockPlatform(page, { customers: makeCustomers(3) });
    // The page before may still be writing its URL (the remembered columns apply after load), which
    // aborts a navigation started meanwhile: go again until this one lands.
    await expect(async () => void (await page.goto(customersUrl("source=nowhere")))).toPass();
    await expect(page.getByTestId("customers-no-results")).toContainText("No customers match these filters");
    await page.getByTestId("customers-no-results").getByRole("button", { name: "Clear filters" }).click();
    await expect(page.getByRole("row")).toHaveCount(4);
    await expect(page.getByRole("textbox", { name: "Source", exact: true })).toHaveValue("");
  });

  test("a reauth_required answer sends the frame to authorization with returnTo", async ({ page }) => {
    await mockPlatform(page, {
      override: async (call, route) => {
        if (call.path !== "/v1/customers") return false;
        await route.fulfill({ status: 401, contentType: "application/json", body: JSON.stringify({ error: { code: "reauth_required", message: "Sign in", redirect: `/api/auth/start?openAppId=${OPEN_APP_ID}` } }) });
        return true;
      },
    });
    await page.route("**/api/auth/start**", (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><title>authorize</title><p>authorize</p>" }));
    await page.goto(customersUrl("stage=lead"));
    await page.waitForURL(/\/api\/auth\/start/);
    const url = new URL(page.url());
    expect(url.searchParams.get("openAppId")).toBe(OPEN_APP_ID);
    const returnTo = new URL(url.searchParams.get("returnTo")!, e2eUrls.app);
    expect(returnTo.pathname).toBe("/customers");
    expect(returnTo.searchParams.get("openAppId")).toBe(OPEN_APP_ID);
    expect(returnTo.searchParams.get("stage")).toBe("lead");
  });

  test("a failed load offers a retry with the reason", async ({ page }) => {
    let fail = true;
    await mockPlatform(page, {
      override: async (call, route) => {
        if (call.path !== "/v1/customers" || !fail) return false;
        await route.fulfill({ status: 504, contentType: "application/json", body: JSON.stringify({ error: { code: "upstream_timeout", message: "timeout", requestId: "req-9" } }) });
        return true;
      },
    });
    await page.goto(customersUrl());
    await expect(page.getByRole("alert").filter({ hasText: "Customers could not be loaded" })).toContainText("The platform did not answer in time");
    fail = false;
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByRole("row")).toHaveCount(21);
  });

  test("switches to Simplified Chinese, every page passes axe in both languages", async ({ page }) => {
    await mockPlatform(page);
    await page.goto(customersUrl());
    await page.getByLabel("Language").first().selectOption("zh-CN");
    await expect(page.getByRole("heading", { level: 1, name: "客户" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(page.getByText("共 45 位客户")).toBeVisible();
    await attachScreenshot(page, "customers-zh");
    await expectAccessible(page);
    // The choice is remembered.
    await reloadPage(page);
    await expect(page.getByRole("heading", { level: 1, name: "客户" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");

    for (const [path, heading] of [["/settings", "设置"], ["/lists", "客户列表"]] as const) {
      await page.getByRole("navigation", { name: "主导航" }).getByRole("link", { name: path === "/settings" ? "设置" : "客户列表" }).click();
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      expect(new URL(page.url()).searchParams.get("openAppId")).toBe(OPEN_APP_ID);
      await expectAccessible(page);
    }
    await page.getByLabel("语言").first().selectOption("en");
    for (const path of ["/settings", "/lists", "/tags", "/orders"]) {
      await page.goto(consoleUrl(path));
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await attachScreenshot(page, `${path.slice(1)}-en`);
      await expectAccessible(page);
    }
  });

  test("the navigation and filters work with the keyboard alone", async ({ page }) => {
    await mockPlatform(page);
    await page.goto(customersUrl());
    await expect(page.getByRole("row")).toHaveCount(21);
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to main content" })).toBeFocused();
    await page.keyboard.press("Enter");
    await page.getByRole("combobox", { name: "Gender" }).focus();
    await page.keyboard.press("ArrowDown");
    await expect(page).toHaveURL(/gender=0/);
  });

  test("a customer opens read-only with profile, custom fields, identities and statistics", async ({ page }) => {
    await mockPlatform(page);
    await page.goto(customersUrl());
    await page.getByRole("link", { name: "客户 2", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "客户 2" })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe("/customers/9007199254740995");
    expect(new URL(page.url()).searchParams.get("openAppId")).toBe(OPEN_APP_ID);
    await expect(page.getByRole("cell", { name: "M-0002" })).toBeVisible();
    await expect(page.getByText("VIP")).toBeVisible();
    const firstOrder = page.locator("#detail-statistics").locator("..").locator("time");
    await expect(firstOrder).toHaveText("2026-01-01 04:00:00");
    await expectAccessible(page);
    await attachScreenshot(page, "customer-detail-en");
    await page.getByLabel("Language").first().selectOption("zh-CN");
    await expect(page.getByRole("heading", { level: 2, name: "身份" })).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel("语言").first().selectOption("en");

    await page.goto(consoleUrl("/customers/1"));
    await expect(page.getByText("Customer not found: it was deleted, or merged into another customer.")).toBeVisible();
  });

  test("the language defaults to the platform's lang, else the browser's Accept-Language", async ({ browser }) => {
    const zhBrowser = await browser.newContext({ locale: "zh-CN", viewport: { width: 1024, height: 768 } });
    const page = await zhBrowser.newPage();
    await mockPlatform(page);
    await page.goto(customersUrl());
    await expect(page.getByRole("heading", { level: 1, name: "客户" })).toBeVisible();
    await page.goto(customersUrl("lang=en"));
    await expect(page.getByRole("heading", { level: 1, name: "Customers" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await zhBrowser.close();
  });

  test("an installation that needs re-authorization is announced with a way to authorize again", async ({ page }) => {
    await mockPlatform(page, { installation: "reauth_required" });
    await page.route("**/api/auth/start**", (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><title>authorize</title><p>authorize</p>" }));
    await page.goto(consoleUrl("/settings"));
    const alert = page.getByRole("alert").filter({ hasText: "no longer accepts this installation" });
    await expect(alert).toBeVisible();
    await expectAccessible(page);
    await alert.getByRole("button", { name: "Authorize again" }).click();
    await page.waitForURL(/\/api\/auth\/start\?openAppId=oa-ui-test&returnTo=/);
  });

  test("without a session a console page redirects to authorization, returning to it", async ({ page }) => {
    await page.route("**/api/auth/start**", (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><title>authorize</title><p>authorize</p>" }));
    await page.goto(`${e2eUrls.app}/customers?openAppId=${OPEN_APP_ID}&source=web`);
    await page.waitForURL(/\/api\/auth\/start/);
    const returnTo = new URL(page.url()).searchParams.get("returnTo");
    expect(returnTo).toBe(`/customers?openAppId=${OPEN_APP_ID}&source=web`);
  });
});
