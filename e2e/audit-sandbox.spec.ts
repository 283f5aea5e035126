import { expect, test, type FrameLocator, type Page } from "@playwright/test";
import { expectAccessible } from "./support/a11y";
import { APP_FRAME, adminOpenUrl, appFrame, consoleFrameAt, openInAdmin } from "./support/admin-frame";
import { platformCall, platformGet, resetSandbox } from "./support/sandbox-api";
import { ALPHA, BETA, installIn, marketUrl, signIn } from "./support/sandbox-login";
import { sandboxSuite } from "./support/suite";

/**
 * The audit log and the disconnect through the real chain: the console in the sandbox admin's
 * 1024-px iframe → the app (route wrapper, proxy) → the sandbox. Writes are sent from inside the
 * console's frame as its own client sends them (its session, its headers); the Audit page then lists
 * each with who, when and the change, in English and Chinese, and axe finds nothing.
 */

type Row = { id: string; [key: string]: unknown };

/** A write from inside the console's frame, as lib/api/browser-fetch.ts sends it. */
async function consoleWrite(page: Page, method: string, path: string, body?: unknown, openAppId: string = ALPHA.openAppId): Promise<number> {
  return appFrame(page).evaluate(
    async ({ method, path, body, openAppId }) => {
      const response = await fetch(`${path}${path.includes("?") ? "&" : "?"}openAppId=${openAppId}`, {
        method,
        headers: { "content-type": "application/json", "x-engage-request": "1", "x-open-app-id": openAppId },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return response.status;
    },
    { method, path, body, openAppId },
  );
}

const auditRows = (frame: FrameLocator) => frame.getByTestId("audit-table").locator("tbody tr");

test.describe.serial("audit log and disconnect through the sandbox", () => {
  const sandbox = sandboxSuite({ reset: { customers: 20 }, window: { width: 1024, height: 900 } });
  const ids: { a?: string; b?: string } = {};

  test("an edit, a merge, a refund and a preference are listed with who, when and the change; axe 0 in English and Chinese", async ({ page }) => {
    const customers = (await platformGet("/v1/customers", { rows: "2" }, sandbox.token)) as Row[] | { rows: Row[] };
    const list = Array.isArray(customers) ? customers : customers.rows;
    [ids.a, ids.b] = [String(list[0]!.id), String(list[1]!.id)];
    const orderNo = `AU-${Date.now().toString(36)}`;
    const dateOrder = `${new Date(Date.now() - 3_600_000).toISOString().slice(0, 19)}Z`;
    const made = await platformCall("POST", "/v1/deals", sandbox.token, { body: { orderNo, dateOrder, customerId: ids.a, amountPaid: 20, lines: [{ lineId: "1", productName: "Tea", qty: 2, priceUnit: 10, priceSubTotal: 20 }] } });
    expect(made.status).toBe(200);
    await consoleFrameAt(page, "/settings");
    expect(await consoleWrite(page, "PUT", `/api/platform/v1/customers/${ids.a}`, { name: "Audited Name" })).toBe(200);
    expect(await consoleWrite(page, "POST", `/api/platform/v1/customerService/mergeCustomerById?fromId=${ids.b}&toId=${ids.a}`, {})).toBe(200);
    expect(await consoleWrite(page, "POST", "/api/orders/refunds", { requestKey: `audit-${Date.now()}`, refund: { orderNo, state: "部分退单", refundLines: [{ lineId: "1" }], refundTotal: "10.00", reason: "audited" } })).toBe(201);
    expect(await consoleWrite(page, "PUT", "/api/preferences", { key: "attrLabels", value: { attr1: "Level" } })).toBe(200);

    for (const locale of ["en", "zh-CN"] as const) {
      const frame = await openInAdmin(page, `/audit?lang=${locale}`);
      // The log holds what other specs did in this tenant too: look for these three entries.
      const table = frame.getByTestId("audit-table");
      await expect(table).toContainText("customers.update", { timeout: 20_000 });
      await expect(table).toContainText("Audited Name");
      await expect(table).toContainText("customers.mergeById");
      await expect(table).toContainText("refunds.create");
      await expect(table).toContainText(orderNo);
      await expect(table).toContainText("preferences.put");
      await expect(table).toContainText("Level");
      await expect(table).toContainText("Admin");
      await page.waitForLoadState("networkidle");
      await expectAccessible(page, { include: APP_FRAME, label: `audit ${locale}` });
    }
    // The customer's own trail, and the log filtered to it through the URL.
    const frame = await openInAdmin(page, `/audit?target=${ids.b}`);
    await expect(auditRows(frame)).toHaveCount(1);
    await expect(auditRows(frame)).toContainText("customers.mergeById");
  });

  test("a second staff member sees the same log (beta: its admin writes, Carol reads)", async ({ page, browser }) => {
    await installIn(page, BETA);
    await openInAdmin(page, "/settings", BETA.origin);
    expect(await consoleWrite(page, "PUT", "/api/preferences", { key: "attrLabels", value: { attr2: "Tier" } }, BETA.openAppId)).toBe(200);
    const context = await browser.newContext({ viewport: { width: 1024, height: 900 } });
    const carol = await context.newPage();
    await carol.goto(marketUrl(BETA.origin));
    await signIn(carol, "carol@beta.test");
    // Consent is per staff member on the platform: Carol's first open asks her, inside the frame.
    await carol.goto(adminOpenUrl("/audit", BETA.origin));
    const frame = carol.frameLocator(APP_FRAME);
    await frame.getByRole("button", { name: "Authorize" }).click();
    // Her consent lands the frame on the page asked for, signed in as her.
    await expect(frame.getByTestId("audit-table")).toBeVisible({ timeout: 30_000 });
    await expect(frame.getByText("Carol Clerk 陈洁").first()).toBeVisible();
    await expect(frame.getByTestId("audit-table")).toContainText("preferences.put", { timeout: 20_000 });
    await expect(frame.getByTestId("audit-table")).toContainText("Tier");
    await context.close();
  });

  test("the tenant's data is exported, then disconnect leaves nothing and the next Open asks to install again", async ({ page, request }) => {
    const frame = await openInAdmin(page, "/disconnect");
    await expect(frame.getByTestId("tenant-data")).toContainText("Audit log");
    const download = page.waitForEvent("download");
    await frame.getByTestId("tenant-export").click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.json$/);
    await frame.getByLabel("Type DISCONNECT to confirm").fill("DISCONNECT");
    await frame.getByTestId("tenant-disconnect").click();
    await expect(frame.getByTestId("disconnect-done")).toBeVisible({ timeout: 60_000 });
    await expectAccessible(page, { include: APP_FRAME, label: "disconnected" });
    await page.goto(`${ALPHA.origin}/application/mktapp/open?app=engage-console&path=${encodeURIComponent("/")}`);
    await expect(page.frameLocator(APP_FRAME).getByText("Install it again from the platform's marketplace")).toBeVisible({ timeout: 30_000 });

    // Installing again from the marketplace starts clean (and leaves alpha installed for the specs after this one).
    await resetSandbox(request);
    await installIn(page, ALPHA);
    const again = await openInAdmin(page, "/audit");
    await expect(again.getByTestId("audit-table")).not.toContainText("customers.update");
  });
});
