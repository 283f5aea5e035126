import { expect, test, type FrameLocator } from "@playwright/test";
import { e2eUrls } from "../scripts/testing/e2e-env";
import { expectAccessible } from "./support/a11y";
import { appFrame, horizontalOverflow, openInAdmin } from "./support/admin-frame";
import { platformCall, platformGet } from "./support/sandbox-api";
import { ALPHA } from "./support/sandbox-login";
import { attachScreenshot } from "./support/screenshots";
import { sandboxSuite } from "./support/suite";

/**
 * The Events page browses events (§4.3 GET /v1/customerevents by customer, types,
 * time window, max, sort) and records one with the customer chosen in the dialog, in the admin's
 * iframe through the sandbox. What is shown is compared with the platform's own answer.
 */

type Row = { id: string; event: string; customerId: string; targetName?: string };

test.describe.serial("the events browser through the sandbox", () => {
  const sandbox = sandboxSuite({ reset: { customers: 20 }, window: { width: 1024, height: 900 } });
  const stamp = Date.now().toString(36);
  const custom = `c_br_${stamp}`.slice(0, 32);
  let customerId: string;

  const platformEvents = async (query: Record<string, string>) => (await platformGet("/v1/customerevents", { max: "1000", ...query }, sandbox.token)) as Row[];
  const idsOnScreen = async (frame: FrameLocator) =>
    (await frame.locator('[data-testid="events-table"] tbody tr td[data-column="id"]').allTextContents()).map((s) => s.trim());

  test.beforeAll(async () => {
    customerId = String(((await platformCall("POST", "/v1/customers", sandbox.token, { body: { name: `事件 ${stamp}` } })).json as { id: string }).id);
    const now = Date.now();
    for (const [i, event] of ["open_page", "open_page", custom].entries()) {
      const date = `${new Date(now - (3 - i) * 60_000).toISOString().slice(0, 19)}Z`;
      const made = await platformCall("POST", "/v1/customerevents", sandbox.token, { body: { customerId, event, date, targetName: `目标 ${i}`, externalId: `${stamp}-${i}` } });
      expect(made.status).toBe(200);
    }
  });

  test("filters by customer and type, sorts both ways, and says what is wrong with a window before sending", async ({ page }) => {
    const frame = await openInAdmin(page, "/events");
    await expect(frame.getByRole("heading", { level: 1, name: "Events" })).toBeVisible();
    const browser = frame.getByTestId("events-browser");
    await expect(browser.getByRole("heading", { level: 2, name: "Browse events" })).toBeVisible();

    await browser.getByRole("combobox", { name: "Customer", exact: true }).fill(customerId);
    await browser.getByRole("button", { name: "Show events" }).click();
    const expected = (await platformEvents({ customerId, sidx: "lastUpdated", sord: "desc" })).map((e) => String(e.id));
    expect(expected).toHaveLength(3);
    await expect.poll(() => idsOnScreen(frame)).toEqual(expected);
    await expect(browser.getByTestId("events-shown")).toHaveText("Events shown: 3");
    await expect(browser.getByTestId("events-table")).toContainText("目标 2");
    const url = new URL(appFrame(page).url());
    expect(url.searchParams.get("customerId")).toBe(customerId);

    // Oldest first: the other way round.
    await browser.getByRole("combobox", { name: "Sort" }).selectOption({ label: "Entered, oldest first" });
    await expect.poll(() => idsOnScreen(frame)).toEqual([...expected].reverse());

    // One type.
    await browser.getByRole("textbox", { name: "Event types" }).fill(custom);
    await browser.getByRole("button", { name: "Show events" }).click();
    const customOnly = (await platformEvents({ customerId, event: custom })).map((e) => String(e.id));
    expect(customOnly).toHaveLength(1);
    await expect.poll(() => idsOnScreen(frame)).toEqual(customOnly);
    await attachScreenshot(page, "events-browser");

    // A window that ends before it starts is refused on its field, and nothing is asked.
    const asked: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/platform/v1/customerevents")) asked.push(r.url());
    });
    await browser.getByLabel("Entered from (UTC+8)").fill("2026-11-21T10:00:00");
    await browser.getByLabel("Entered until (UTC+8)").fill("2026-11-20T10:00:00");
    await browser.getByRole("button", { name: "Show events" }).click();
    await expect(browser.getByText("The end is before the start.")).toBeVisible();
    expect(asked).toHaveLength(0);

    // A window in the future: no events, said as such, with a way out.
    const future = new Date(Date.now() + 8 * 3_600_000 + 86_400_000).toISOString().slice(0, 19);
    await browser.getByLabel("Entered from (UTC+8)").fill(future);
    await browser.getByLabel("Entered until (UTC+8)").fill("");
    await browser.getByRole("button", { name: "Show events" }).click();
    await expect(frame.getByTestId("events-no-results")).toBeVisible();
    expect(asked.at(-1)).toContain("lastUpdatedFrom=");
    await frame.getByTestId("events-no-results").getByRole("button", { name: "Clear filters" }).click();
    await expect(browser.getByRole("combobox", { name: "Customer", exact: true })).toHaveValue("");

    // At most 1000 (§8); a URL asking for more falls back to the default.
    await browser.getByRole("combobox", { name: "At most" }).selectOption("1000");
    expect(new URL(appFrame(page).url()).searchParams.get("max")).toBe("1000");
    expect(await horizontalOverflow(appFrame(page))).toBeLessThanOrEqual(0);
  });

  test("Record an event on the Events page: the customer is chosen in the dialog", async ({ page }) => {
    const frame = await openInAdmin(page, `/events?customerId=${customerId}`);
    const browser = frame.getByTestId("events-browser");
    await expect.poll(() => idsOnScreen(frame)).toHaveLength(3);
    await browser.getByTestId("record-event-open").click();
    const dialog = frame.getByRole("dialog", { name: "Record an event" });
    const customer = dialog.getByRole("combobox", { name: "Customer id *" });
    await expect(customer).toBeVisible();

    await dialog.locator(`button[type="submit"]`).click();
    await expect(customer).toHaveAttribute("aria-invalid", "true");
    // Text that is no id is a search (the picker): no customer is chosen, so it is still required.
    await customer.fill("12ab");
    await dialog.locator('button[type="submit"]').click();
    await expect(customer).toHaveAttribute("aria-invalid", "true");

    // A pasted id of no customer: said on the field (the platform answers 404).
    await customer.fill("99999999");
    await dialog.locator('button[type="submit"]').click();
    await expect(dialog.getByText("There is no customer 99999999.")).toBeVisible();

    await customer.fill(customerId);
    await dialog.locator('button[type="submit"]').dblclick();
    await expect(dialog).toBeHidden();
    await expect(browser.getByTestId("record-event-outcome")).toContainText("Event recorded");
    await expect.poll(async () => (await platformEvents({ customerId })).length).toBe(4);
    // The browser shows it (the list is refreshed after recording).
    await expect.poll(() => idsOnScreen(frame)).toHaveLength(4);
  });

  test("axe finds nothing on the browser and the recording dialog, in both languages", async ({ page }) => {
    for (const locale of ["en", "zh-CN"] as const) {
      await page.goto(`${e2eUrls.app}/events?openAppId=${ALPHA.openAppId}&lang=${locale}&customerId=${customerId}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(locale === "en" ? "Events" : "事件", { timeout: 20_000 });
      await expect(page.getByTestId("events-table")).toBeVisible();
      await expectAccessible(page, { label: `${locale} events browser` });
      await page.getByTestId("record-event-open").click();
      const form = page.getByTestId("record-event-form");
      await form.locator('button[type="submit"]').click();
      await expect(form.locator('[aria-invalid="true"]').first()).toBeVisible();
      await expectAccessible(page, { label: `${locale} record dialog on events page` });
      await attachScreenshot(page, `events-browser-${locale}`);
    }
  });
});
