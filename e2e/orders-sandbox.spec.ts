import { expect, test, type FrameLocator } from "@playwright/test";
import { expectAccessible } from "./support/a11y";
import { appFrame, appUrl, horizontalOverflow, openArea } from "./support/admin-frame";
import { platformCall, platformGet } from "./support/sandbox-api";
import { ALPHA } from "./support/sandbox-login";
import { attachScreenshot } from "./support/screenshots";
import { sandboxSuite } from "./support/suite";
import { fillOrderLine } from "./support/order-form";

/**
 * The Orders area through the real chain: sandbox marketplace → the console in the admin's iframe →
 * the app's proxy → the sandbox API (§4.2). Every result is checked through the sandbox API.
 */

type Row = { [key: string]: unknown };
type Order = { orderNo: string; customerId: string; amountPaid: number; state?: string; remark?: string; cancelDate?: string; dateOrder: string; lines: Row[] };

/** A time `msAgo` in the past as the UTC+8 value a datetime-local input takes, and as the UTC the platform stores. */
function pastTime(msAgo: number) {
  const ms = Math.floor((Date.now() - msAgo) / 1000) * 1000;
  return { home: new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19), utc: `${new Date(ms).toISOString().slice(0, 19)}Z` };
}

const orderNosOnScreen = async (frame: FrameLocator) => (await frame.getByTestId("orders-table").locator("tbody tr td:first-child").allTextContents()).map((s) => s.trim());

