import { expect, test, type FrameLocator, type Page } from "@playwright/test";
import { adminOpenUrl, APP_FRAME, customerIdsOnScreen, openInAdmin } from "./support/admin-frame";
import { platformCall, resetSandbox, sandboxToken } from "./support/sandbox-api";
import { ALPHA, BETA, installIn } from "./support/sandbox-login";
import { expectAccessible } from "./support/a11y";
import { attachScreenshot } from "./support/screenshots";
import { fillOrderLine } from "./support/order-form";

/**
 * The console's core path on beta, which answers as the real platform does (the sandbox's
 * `observed` profile, docs/decisions/real-platform-answers.md): install (users/current in the `tid` shape, `error_code: 0` on the
 * token), customers list (`{records, rows, total}`) and page (extra fields under "Other fields"),
 * edit with a field error, create with a C0002 field error, a deleted customer (HTTP 500 40201), an
 * expired and a superseded token (HTTP 200 + error_code), an order (201, money as 59.000000) and an
 * event import. Beta keeps one active token per app and tenant: every side-door call here takes a
 * fresh token, which supersedes the app's (the app must recover without a visible error).
 */

type Row = Record<string, unknown>;

/** A call on beta's platform API with a token of its own (issued just now). */
async function betaCall(method: string, path: string, options: { query?: Record<string, string>; body?: unknown } = {}) {
  return platformCall(method, path, await sandboxToken(BETA.origin, BETA.environment), { ...options, origin: BETA.origin });
}

/** The console's reauthorization prompt, or an error with Retry: what a person must not see after a token was replaced. */
async function expectNoVisibleError(frame: FrameLocator) {
  await expect(frame.getByRole("button", { name: "Authorize again" })).toHaveCount(0);
  await expect(frame.getByRole("button", { name: "Retry" })).toHaveCount(0);
}

async function openCustomer(page: Page, id: string): Promise<FrameLocator> {
  const frame = await openInAdmin(page, `/customers/${id}`, BETA.origin);
  await expect(frame.getByRole("link", { name: "Edit", exact: true })).toBeVisible();
  return frame;
}

