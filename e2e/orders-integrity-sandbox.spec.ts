import { expect, test, type FrameLocator } from "@playwright/test";
import { expectAccessible } from "./support/a11y";
import { adminOpenUrl, APP_FRAME, openInAdmin } from "./support/admin-frame";
import { platformCall } from "./support/sandbox-api";
import { ALPHA, installAlpha } from "./support/sandbox-login";
import { attachScreenshot } from "./support/screenshots";
import { sandboxSuite } from "./support/suite";
import { fillOrderLine } from "./support/order-form";

/**
 * Order integrity, as staff meet it in the admin's iframe through the sandbox:
 * - a new order with an existing number never silently replaces it;
 * - editing a quantity recomputes the line's subtotal, and amounts that do not add up are said before saving;
 * - a refund shows on the order for every staff member (the app's store), "Delete refund" only where one
 *   is known, the state no longer says "the payment is complete", the cancel date starts at now;
 * - the orders list shows states without a read per row.
 */

type Order = { orderNo: string; customerId: string; amountPaid: number; state?: string; cancelDate?: string; lastUpdated?: string; lines: { lineId: string; qty: number; priceSubTotal: number }[] };

const stats = async () => ((await (await fetch(`${ALPHA.origin}/__sandbox/stats`)).json()) as { calls: Record<string, number> }).calls;
/** Fills the new-order form: the number, paid a minute ago (UTC+8), the customer by id, the paid amount and one line. */
async function fillNewOrder(frame: FrameLocator, o: { orderNo: string; customerId: string; paid: string; product: string; unitPrice?: string }) {
  await frame.getByRole("textbox", { name: "Order number *" }).fill(o.orderNo);
  await frame.getByLabel("Paid at (UTC+8) *").fill(new Date(Date.now() + 8 * 3_600_000 - 60_000).toISOString().slice(0, 19));
  await frame.getByRole("combobox", { name: "Customer id *" }).fill(o.customerId);
  await frame.getByRole("textbox", { name: "Paid amount *" }).fill(o.paid);
  await fillOrderLine(frame, 0, { product: o.product, unitPrice: o.unitPrice });
}
const utcNow = (offsetMs = 0) => `${new Date(Math.floor((Date.now() + offsetMs) / 1000) * 1000).toISOString().slice(0, 19)}Z`;