test.describe.serial("orders through the sandbox", () => {
  const sandbox = sandboxSuite({ reset: { customers: 40 }, window: { width: 1024, height: 900 } });
  const stamp = Date.now().toString(36);
  // Needs URL encoding: `/`, space, `#`, `%`.
  const orderNo = `E2E/${stamp} #1%`;
  const identity = { type: "crm-e2e", value: `E2E-${stamp}` };
  let customerId: string;

  const detail = async (no = orderNo) => {
    const { status, json } = await platformCall("GET", "/v1/dealService/getDealByOrderNo", sandbox.token, { query: { orderNo: no } });
    return { status, order: json as Order };
  };

  test.beforeAll(async () => {
    customerId = String(((await platformCall("POST", "/v1/customers", sandbox.token, { body: { name: `订单 ${stamp}` } })).json as Row).id);
    expect((await platformCall("POST", "/v1/customeridentities", sandbox.token, { body: { customerId, identityType: identity.type, identityValue: identity.value } })).status).toBe(200);
  });

  test("the list shows the platform's orders of the last month, sorted by payment time both ways", async ({ page }) => {
    const frame = await openArea(page, "Orders");
    const api = async (sord: string) => ((await platformGet("/v1/deals", { rows: "20", page: "1", sidx: "dateOrder", sord }, sandbox.token)) as { records: number; rows: Order[] });
    const desc = await api("desc");
    expect(desc.records).toBeGreaterThan(0);
    await expect(frame.getByText(`${desc.records.toLocaleString("en")} orders`)).toBeVisible();
    await expect.poll(() => orderNosOnScreen(frame)).toEqual(desc.rows.map((r) => r.orderNo));
    const header = frame.getByRole("columnheader", { name: /Paid at/ });
    await expect(header).toHaveAttribute("aria-sort", "descending");
    await header.getByRole("button").click();
    await expect(header).toHaveAttribute("aria-sort", "ascending");
    await expect.poll(async () => orderNosOnScreen(frame)).toEqual((await api("asc")).rows.map((r) => r.orderNo));
    const consoleFrame = appFrame(page);
    expect(new URL(consoleFrame.url()).searchParams.get("sord")).toBe("asc");
    // Paid amounts are shown from the platform's numbers, grouped, 2 decimals.
    const first = (await api("asc")).rows[0]!;
    await expect(frame.getByTestId("orders-table").locator("tbody tr").first()).toContainText(Number(first.amountPaid).toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
    // States come from the rows themselves (no read per row): the seed's orders are paid or cancelled.
    await expect(frame.getByTestId("orders-table").getByTestId("order-state").first()).toBeVisible();
    expect(await horizontalOverflow(consoleFrame)).toBeLessThanOrEqual(0);
    await attachScreenshot(page, "orders-list");
  });

  test("create with two lines for a customer by identity, view, edit, refund a line, delete the refund, cancel, delete", async ({ page }) => {
    test.setTimeout(120_000);
    const frame = await openArea(page, "Orders");
    await frame.getByRole("link", { name: "New order" }).click();
    await expect(frame.getByRole("heading", { level: 1, name: "New order" })).toBeVisible();
    await expect(frame.getByTestId("replace-warning")).toContainText("looked up before saving");

    // §4.2 required fields are checked before anything is sent.
    const orderNoBox = frame.getByRole("textbox", { name: "Order number *" });
    await frame.getByRole("button", { name: "Create order" }).click();
    await expect(orderNoBox).toHaveAttribute("aria-invalid", "true");
    await expect(orderNoBox).toBeFocused();
    await expect(frame.getByRole("textbox", { name: "Paid amount *" })).toHaveAttribute("aria-invalid", "true");

    const when = pastTime(2 * 86_400_000);
    await orderNoBox.fill(orderNo);
    await frame.getByLabel("Paid at (UTC+8) *").fill(when.home);
    await frame.getByRole("radio", { name: "An identity (type and value)" }).check();
    await frame.getByRole("textbox", { name: "Identity type *" }).fill(identity.type);
    await frame.getByRole("textbox", { name: "Identity value *" }).fill(identity.value);
    // More than 2 decimals is refused in the form.
    await frame.getByRole("textbox", { name: "Paid amount *" }).fill("60.075");
    await fillOrderLine(frame, 0, { product: "龙井茶", quantity: "3", unitPrice: "19.99" });
    await frame.getByRole("button", { name: "Add line" }).click();
    const line2 = frame.getByTestId("order-line").nth(1);
    await expect(line2.getByRole("textbox", { name: "Line id *" })).toHaveValue("2");
    await fillOrderLine(frame, 1, { product: "Cup", unitPrice: "0.1" });
    await frame.getByRole("textbox", { name: "Discount amount" }).fill("0.2");
    await frame.getByRole("textbox", { name: "Total amount" }).fill("60.27");
    // Exact sums: 19.99 × 3 + 0.1 = 60.07.
    await expect(frame.getByTestId("order-sums")).toContainText("The lines add up to 60.07.");
    await frame.getByRole("button", { name: "Create order" }).click();
    await expect(frame.getByText("At most 2 decimals.")).toBeVisible();
    await frame.getByRole("textbox", { name: "Paid amount *" }).fill("60.07");
    await expect(frame.getByText("At most 2 decimals.")).toBeHidden();
    await expect(frame.getByTestId("order-sums")).toContainText("Paid + discount = 60.27.");
    await attachScreenshot(page, "order-form");
    await frame.getByRole("button", { name: "Create order" }).click();

    await expect(frame.getByRole("heading", { level: 1, name: `Order ${orderNo}`, exact: true })).toBeVisible();
    const created = (await detail()).order;
    expect(created).toMatchObject({ orderNo, customerId, amountPaid: 60.07, amountTotal: 60.27, amountDiscount: 0.2, dateOrder: when.utc, state: "已付款" });
    expect(created.lines.map((l) => [l.lineId, l.productName, l.qty, l.priceUnit, l.priceSubTotal])).toEqual([
      ["1", "龙井茶", 3, 19.99, 59.97],
      ["2", "Cup", 1, 0.1, 0.1],
    ]);
    await expect(frame.getByTestId("order-state")).toHaveText("Paid");
    await expect(frame.getByText("The payment is complete.")).toBeVisible();
    await expect(frame.getByTestId("order-lines").locator("tbody tr")).toHaveCount(2);
    await expect(frame.getByTestId("order-summary")).toContainText("60.07");
    await expect(frame.getByRole("link", { name: /^Open customer / })).toBeVisible();
    await attachScreenshot(page, "order-detail");

    // Edit: the same form, only changes sent (PUT), the emptied subtotal recomputed exactly.
    await frame.getByRole("link", { name: "Edit order" }).click();
    await expect(frame.getByRole("heading", { level: 1, name: `Edit order ${orderNo}`, exact: true })).toBeVisible();
    await expect(frame.getByRole("textbox", { name: "Order number *" })).toHaveAttribute("readonly", "");
    await frame.getByRole("textbox", { name: "Remark" }).fill("gift wrap");
    const edit2 = frame.getByTestId("order-line").nth(1);
    await edit2.getByRole("textbox", { name: "Quantity *" }).fill("2");
    await edit2.getByRole("textbox", { name: "Line 2 Subtotal", exact: true }).fill("");
    await frame.getByRole("textbox", { name: "Paid amount *" }).fill("60.17");
    await frame.getByRole("button", { name: "Save changes" }).click();
    // Paid + discount (60.37) is no longer the total (60.27): said in numbers, saved only when confirmed.
    const amounts = frame.getByRole("alertdialog", { name: "The amounts do not add up" });
    await expect(amounts.getByTestId("amounts-warning")).toContainText("60.37");
    await amounts.getByRole("button", { name: "Save anyway" }).click();
    await expect(frame.getByRole("heading", { level: 1, name: `Order ${orderNo}`, exact: true })).toBeVisible();
    const edited = (await detail()).order;
    expect(edited).toMatchObject({ remark: "gift wrap", amountPaid: 60.17 });
    expect(edited.lines.map((l) => [l.lineId, l.qty, l.priceSubTotal])).toEqual([["1", 3, 59.97], ["2", 2, 0.2]]);
    await expect(frame.getByTestId("order-summary")).toContainText("gift wrap");

    // A field error of the platform on its field: line 2 disappears (another user) while the dialog is open.
    await frame.getByRole("button", { name: "Refund…", exact: true }).click();
    const refund = frame.getByRole("alertdialog", { name: `Refund order ${orderNo}` });
    await refund.getByRole("checkbox", { name: /^Line 2: Cup/ }).check();
    await expect(refund.getByRole("textbox", { name: "Amount to refund" })).toHaveValue("0.20");
    await refund.getByRole("textbox", { name: "Amount to refund" }).fill("100");
    await refund.getByRole("button", { name: /^Refund / }).click();
    await expect(refund.getByText("At most 60.17 can be refunded: that is what was paid.")).toBeVisible();
    await refund.getByRole("textbox", { name: "Amount to refund" }).fill("0.2");
    await refund.getByRole("textbox", { name: "Reason (optional)" }).fill("damaged");
    await attachScreenshot(page, "refund-dialog");
    const lines = edited.lines;
    expect((await platformCall("PUT", `/v1/deals/${encodeURIComponent(orderNo)}`, sandbox.token, { body: { lines: [lines[0]] } })).status).toBe(200);
    await refund.getByRole("button", { name: "Refund 0.20" }).click();
    await expect(refund.locator('[data-field="refundLines"]')).toHaveAttribute("aria-invalid", "true");
    await expect(refund.locator('[data-field="refundLines"]')).toContainText("has no line 2");
    await refund.getByRole("button", { name: "Back" }).click();
    expect((await platformCall("PUT", `/v1/deals/${encodeURIComponent(orderNo)}`, sandbox.token, { body: { lines } })).status).toBe(200);

    // Refund line 2 (partial, 部分退单), confirmed; shown from the platform's answer.
    // (The page still shows both lines: a refused refund changes nothing, and the lines are back.)
    await frame.getByRole("button", { name: "Refund…", exact: true }).click();
    await refund.getByRole("checkbox", { name: /^Line 2: Cup/ }).check();
    await refund.getByRole("textbox", { name: "Reason (optional)" }).fill("damaged");
    await refund.getByRole("button", { name: "Refund 0.20" }).click();
    await expect(refund).toBeHidden();
    await expect(frame.getByTestId("order-refund")).toContainText("0.20");
    await expect(frame.getByTestId("order-refund")).toContainText("2 Cup");
    await expect(frame.getByTestId("order-refund")).toContainText("damaged");
    const stats = (await (await fetch(`${ALPHA.origin}/__sandbox/stats`)).json()) as Record<string, unknown>;
    expect(JSON.stringify(stats)).toContain("dealService/refund");

    // Delete the refund (confirmed): the platform answers with empty refundLines; none is left.
    await frame.getByRole("button", { name: "Delete refund…" }).click();
    await frame.getByRole("alertdialog").getByRole("button", { name: "Delete the refund" }).click();
    await expect(frame.getByTestId("refund-record").first()).toHaveAttribute("data-status", "deleted");
    await expect(frame.getByRole("button", { name: "Delete refund…" })).toBeHidden();
    expect((await platformCall("POST", "/v1/dealService/deleteRefund", sandbox.token, { body: { orderNo } })).status).toBe(404);

    // Cancel with a date typed in UTC+8 (sent in UTC).
    const cancelAt = pastTime(86_400_000);
    await frame.getByRole("button", { name: "Cancel order…" }).click();
    const cancel = frame.getByRole("alertdialog", { name: `Cancel order ${orderNo}?` });
    // The date starts at now (the platform's own default, the last update, is earlier than the cancel).
    await expect(cancel.getByLabel("Cancel date (UTC+8, optional)")).not.toHaveValue("");
    await cancel.getByLabel("Cancel date (UTC+8, optional)").fill(cancelAt.home);
    await attachScreenshot(page, "cancel-dialog");
    await cancel.getByRole("button", { name: "Cancel the order" }).click();
    await expect(frame.getByTestId("order-state")).toHaveText("Cancelled");
    await expect(frame.getByRole("button", { name: "Cancel order…" })).toBeHidden();
    const cancelled = (await detail()).order;
    expect(cancelled.state).toBe("已取消");
    expect(cancelled.cancelDate).toBe(cancelAt.utc);

    // From the customer's page to this customer's orders, and back to the order.
    const consoleFrame = appFrame(page);
    await consoleFrame.goto(appUrl(`/customers/${customerId}`));
    await frame.getByRole("link", { name: "All orders of this customer" }).click();
    // The heading names the person, with the id (or the id alone when the index has no name yet).
    await expect(frame.getByRole("heading", { level: 1, name: new RegExp(`^Orders of .*${customerId}`) })).toBeVisible();
    expect(new URL(consoleFrame.url()).searchParams.get("customerId")).toBe(customerId);
    await expect.poll(() => orderNosOnScreen(frame)).toEqual([orderNo]);
    await frame.getByRole("link", { name: orderNo }).click();
    await expect(frame.getByRole("heading", { level: 1, name: `Order ${orderNo}`, exact: true })).toBeVisible();

    // Delete (confirmed): back to this customer's orders; the platform has it no more.
    await frame.getByRole("button", { name: "Delete order…" }).click();
    await frame.getByRole("alertdialog").getByRole("button", { name: "Delete the order" }).click();
    await expect(frame.getByTestId("orders-no-results")).toBeVisible();
    expect((await detail()).status).toBe(404);
  });

  test("axe finds nothing on the list, detail, form and dialogs, in both languages", async ({ page }) => {
    test.setTimeout(120_000);
    const no = `AXE-${stamp}`;
    const when = pastTime(3_600_000);
    const made = await platformCall("POST", "/v1/deals", sandbox.token, {
      body: { customerId, orderNo: no, amountPaid: 12.5, dateOrder: when.utc, lines: [{ lineId: "1", productName: "Tea", qty: 1, priceUnit: 12.5, priceSubTotal: 12.5, lAttr1: "gift" }] },
    });
    expect(made.status).toBe(200);
    const pages = [
      { name: "list", url: appUrl("/orders"), ready: () => page.getByTestId("orders-table") },
      { name: "detail", url: appUrl(`/orders/${encodeURIComponent(no)}`), ready: () => page.getByTestId("order-lines") },
      { name: "form", url: appUrl("/orders/new"), ready: () => page.getByTestId("replace-warning") },
      { name: "edit", url: appUrl(`/orders/${encodeURIComponent(no)}/edit`), ready: () => page.getByTestId("order-line").first() },
    ];
    for (const locale of ["en", "zh-CN"] as const) {
      for (const p of pages) {
        await page.goto(p.url);
        if (locale === "zh-CN") await page.getByLabel(/Language|语言/).first().selectOption("zh-CN");
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible({ timeout: 20_000 });
        await expect(p.ready()).toBeVisible();
        if (p.name === "detail" && locale === "en") await expect(page.getByTestId("line-custom")).toContainText("gift");
        if (p.name === "form") {
          // Errors on the page too.
          await page.getByRole("button", { name: locale === "en" ? "Create order" : "创建订单" }).click();
          await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
        }
        await expectAccessible(page, { label: `${locale} ${p.name}` });
        await attachScreenshot(page, `${p.name}-${locale}`);
      }
      // The dialogs, open on the detail page.
      const dialogs: [string, string][] = locale === "en"
        ? [["Refund…", "Refund order"], ["Cancel order…", "Cancel order"], ["Delete order…", "Delete order"]]
        : [["退单…", "退单"], ["取消订单…", "取消订单"], ["删除订单…", "删除订单"]];
      // (Delete refund… is offered only where a refund is known: its dialog is checked in orders-integrity-sandbox.spec.ts.)
      for (const [button, dialog] of dialogs) {
        await page.goto(pages[1]!.url);
        if (locale === "zh-CN") await page.getByLabel(/Language|语言/).first().selectOption("zh-CN");
        await expect(page.getByTestId("order-lines")).toBeVisible({ timeout: 20_000 });
        await page.getByRole("button", { name: button, exact: true }).click();
        await expect(page.getByRole("alertdialog", { name: new RegExp(dialog) })).toBeVisible();
        await expectAccessible(page, { label: `${locale} dialog ${button}` });
        await attachScreenshot(page, `dialog-${button}-${locale}`);
      }
    }
  });
});