test.describe.serial("the console on beta (the real platform's behaviour)", () => {
  let seeded: string[] = [];

  test.beforeAll(async ({ request }) => {
    await resetSandbox(request, { customers: 30 });
    const health = await (await fetch(`${BETA.origin}/health`)).json();
    expect(health).toMatchObject({ profile: "observed" });
    expect(await (await fetch(`${ALPHA.origin}/health`)).json()).toMatchObject({ profile: "spec" });
  });

  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 900 });
    await installIn(page, BETA);
  });

  test("install → customers list → a customer's page shows the platform's extra fields under Other fields", async ({ page }) => {
    const frame = await openInAdmin(page, "/customers", BETA.origin);
    await expect(frame.getByText("Beta Foods 贝塔食品").first()).toBeVisible();
    await expect.poll(async () => (await customerIdsOnScreen(frame)).length).toBeGreaterThan(3);
    seeded = await customerIdsOnScreen(frame);
    const customer = await openCustomer(page, seeded[0]!);
    const other = customer.getByRole("region", { name: "Other fields" });
    await expect(other).toContainText("externalId");
    await expect(other).toContainText("crm-");
    await expect(other).toContainText("membershipLevel");
    await attachScreenshot(page, "beta-other-fields");
    // axe last: after an axe run inside the frame the page is not driven any further.
    await expectAccessible(page, { include: APP_FRAME });
  });

  test("edit: a platform field error lands on its field; a valid edit saves and keeps the other fields", async ({ page }) => {
    const id = seeded[1]!;
    const before = (await betaCall("GET", `/v1/customers/${id}`)).json as Row;
    const frame = await openCustomer(page, id);
    await frame.getByRole("link", { name: "Edit", exact: true }).click();
    const mobile = frame.getByRole("textbox", { name: "Mobile", exact: true });
    await expect(mobile).toBeVisible({ timeout: 20_000 });
    await frame.getByRole("textbox", { name: "Full name", exact: true }).fill("Beta Edited");
    await mobile.fill("12-ab");
    await frame.getByRole("button", { name: "Save changes" }).click();
    await expect(mobile).toHaveAttribute("aria-invalid", "true");
    await mobile.fill(String(before.mobile ?? ""));
    await frame.getByRole("button", { name: "Save changes" }).click();
    await expect(frame.getByRole("heading", { level: 1 })).toHaveText("Beta Edited");
    await expect(frame.getByRole("region", { name: "Other fields" })).toContainText(String(before.externalId));
    const after = (await betaCall("GET", `/v1/customers/${id}`)).json as Row;
    expect(after).toMatchObject({ name: "Beta Edited", externalId: before.externalId, membershipLevel: before.membershipLevel });
  });

  test("create: the C0002 field error (JSON text in its message) lands on its field", async ({ page }) => {
    const frame = await openInAdmin(page, "/customers", BETA.origin);
    await frame.getByTestId("new-customer").click();
    await expect(frame.getByRole("heading", { level: 1, name: "New customer" })).toBeVisible({ timeout: 20_000 });
    const mobile = frame.getByRole("textbox", { name: "Mobile", exact: true });
    await frame.getByRole("textbox", { name: "Full name", exact: true }).fill("C0002 Case");
    await mobile.fill("12-ab");
    await frame.getByLabel("Identity 1: type").selectOption("custom");
    await frame.getByLabel("Identity 1: custom type name").fill("crm-beta");
    await frame.getByLabel("Identity 1: value").fill(`B-${Date.now().toString(36)}`);
    await frame.getByRole("button", { name: "Create customer" }).click();
    await expect(mobile).toHaveAttribute("aria-invalid", "true");
    await expect(frame.getByText("mobile must be digits, or +<country code> <number>").first()).toBeVisible();
    await attachScreenshot(page, "beta-c0002-field-error");
  });

  test("a deleted customer (HTTP 500 40201) shows not found, without Retry; the superseded token recovers unseen", async ({ page }) => {
    const id = seeded[2]!;
    // Also supersedes the app's token (one active token per app and tenant).
    expect((await betaCall("DELETE", `/v1/customers/${id}`)).status).toBe(204);
    // Not openInAdmin: the not-found view has no level-1 heading to wait for.
    await page.goto(adminOpenUrl(`/customers/${id}`, BETA.origin));
    const frame = page.frameLocator(APP_FRAME);
    await expect(frame.getByText("Customer not found: it was deleted, or merged into another customer.")).toBeVisible({ timeout: 20_000 });
    await expect(frame.getByRole("button", { name: "Retry" })).toHaveCount(0);
    await frame.getByRole("link", { name: /Back/ }).click();
    await expect.poll(async () => (await customerIdsOnScreen(frame)).length).toBeGreaterThan(3);
    await expectNoVisibleError(frame);
  });

  test("an expired token mid-session, then a superseded one: the console goes on without a visible error", async ({ page, request }) => {
    const frame = await openInAdmin(page, "/customers", BETA.origin);
    await expect.poll(async () => (await customerIdsOnScreen(frame)).length).toBeGreaterThan(3);
    const refreshes = async () => ((await (await request.get(`${ALPHA.origin}/__sandbox/stats`)).json()) as { tokenGrants: Record<string, number> }).tokenGrants.refresh_token ?? 0;
    const before = await refreshes();
    // The sandbox's clock passes the token's 2 hours (the app's own clock does not move).
    expect((await request.post(`${ALPHA.origin}/__sandbox/clock`, { data: { advanceSeconds: 7300 } })).ok()).toBe(true);
    await frame.locator("tbody tr").first().getByRole("link").first().click();
    await expect(frame.getByRole("link", { name: "Edit", exact: true })).toBeVisible();
    await expectNoVisibleError(frame);
    const afterExpiry = await refreshes();
    expect(afterExpiry).toBeGreaterThan(before);
    // Someone else's new token ends the app's; the next customer opened (not cached) needs the platform.
    await sandboxToken(BETA.origin, BETA.environment);
    await frame.getByRole("link", { name: /Back/ }).click();
    await expect.poll(async () => (await customerIdsOnScreen(frame)).length).toBeGreaterThan(3);
    await frame.locator("tbody tr").nth(3).getByRole("link").first().click();
    await expect(frame.getByRole("link", { name: "Edit", exact: true })).toBeVisible();
    await expectNoVisibleError(frame);
    expect(await refreshes()).toBeGreaterThan(afterExpiry);
  });

  test("an order: created (HTTP 201) and shown with its amounts (59.000000 on the wire)", async ({ page }) => {
    const orderNo = `BETA-${Date.now().toString(36)}`;
    const frame = await openInAdmin(page, "/orders/new", BETA.origin);
    await expect(frame.getByRole("heading", { level: 1, name: "New order" })).toBeVisible({ timeout: 20_000 });
    await frame.getByRole("textbox", { name: "Order number *" }).fill(orderNo);
    const when = new Date(Date.now() - 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 16);
    await frame.getByLabel("Paid at (UTC+8) *").fill(when);
    await frame.getByRole("combobox", { name: /^Customer id/ }).fill(seeded[3]!);
    await frame.getByRole("textbox", { name: "Paid amount *" }).fill("59");
    await fillOrderLine(frame, 0, { product: "杯子", quantity: "1", unitPrice: "59" });
    await frame.getByRole("button", { name: "Create order" }).click();
    await expect(frame.getByRole("heading", { level: 1, name: `Order ${orderNo}`, exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(frame.getByText("59.00").first()).toBeVisible();
    const stored = (await betaCall("GET", "/v1/dealService/getDealByOrderNo", { query: { orderNo } })).json as Row;
    expect(stored).toMatchObject({ orderNo, amountPaid: 59 });
  });

  test("an event import (a background task) through batchPushEvents", async ({ page }) => {
    const stamp = Date.now().toString(36);
    const home = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace("T", " ");
    const base = Date.now() - 86_400_000;
    const csv = ["identityType,identityValue,event,date,targetName", ...[0, 1, 2].map((i) => `crm-beta,IMP-${stamp},open_page,${home(base + i * 1000)},page ${i}`)].join("\r\n");
    const frame = await openInAdmin(page, "/events", BETA.origin);
    await frame.getByTestId("events-file").setInputFiles({ name: "events.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await expect(frame.getByTestId("events-preview").locator("tbody tr")).toHaveCount(3);
    await frame.getByTestId("events-start").click();
    const task = frame.getByTestId("events-import-tasks").getByTestId("task-row").first();
    await expect(task).toHaveAttribute("data-state", "done", { timeout: 30_000 });
    await expect(task).toContainText("3 events sent, 0 failed");
    const owner = (await betaCall("GET", "/v1/customeridentities", { query: { identityType: "crm-beta", identityValue: `IMP-${stamp}` } })).json as { customerId: string }[];
    expect(owner).toHaveLength(1);
  });
});
