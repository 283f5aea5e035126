import { expect, test, type Frame, type FrameLocator, type Locator, type Page } from "@playwright/test";
import { expectAccessible } from "./support/a11y";
import { APP_FRAME, appFrame, consoleFrameAt, horizontalOverflow, openArea, openInAdmin } from "./support/admin-frame";
import { platformCall, platformSend } from "./support/sandbox-api";
import { attachScreenshot } from "./support/screenshots";
import { sandboxSuite } from "./support/suite";

/**
 * The console as staff use it all day, in the admin's 1024-px iframe: every overview bar opens the
 * list behind it or says why it cannot; orders and events filter by a customer picked by name; the
 * tables fit the pane; the order form fills Paid and names each line; the smaller pages (Settings,
 * a customer, shops, the event CSV preview) read right. Both languages, axe, and no console error.
 */

type Row = { id: string; [key: string]: unknown };
const CHART = 'svg[role="group"]';
const utcNow = (minusMs = 60_000) => `${new Date(Date.now() - minusMs).toISOString().slice(0, 19)}Z`;

/** Console errors and uncaught exceptions of the page and its frames (a hydration mismatch is one). */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/** Each table of the console's page fits its box (no sideways scrolling inside the pane). */
async function tablesFit(frame: Frame, where = "") {
  const over = await frame.evaluate(() =>
    [...document.querySelectorAll("table")].map((table) => {
      const box = table.parentElement!;
      return { over: box.scrollWidth - box.clientWidth, width: table.scrollWidth, pane: box.clientWidth };
    }),
  );
  // 2 px of slack: the customers table measures 734 in a 732-px box whatever its column widths (not
  // yet explained; no scrollbar shows). The shops table was 38 px over before this check.
  for (const t of over) expect(t.over, `${where} a table ${t.width} px wide in a ${t.pane} px box`).toBeLessThanOrEqual(2);
  expect(await horizontalOverflow(frame)).toBeLessThanOrEqual(0);
}

async function pick(frame: FrameLocator, box: Locator, person: { id: string; name: string }) {
  await box.fill(person.name.slice(0, -1));
  const option = frame.getByRole("option").filter({ hasText: person.id });
  await expect(option).toBeVisible({ timeout: 30_000 });
  await option.click();
}