test.describe.serial("order integrity through the sandbox", () => {
  const sandbox = sandboxSuite({ reset: { customers: 30 }, window: { width: 1024, height: 900 } });
  const stamp = Date.now().toString(36);
  let owner: string;
  let other: string;

  const detail = async (orderNo: string) => {
    const { status, json } = await platformCall("GET", "/v1/dealService/getDealByOrderNo", sandbox.token, { query: { orderNo } });
    return { status, order: json as Order };
  };
  const createOrder = async (orderNo: string, body: Record<string, unknown>) => {
    const made = await platformCall("POST", "/v1/deals", sandbox.token, { body: { orderNo, dateOrder: utcNow(-3_600_000), ...body } });
    expect(made.status).toBe(200);
  };

  test.beforeAll(async () => {
    owner = String(((await platformCall("POST", "/v1/customers", sandbox.token, { body: { name: `Owner ${stamp}` } })).json as { id: string }).id);
    other = String(((await platformCall("POST", "/v1/customers", sandbox.token, { body: { name: `Other ${stamp}` } })).json as { id: string }).id);
  });

  test("a new order with an existing number shows that order and replaces it only on 'Replace order …'", async ({ page }) => {
    const taken = `SO-${stamp}-1415`;
    await createOrder(taken, { customerId: owner, amountPaid: 599, lines: [{ lineId: "1", productName: "Tea set", qty: 1, priceUnit: 599, priceSubTotal: 599 }, { lineId: "2", productName: "Gift box", qty: 1, priceUnit: 0, priceSubTotal: 0 }] });

    const frame = await openInAdmin(page, "/orders/new");
    await expect(frame.getByTestId("replace-warning")).toContainText("looked up before saving");
    await fillNewOrder(frame, { orderNo: taken, customerId: other, paid: "1", product: "Sample", unitPrice: "1" });
    const before = await stats();
    // A busy person double-clicks: one look-up, one question. The look-up is counted where the console
    // sends it: the app's proxy may repeat a read upstream when a connection drops (the sandbox would
    // then count two calls for one look-up), which is transport, not a second question.
    const lookups: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/platform/v1/dealService/getDealByOrderNo")) lookups.push(r.url());
    });
    await frame.getByRole("button", { name: "Create order" }).dblclick();
    const dialog = frame.getByRole("alertdialog", { name: `Order ${taken} already exists` });
    await expect(dialog).toBeVisible();
    const existing = dialog.getByTestId("replace-existing");
    await expect(existing).toContainText(owner);
    await expect(existing).toContainText("599.00");
    await expect(existing).toContainText("Lines");
    await expect(existing).toContainText("2");
    await expect(dialog.getByRole("button", { name: "Keep the existing order" })).toBeFocused();
    await attachScreenshot(page, "replace-dialog");

    // Keeping it sends nothing.
    await dialog.getByRole("button", { name: "Keep the existing order" }).click();
    await expect(dialog).toBeHidden();
    const afterKeep = await stats();
    expect((afterKeep["POST /v1/deals"] ?? 0) - (before["POST /v1/deals"] ?? 0)).toBe(0);
    expect(lookups).toHaveLength(1);
    expect((await detail(taken)).order).toMatchObject({ customerId: owner, amountPaid: 599 });

    // Replacing is explicit, named, and happens once even when double-clicked.
    await frame.getByRole("button", { name: "Create order" }).click();
    await dialog.getByRole("button", { name: `Replace order ${taken}` }).dblclick();
    await expect(frame.getByRole("heading", { level: 1, name: `Order ${taken}`, exact: true })).toBeVisible();
    const afterReplace = await stats();
    expect((afterReplace["POST /v1/deals"] ?? 0) - (afterKeep["POST /v1/deals"] ?? 0)).toBe(1);
    expect((await detail(taken)).order).toMatchObject({ customerId: other, amountPaid: 1 });

    // A free number is created without a question.
    const fresh = `SO-${stamp}-new`;
    const frame2 = await openInAdmin(page, "/orders/new");
    await fillNewOrder(frame2, { orderNo: fresh, customerId: other, paid: "2.50", product: "Cup", unitPrice: "2.5" });
    await frame2.getByRole("button", { name: "Create order" }).click();
    await expect(frame2.getByRole("heading", { level: 1, name: `Order ${fresh}`, exact: true })).toBeVisible();
    expect((await detail(fresh)).order).toMatchObject({ customerId: other, amountPaid: 2.5 });
  });

  test("a quantity change recomputes the subtotal; amounts that do not add up are said before saving", async ({ page }) => {
    const no = `SO-${stamp}-edit`;
    await createOrder(no, { customerId: owner, amountPaid: 99.9, lines: [{ lineId: "1", productName: "Tea", qty: 2, priceUnit: 49.95, priceSubTotal: 99.9 }] });
    const frame = await openInAdmin(page, `/orders/${encodeURIComponent(no)}/edit`);
    const line = frame.getByTestId("order-line").first();
    await expect(line.getByRole("textbox", { name: "Line 1 Subtotal", exact: true })).toHaveValue("99.90");
    await line.getByRole("textbox", { name: "Line 1 Quantity *" }).fill("3");
    await expect(line.getByRole("textbox", { name: "Line 1 Subtotal", exact: true })).toHaveValue("149.85");
    await expect(frame.getByTestId("order-sums")).toContainText("The lines add up to 149.85");
    // Paid matched the lines when the order was loaded, so it follows them until staff type their own.
    await expect(frame.getByRole("textbox", { name: "Paid amount *" })).toHaveValue("149.85");
    await expect(frame.getByTestId("lines-mismatch")).toBeHidden();
    await frame.getByRole("textbox", { name: "Paid amount *" }).fill("99.90");
    await expect(frame.getByTestId("lines-mismatch")).toBeVisible();

    // Saving asks first, in numbers; going back changes nothing.
    await frame.getByRole("button", { name: "Save changes" }).click();
    const dialog = frame.getByRole("alertdialog", { name: "The amounts do not add up" });
    await expect(dialog.getByTestId("amounts-warning")).toContainText("149.85");
    await dialog.getByRole("button", { name: "Go back and correct" }).click();
    await expect(dialog).toBeHidden();
    expect((await detail(no)).order.lines[0]).toMatchObject({ qty: 2, priceSubTotal: 99.9 });

    // A subtotal set by hand is marked as such, and can go back to quantity × unit price.
    await line.getByRole("textbox", { name: "Line 1 Subtotal", exact: true }).fill("140");
    await expect(line.getByRole("textbox", { name: "Line 1 Subtotal (set by hand)" })).toHaveValue("140");
    await expect(line.getByTestId("line-0-subtotal")).toContainText("Quantity × unit price would be 149.85");
    await line.getByRole("button", { name: "Use quantity × unit price" }).click();
    await expect(line.getByRole("textbox", { name: "Line 1 Subtotal", exact: true })).toHaveValue("149.85");

    // With the paid amount corrected, it saves without a question.
    await frame.getByRole("textbox", { name: "Paid amount *" }).fill("149.85");
    await expect(frame.getByTestId("lines-mismatch")).toBeHidden();
    await frame.getByRole("button", { name: "Save changes" }).click();
    await expect(frame.getByRole("heading", { level: 1, name: `Order ${no}`, exact: true })).toBeVisible();
    const saved = (await detail(no)).order;
    expect(saved).toMatchObject({ amountPaid: 149.85 });
    expect(saved.lines[0]).toMatchObject({ qty: 3, priceSubTotal: 149.85 });
  });

  test("a refund shows for every staff member; Delete refund only where one is known; cancel date starts at now", async ({ page, browser }) => {
    test.setTimeout(120_000);
    const no = `SO-${stamp}-refund`;
    await createOrder(no, { customerId: owner, amountPaid: 599, lines: [{ lineId: "1", productName: "Tea set", qty: 1, priceUnit: 599, priceSubTotal: 599 }] });
    const frame = await openInAdmin(page, `/orders/${encodeURIComponent(no)}`);
    await expect(frame.getByTestId("order-refund-none")).toBeVisible();
    await expect(frame.getByRole("button", { name: "Delete refund…" })).toHaveCount(0);

    await frame.getByRole("button", { name: "Refund…", exact: true }).click();
    const refund = frame.getByRole("alertdialog", { name: `Refund order ${no}` });
    await refund.getByRole("radio", { name: /Full/ }).check();
    await refund.getByRole("textbox", { name: "Reason (optional)" }).fill("damaged");
    const before = await stats();
    await refund.getByRole("button", { name: /^Refund / }).dblclick();
    await expect(refund).toBeHidden();
    const after = await stats();
    expect((after["POST /v1/dealService/refund"] ?? 0) - (before["POST /v1/dealService/refund"] ?? 0)).toBe(1);

    // The state says what happened: no more "The payment is complete."
    await expect(frame.getByTestId("order-state-refunded")).toContainText("Refunded");
    await expect(frame.getByText("The payment is complete.")).toHaveCount(0);
    await expect(frame.getByTestId("refund-record")).toHaveCount(1);
    await expect(frame.getByTestId("refund-record")).toContainText("599.00");
    await expect(frame.getByTestId("refund-record")).toContainText("1 Tea set");
    await expect(frame.getByTestId("refund-record")).toContainText("damaged");
    await attachScreenshot(page, "order-refunded");

    // Another staff session (another browser) sees the refund, on the order and in the list.
    const second = await browser.newContext({ viewport: { width: 1024, height: 900 } });
    try {
      const page2 = await second.newPage();
      await installAlpha(page2);
      const hydrated = page2.waitForRequest((r) => r.url().includes("/api/activity"), { timeout: 20_000 });
      await page2.goto(adminOpenUrl(`/orders/${encodeURIComponent(no)}`));
      const frame2 = page2.frameLocator(APP_FRAME);
      await hydrated;
      await expect(frame2.getByTestId("refund-record")).toContainText("599.00");
      await expect(frame2.getByTestId("order-state-refunded")).toContainText("Refunded");
      await page2.goto(adminOpenUrl(`/orders?customerId=${owner}`));
      await expect(frame2.getByTestId("orders-table").locator("tr", { hasText: no }).getByTestId("order-refunded")).toHaveText("Refunded");
    } finally {
      await second.close();
    }

    // Delete refund: now offered; afterwards the record says deleted and the action is gone.
    await frame.getByRole("button", { name: "Delete refund…" }).click();
    await frame.getByRole("alertdialog").getByRole("button", { name: "Delete the refund" }).click();
    await expect(frame.getByTestId("refund-record")).toHaveAttribute("data-status", "deleted");
    await expect(frame.getByRole("button", { name: "Delete refund…" })).toHaveCount(0);
    await expect(frame.getByText("The payment is complete.")).toBeVisible();

    // Cancel: the date starts at now (UTC+8); the platform stamps that, not the last update. The
    // browser's clock is set (a minute after the last update), so "now" is known, not raced.
    const lastUpdated = (await detail(no)).order.lastUpdated!;
    const now = Math.floor(Date.parse(lastUpdated) / 1000) * 1000 + 60_000;
    await page.clock.setFixedTime(now);
    await frame.getByRole("button", { name: "Cancel order…" }).click();
    const cancel = frame.getByRole("alertdialog", { name: `Cancel order ${no}?` });
    await expect(cancel.getByText("Left empty, the platform stamps the order's last update time")).toBeVisible();
    const shown = await cancel.getByLabel("Cancel date (UTC+8, optional)").inputValue();
    // The field shows `YYYY-MM-DDTHH:MM:SS` (datetime-local) or `YYYY-MM-DD HH:MM:SS` (the console's DateTimeField, en).
    expect(shown.trim().replace(" ", "T")).toBe(new Date(now + 8 * 3_600_000).toISOString().slice(0, 19));
    await cancel.getByRole("button", { name: "Cancel the order" }).click();
    await expect(frame.getByTestId("order-state")).toHaveText("Cancelled");
    expect(Date.parse((await detail(no)).order.cancelDate!)).toBe(now);
  });

  test("the orders list shows each row's state with one platform read per page, none per row", async ({ page }) => {
    const cancelledNo = `SO-${stamp}-cxl`;
    await createOrder(cancelledNo, { customerId: other, amountPaid: 5, lines: [{ lineId: "1", productName: "Pen", qty: 1 }] });
    expect((await platformCall("POST", "/v1/dealService/cancel", sandbox.token, { body: { orderNo: cancelledNo } })).status).toBe(200);
    const before = await stats();
    const frame: FrameLocator = await openInAdmin(page, `/orders?customerId=${other}`);
    const table = frame.getByTestId("orders-table");
    await expect(table.locator("tr", { hasText: cancelledNo }).getByTestId("order-state")).toHaveText("Cancelled");
    await expect(table.getByTestId("order-state").first()).toBeVisible();
    await expect(frame.getByText("Loading state…")).toHaveCount(0);
    const after = await stats();
    expect((after["GET /v1/dealService/getDealByOrderNo"] ?? 0) - (before["GET /v1/dealService/getDealByOrderNo"] ?? 0)).toBe(0);
    expect((after["GET /v1/deals"] ?? 0) - (before["GET /v1/deals"] ?? 0)).toBeLessThanOrEqual(2);
  });

  // axe runs last on each page load: after a scan inside the frame, React no longer receives clicks (components/README.md).
  test("axe finds nothing on the replace, amounts and delete-refund dialogs", async ({ page }) => {
    test.setTimeout(120_000);
    const no = `SO-${stamp}-axe`;
    await createOrder(no, { customerId: owner, amountPaid: 10, lines: [{ lineId: "1", productName: "Tea", qty: 2, priceUnit: 5, priceSubTotal: 10 }] });

    let frame = await openInAdmin(page, "/orders/new");
    await fillNewOrder(frame, { orderNo: no, customerId: other, paid: "3", product: "Cup" });
    await frame.getByRole("button", { name: "Create order" }).click();
    await expect(frame.getByRole("alertdialog", { name: `Order ${no} already exists` })).toBeVisible();
    await expectAccessible(page, { label: "replace dialog" });

    frame = await openInAdmin(page, `/orders/${encodeURIComponent(no)}/edit`);
    await frame.getByTestId("order-line").first().getByRole("textbox", { name: "Quantity *" }).fill("3");
    // Paid follows the lines until typed by hand: typed back to 10, the amounts no longer add up.
    await frame.getByRole("textbox", { name: "Paid amount *" }).fill("10");
    await frame.getByRole("button", { name: "Save changes" }).click();
    await expect(frame.getByRole("alertdialog", { name: "The amounts do not add up" })).toBeVisible();
    await expectAccessible(page, { label: "amounts dialog" });

    frame = await openInAdmin(page, `/orders/${encodeURIComponent(no)}`);
    await frame.getByRole("button", { name: "Refund…", exact: true }).click();
    const refund = frame.getByRole("alertdialog", { name: `Refund order ${no}` });
    await refund.getByRole("radio", { name: /Full/ }).check();
    await refund.getByRole("button", { name: /^Refund / }).click();
    await expect(refund).toBeHidden();
    await frame.getByRole("button", { name: "Delete refund…" }).click();
    await expect(frame.getByRole("alertdialog", { name: /Delete the refund/ })).toBeVisible();
    await expectAccessible(page, { label: "delete refund dialog" });
  });
});
