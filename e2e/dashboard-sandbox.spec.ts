import { expect, test, type FrameLocator } from "@playwright/test";
import { expectAccessible } from "./support/a11y";
import { APP_FRAME, appFrame, openFromMarket, openInAdmin } from "./support/admin-frame";
import { platformGet } from "./support/sandbox-api";
import { attachScreenshot } from "./support/screenshots";
import { sandboxSuite } from "./support/suite";

/**
 * The home page's overview through the real chain: sandbox marketplace → the console in the admin's
 * iframe → `/api/dashboard` → the sandbox API. The total is checked against `customers/count`, a
 * stage bar against the customers list it opens; both languages, axe, screenshots.
 */

const CHART = 'svg[role="group"]';

/** The overview's charts drawn (they load after the figures). */
async function chartsShown(frame: FrameLocator) {
  await expect(frame.getByTestId("dashboard-total")).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => frame.locator(CHART).count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(5);
}

test.describe.serial("the overview on the home page", () => {
  const sandbox = sandboxSuite({ reset: { customers: 400 }, window: { width: 1280, height: 900 } });

  test("shows the tenant's figures in charts; the total equals customers/count; a stage bar opens its list", async ({ page }) => {
    const frame = await openFromMarket(page);
    await expect(frame.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible({ timeout: 20_000 });
    await chartsShown(frame);
    // The suite reset the sandbox and installed the app anew: the figures are the new tenant's, not
    // those an earlier spec left in the app's cache (a reinstall forgets them).
    const total = (await platformGet("/v1/customers/count", {}, sandbox.token)) as number;
    await expect(frame.getByTestId("dashboard-total")).toHaveText(total.toLocaleString("en"));
    // Every chart says what it shows and has a table alternative.
    for (const id of ["new-customers", "stage", "source", "gender", "events", "orders", "products"]) {
      const card = frame.getByTestId(`dashboard-${id}`);
      await expect(card.locator(CHART)).toHaveCount(1);
      await expect(card.getByText("Show as a table")).toBeVisible();
    }
    await expect(frame.getByTestId("dashboard-as-of")).toContainText(/Figures as of \d\d:\d\d \(UTC\+8\)/);
    await attachScreenshot(page, "dashboard-en");

    // The stage chart's bars are links: the first opens the customers list with that stage.
    const bar = frame.getByTestId("dashboard-stage").locator(`${CHART} a`).first();
    const name = (await bar.getAttribute("aria-label")) ?? "";
    const stage = name.split(":")[0]!;
    const expected = (await platformGet("/v1/customers/count", stage === "No stage" ? { stage: "_empty" } : { stage }, sandbox.token)) as number;
    expect(name).toContain(expected.toLocaleString("en"));
    await bar.click();
    await expect(frame.getByRole("heading", { level: 1, name: "Customers" })).toBeVisible({ timeout: 20_000 });
    expect(decodeURIComponent(appFrame(page).url())).toContain(`stage=${stage === "No stage" ? "_empty" : stage}`);
    await expect(frame.getByText(expected === 1 ? "1 customer" : `${expected.toLocaleString("en")} customers`)).toBeVisible();
  });

  test("a refresh, even a double click, keeps the figures and says when they are from", async ({ page }) => {
    const frame = await openInAdmin(page, "/?lang=en");
    await chartsShown(frame);
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/dashboard") && r.method() === "POST") posts.push(r.url());
    });
    const refresh = frame.getByTestId("dashboard-refresh");
    await refresh.dblclick();
    await expect(refresh).toBeEnabled({ timeout: 30_000 });
    // The button is disabled while a refresh runs: a double click sends one request.
    expect(posts.length).toBe(1);
    await expect(frame.getByTestId("dashboard-as-of")).toContainText(/\d\d:\d\d/);
    await expect(frame.getByTestId("dashboard-total")).toBeVisible();
  });

  for (const locale of ["en", "zh-CN"] as const) {
    test(`in ${locale}: the overview reads in the language, axe finds nothing, in a 1024-px frame`, async ({ page }) => {
      await page.setViewportSize({ width: 1024, height: 800 });
      const frame = await openInAdmin(page, "/?lang=en");
      // Staff switch the language with the console's own control (the page's words change in place).
      if (locale !== "en") await frame.getByLabel("Language").selectOption(locale);
      await expect(frame.locator("html")).toHaveAttribute("lang", locale);
      await expect(frame.getByRole("heading", { level: 1, name: locale === "en" ? "Overview" : "概览" })).toBeVisible();
      await chartsShown(frame);
      await expect(frame.getByTestId("dashboard-stage").getByRole("heading")).toHaveText(locale === "en" ? "Customers by stage" : "按阶段的客户");
      // Open one table alternative so axe checks it too.
      await frame.getByTestId("dashboard-stage").getByText(locale === "en" ? "Show as a table" : "以表格显示").click();
      await expect(frame.getByTestId("dashboard-stage").locator("table")).toBeVisible();
      await attachScreenshot(page, `dashboard-${locale}-1024`);
      await expectAccessible(page, { include: APP_FRAME, label: `overview ${locale}` });
    });
  }
});