test.describe.serial("staff view: the right list behind every click, at 1024 px", () => {
  // Several pages per test, each checked with axe: more than the default minute on a shared machine.
  test.describe.configure({ timeout: 180_000 });
  const sandbox = sandboxSuite({ reset: { customers: 60 }, window: { width: 1024, height: 800 } });
  const stamp = Date.now().toString(36);
  const people: { id: string; name: string }[] = [];

  test.beforeAll(async () => {
    for (const letter of ["A", "B"]) {
      const name = `Staffview${stamp}${letter}x`;
      const made = await platformSend<Row>("POST", "/v1/customers", { name, email: `staff.${stamp}.${letter.toLowerCase()}.with.a.rather.long.address@example.com`, mobile: `+86 1390000${letter === "A" ? "1111" : "2222"}` }, sandbox.token);
      people.push({ id: String(made.id), name });
    }
    for (const [i, person] of people.entries()) {
      const order = await platformCall("POST", "/v1/deals", sandbox.token, {
        body: { orderNo: `SV-${stamp}-${i}`, customerId: person.id, amountPaid: 12345.67, dateOrder: utcNow(), currency: "¥", lines: [{ lineId: "1", productName: `Long product name ${stamp} ${i}`, qty: 1, priceSubPaid: 12345.67 }] },
      });
      expect(order.status).toBe(200);
      const event = await platformCall("POST", "/v1/customerevents", sandbox.token, { body: { customerId: person.id, event: "open_page", date: utcNow(), externalId: `sv-${stamp}-${i}` } });
      expect(event.status).toBe(200);
    }
  });

  test("every overview bar opens its own filtered list, or says the platform cannot", async ({ page }) => {
    const errors = watchErrors(page);
    const frame = await openInAdmin(page, "/?lang=en");
    await expect(frame.getByTestId("dashboard-total")).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => frame.locator(CHART).count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(5);

    // Orders by day and products: no link that would open an unfiltered list; each bar says why.
    for (const id of ["orders", "products"]) {
      const card = frame.getByTestId(`dashboard-${id}`);
      await expect(card.locator(`${CHART} a`)).toHaveCount(0);
      await expect(card.locator(`${CHART} [data-no-list]`).first()).toHaveAttribute("aria-label", id === "orders" ? /The platform cannot list orders by day\./ : /The platform cannot list orders by product\./);
      await expect(card).toContainText("The platform lists orders only by customer (§4.2)");
    }
    // The top product's amount is drawn whole, inside the chart.
    const products = frame.getByTestId("dashboard-products").locator(CHART);
    const cut = await products.evaluate((svg) => {
      const width = (svg as SVGSVGElement).viewBox.baseVal.width;
      return [...svg.querySelectorAll("text")].map((t) => (t as SVGTextElement).getBBox()).filter((b) => b.x + b.width > width).length;
    });
    expect(cut).toBe(0);

    // Today's event bar opens the events recorded today (UTC+8), as its name says.
    const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    const bar = frame.getByTestId("dashboard-events").locator(`${CHART} a[aria-label^="${today}"]`);
    await expect(bar).toHaveAttribute("aria-label", /Open the events recorded on this day\./);
    await bar.click();
    await expect(frame.getByRole("heading", { level: 1, name: "Events" })).toBeVisible({ timeout: 20_000 });
    const url = new URL(appFrame(page).url());
    expect(url.searchParams.get("from")).toBe(`${today}T00:00:00`);
    expect(url.searchParams.get("to")).toBe(`${today}T23:59:59`);
    const table = frame.getByTestId("events-table");
    await expect(table.locator("tbody tr").first()).toBeVisible({ timeout: 20_000 });
    expect(errors).toEqual([]);
  });

  test("orders and events filter by a customer picked by name, kept in the URL", async ({ page }) => {
    const errors = watchErrors(page);
    const frame = await openInAdmin(page, "/orders?lang=en");
    await pick(frame, frame.getByRole("combobox", { name: "Customer", exact: true }), people[0]!);
    await expect.poll(() => new URL(appFrame(page).url()).searchParams.get("customerId")).toBe(people[0]!.id);
    const orders = frame.getByTestId("orders-table");
    await expect(orders.locator("tbody tr")).toHaveCount(1, { timeout: 20_000 });
    await expect(orders).toContainText(`SV-${stamp}-0`);
    await tablesFit(appFrame(page));

    const events = await openInAdmin(page, "/events?lang=en");
    const browser = events.getByTestId("events-browser");
    await pick(events, browser.getByRole("combobox", { name: "Customer", exact: true }), people[1]!);
    await browser.getByRole("button", { name: "Show events" }).click();
    await expect.poll(() => new URL(appFrame(page).url()).searchParams.get("customerId")).toBe(people[1]!.id);
    await expect(events.getByTestId("events-shown")).toHaveText("Events shown: 1", { timeout: 20_000 });
    await tablesFit(appFrame(page));
    await attachScreenshot(page, "events-filtered-by-picker");
    expect(errors).toEqual([]);
  });

  test("the order form fills Paid from the lines and names each line's fields by its number", async ({ page }) => {
    const frame = await openInAdmin(page, "/orders/new");
    const first = frame.getByTestId("order-line").first();
    await expect(first.getByRole("textbox", { name: "Line 1 Line id *" })).toHaveValue("1");
    await first.getByRole("textbox", { name: "Line 1 Quantity *" }).fill("2");
    await first.getByRole("textbox", { name: "Line 1 Unit price" }).fill("10.50");
    await expect(frame.getByRole("textbox", { name: "Paid amount *" })).toHaveValue("21.00");
    await frame.getByRole("button", { name: "Add line" }).click();
    const second = frame.getByTestId("order-line").nth(1);
    await expect(second.getByRole("textbox", { name: "Line 2 Line id *" })).toHaveValue("2");
    await second.getByRole("textbox", { name: "Line 2 Unit price" }).fill("4");
    await expect(frame.getByRole("textbox", { name: "Paid amount *" })).toHaveValue("25.00");
    // Staff's own amount is kept from then on.
    await frame.getByRole("textbox", { name: "Paid amount *" }).fill("20");
    await second.getByRole("textbox", { name: "Line 2 Quantity *" }).fill("3");
    await expect(frame.getByRole("textbox", { name: "Paid amount *" })).toHaveValue("20");
  });

  test("the tables fit the 1024-px pane: customers (person first, no id), tags, shops", async ({ page }) => {
    const errors = watchErrors(page);
    const frame = await openArea(page, "Customers");
    const headers = frame.locator("thead th");
    await expect(headers.nth(1)).toContainText("Name");
    await expect(frame.getByRole("columnheader", { name: "Id", exact: true })).toHaveCount(0);
    await tablesFit(appFrame(page));
    // A long email is cut with an ellipsis; its whole value is on hover (title) and on focus.
    const address = `staff.${stamp}.a.with.a.rather.long.address@example.com`;
    const list = await openInAdmin(page, `/customers?email=${encodeURIComponent(address)}&lang=en`);
    const email = list.locator(`tbody [title="${address}"]`);
    await expect(email).toHaveAttribute("data-truncated", "true");
    await email.focus();
    await expect(email).toBeFocused();
    expect(await email.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await expect(list.locator("tbody td").filter({ hasText: "+86 13900001111" })).toHaveCount(1);
    await tablesFit(appFrame(page));
    await attachScreenshot(page, "customers-1024");

    await openInAdmin(page, "/tags?lang=en");
    await tablesFit(appFrame(page));
    const shops = await openInAdmin(page, "/shops/groups?lang=en");
    await shops.getByRole("textbox", { name: "Group id" }).fill("9007199254741992");
    await shops.getByRole("button", { name: "Open group" }).click();
    await expect(shops.getByTestId("group-count")).toContainText("Shops in this group: 6");
    await shops.getByRole("navigation").getByRole("link", { name: "Shops" }).click();
    const register = shops.getByTestId("shops-table");
    await expect(register.locator("tbody tr").first()).toBeVisible();
    // A status is named as the platform's code, or said to be missing: never a bare number.
    const statuses = (await register.locator('td[data-column="status"]').allTextContents()).map((s) => s.trim());
    expect(statuses.length).toBeGreaterThan(0);
    for (const status of statuses) expect(status).toMatch(/^(Platform code \S+|Not reported)/);
    await tablesFit(appFrame(page));
    await attachScreenshot(page, "shops-1024");
    expect(errors).toEqual([]);
  });

  test("a customer's page shows the filled fields, the empty ones behind a toggle", async ({ page }) => {
    const frame = await openInAdmin(page, `/customers/${people[0]!.id}?lang=en`);
    const filled = frame.getByTestId("profile-filled");
    await expect(filled).toContainText(people[0]!.name);
    await expect(filled.locator('[data-field="company"]')).toHaveCount(0);
    const toggle = frame.getByTestId("profile-empty-toggle");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await toggle.click();
    await expect(frame.getByTestId("profile-empty").locator('[data-field="company"]')).toContainText("—");
  });

  test("the event CSV preview flags a row with a cell past the header, and shows the cell", async ({ page }) => {
    const frame = await consoleFrameAt(page, "/events?lang=en");
    const csv = `identityType,identityValue,event,date,targetName\r\ncrm,A,open_page,2026-11-20 16:30:00,试驾\r\ncrm,B,open_page,2026-11-20 16:30:00,试驾,上海\r\n`;
    await frame.getByTestId("events-file").setInputFiles({ name: "extra.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    const preview = frame.getByTestId("events-preview");
    await expect(preview.locator("tbody tr")).toHaveCount(2);
    const bad = preview.locator('tbody tr[data-invalid="1"]');
    await expect(bad).toHaveCount(1);
    await expect(bad).toContainText("1 cell past the header's 5 columns");
    await expect(bad.getByTestId("events-preview-extra")).toHaveText("上海");
  });

  for (const locale of ["en", "zh-CN"] as const) {
    test(`in ${locale}: Settings hydrates without an error; pages read in the language; axe finds nothing`, async ({ page }) => {
      const errors = watchErrors(page);
      const settings = await openInAdmin(page, `/settings?lang=${locale}`);
      await expect(settings.getByRole("heading", { level: 1 })).toHaveText(locale === "en" ? "Settings" : "设置");
      await expect(settings.locator("#settings-account").locator("xpath=..")).toContainText("Alpha Retail");
      await expectAccessible(page, { include: APP_FRAME, label: `settings ${locale}` });

      const events = await openInAdmin(page, `/events?lang=${locale}`);
      await expect(events.getByTestId("events-customer")).toBeVisible();
      await expectAccessible(page, { include: APP_FRAME, label: `events ${locale}` });

      await openInAdmin(page, `/orders?customerId=${people[0]!.id}&lang=${locale}`);
      await expectAccessible(page, { include: APP_FRAME, label: `orders ${locale}` });

      const customer = await openInAdmin(page, `/customers/${people[1]!.id}?lang=${locale}`);
      await customer.getByTestId("profile-empty-toggle").click();
      await expectAccessible(page, { include: APP_FRAME, label: `customer ${locale}` });

      await openInAdmin(page, `/?lang=${locale}`);
      await expect(page.frameLocator(APP_FRAME).locator(CHART).first()).toBeVisible({ timeout: 30_000 });
      await expectAccessible(page, { include: APP_FRAME, label: `overview ${locale}` });

      await openInAdmin(page, `/shops?lang=${locale}`);
      await expectAccessible(page, { include: APP_FRAME, label: `shops ${locale}` });

      // Every list fits the 1024-px pane in this language too (Chinese dates and headers are wider).
      for (const path of ["/customers", "/tags", "/lists", "/orders", "/events", "/shops"]) {
        const list = await openInAdmin(page, `${path}?lang=${locale}`);
        await expect(list.locator("tbody tr").first(), path).toBeVisible({ timeout: 20_000 });
        await tablesFit(appFrame(page), `${path} in ${locale}:`);
      }
      expect(errors, `console errors in ${locale}`).toEqual([]);
    });
  }
});
