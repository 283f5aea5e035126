import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/a11y";
import { APP_FRAME, appFrame, appUrl, openArea } from "./support/admin-frame";
import { platformGet, platformSend } from "./support/sandbox-api";

import { ALPHA } from "./support/sandbox-login";
import { sandboxSuite } from "./support/suite";

/**
 * Issue 17 (console half), as staff meet it: the console in the sandbox admin's 1024-px iframe,
 * results checked against the sandbox API. Each test fails if its point comes back.
 */

type Row = { id: string; [key: string]: unknown };

test.describe.serial("console integrity in the admin's iframe", () => {
  const sandbox = sandboxSuite({ reset: { customers: 60 }, window: { width: 1024, height: 800 } });

  test("times: one format per language, typed in either, no browser datetime-local; messages with a number read right for 1 and many", async ({ page }) => {
    const lists = ((await platformGet("/v1/lists", { rows: "5" }, sandbox.token)) as { rows: Row[] }).rows;
    const customer = ((await platformGet("/v1/customers", { rows: "1", select: "id" }, sandbox.token)) as { rows: Row[] }).rows[0]!.id;
    await openArea(page, "Lists");
    const frame = appFrame(page);
    await frame.goto(appUrl(`/lists/${lists[0]!.id}`));

    // Plurals by ICU rules (issue: "1 values are not ids", "1 duplicates left out").
    await frame.locator('textarea[name="ids"]').fill(`${customer}\n${customer}\nnot-an-id`);
    await expect(frame.getByTestId("ids-summary")).toContainText("1 valid id · 1 duplicate left out · 1 value is not an id and will not be sent");
    await frame.locator('textarea[name="ids"]').fill(`${customer}\n${customer}\n${customer}\nx\ny`);
    await expect(frame.getByTestId("ids-summary")).toContainText("1 valid id · 2 duplicates left out · 2 values are not ids and will not be sent");

    // No browser-rendered picker (it showed 11/23/2026, 08:15:00 PM in both languages).
    expect(await frame.locator('input[type="datetime-local"]').count()).toBe(0);
    const from = frame.getByLabel("Joined from (UTC+8)");
    await from.fill("2000-01-01T08:00");
    await expect(frame.getByTestId("member-count-range")).toBeVisible();
    await from.press("Tab");
    await expect(from).toHaveValue("2000-01-01 08:00:00");
    await expect(frame.getByText("Format: 2026-11-23 20:15:00, UTC+8 (seconds optional).").first()).toBeVisible();
    await from.fill("2000-02-30 08:00");
    await expect(from).toHaveAttribute("aria-invalid", "true");

    // Chinese: the same value in the Chinese format; a time typed the Chinese way is read.
    await from.fill("2000-01-01 08:00");
    await from.press("Tab");
    await frame.getByLabel("Language").selectOption("zh-CN");
    const zhFrom = frame.getByLabel("加入时间起（UTC+8）");
    await expect(zhFrom).toHaveValue("2000年1月1日 08:00:00");
    await expect(frame.getByTestId("ids-summary")).toContainText("有效 ID 1 个 · 已忽略重复 2 个 · 2 个值不是 ID，不会发送");
    await zhFrom.fill("2099年1月1日 08:00");
    await expect(frame.getByTestId("member-count-range")).toHaveText("此时间段内加入的成员：0 位");
    expect(await platformGet("/v1/listservice/memberCount", { listId: lists[0]!.id, joinListDateSince: "2099-01-01T00:00:00" }, sandbox.token)).toBe(0);
    await expectAccessible(page, { include: APP_FRAME, label: "list detail zh-CN" });
    await frame.getByLabel("语言").selectOption("en");

    // Every time input of the console is the DateTimeField: the new order's date, the customers' filters.
    await frame.goto(appUrl("/orders/new"));
    await expect(frame.locator("[data-datetime-field]").first()).toBeVisible();
    expect(await frame.locator('input[type="datetime-local"]').count()).toBe(0);
    await frame.goto(appUrl("/customers"));
    await frame.getByRole("button", { name: "More filters" }).click();
    await expect(frame.getByLabel("Created from (UTC+8)")).toBeVisible();
    expect(await frame.locator('input[type="datetime-local"]').count()).toBe(0);
  });

  test("a changed email is no longer verified: the box unticks, says why, and the platform stores it unverified", async ({ page }) => {
    const id = ((await platformGet("/v1/customers", { rows: "1", select: "id" }, sandbox.token)) as { rows: Row[] }).rows[0]!.id;
    await platformSend("PUT", `/v1/customers/${id}`, { email: `verified-${Date.now()}@alpha.test`, emailVerified: true }, sandbox.token);
    await openArea(page, "Customers");
    const frame = appFrame(page);
    await frame.goto(appUrl(`/customers/${id}/edit`));
    const box = frame.getByLabel("Email verified");
    await expect(box).toBeChecked();
    await frame.getByLabel("Email", { exact: true }).fill(`changed-${Date.now()}@alpha.test`);
    await expect(box).not.toBeChecked();
    await expect(frame.getByText("Unticked because the email changed")).toBeVisible();
    await frame.getByRole("button", { name: "Save changes" }).click();
    await expect(frame.getByText("Changes saved.")).toBeVisible();
    const stored = (await platformGet(`/v1/customers/${id}`, {}, sandbox.token)) as Record<string, unknown>;
    expect(String(stored.email)).toMatch(/^changed-/);
    expect(stored.emailVerified).toBe(false);
  });

  test("an injected 503 reads as 'unavailable, try again', not as a timeout", async ({ page, request }) => {
    await openArea(page, "Tags");
    const frame = appFrame(page);
    const faults = (list: unknown[]) => request.post(`${ALPHA.origin}/__sandbox/faults`, { data: { faults: list } });
    expect((await faults([{ path: "/v1/customers", errorRate: 1, status: 503, retryAfterSeconds: 0 }])).ok()).toBe(true);
    try {
      await frame.goto(appUrl("/customers"));
      const alert = frame.getByRole("alert").filter({ hasText: "unavailable right now" });
      await expect(alert).toContainText("The platform is unavailable right now (it answered with an error). Try again in a moment.", { timeout: 30_000 });
      await expect(alert).not.toContainText("in time");
    } finally {
      await faults([]);
    }
  });

  test("Chinese home page, and a 404 inside the console's frame in both languages", async ({ page }) => {
    await openArea(page, "Customers");
    const frame = appFrame(page);
    await frame.goto(appUrl("/"));
    await expect(frame.getByTestId("tenant")).toBeVisible();
    await frame.getByLabel("Language").selectOption("zh-CN");
    await expect(frame.getByRole("heading", { level: 1, name: "Engage 控制台" })).toBeVisible();
    for (const text of ["已登录", "租户", "用户", "环境"]) await expect(frame.getByText(text, { exact: true })).toBeVisible();
    await expect(frame.getByRole("button", { name: "退出登录" })).toBeVisible();
    await expectAccessible(page, { include: APP_FRAME, label: "home zh-CN" });

    const response = await frame.goto(appUrl("/no-such-page/at-all"));
    expect(response?.status()).toBe(404);
    await expect(frame.getByRole("heading", { level: 1, name: "页面不存在" })).toBeVisible();
    await expect(frame.getByRole("navigation").getByRole("link", { name: "客户", exact: true })).toBeVisible();
    await expectAccessible(page, { include: APP_FRAME, label: "404 zh-CN" });
    await frame.getByLabel("语言").selectOption("en");
    await expect(frame.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await frame.getByRole("link", { name: "Go to customers" }).click();
    await expect(frame.getByRole("heading", { level: 1, name: "Customers" })).toBeVisible();
  });
});
