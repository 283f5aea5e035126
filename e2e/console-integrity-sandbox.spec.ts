import { expect, test } from "@playwright/test";
import { e2eUrls } from "../scripts/testing/e2e-env";
import { expectAccessible } from "./support/a11y";
import { APP_FRAME, appFrame, appUrl, openArea } from "./support/admin-frame";
import { platformGet, platformSend } from "./support/sandbox-api";

import { ALPHA } from "./support/sandbox-login";
import { sandboxSuite } from "./support/suite";

/**
 * The console's integrity, as staff meet it: the console in the sandbox admin's 1024-px iframe,
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
    for (const text of ["已登录", "租户", "用户", "环境"]) await expect(frame.getByText(text, { exact: true })).toBeVisible();
    await expect(frame.getByRole("button", { name: "退出登录", exact: true })).toBeVisible();
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

  test("unsaved edits: the side navigation and the back button ask first, and staying keeps the edits", async ({ page }) => {
    const id = ((await platformGet("/v1/customers", { rows: "1", select: "id" }, sandbox.token)) as { rows: Row[] }).rows[0]!.id;
    await openArea(page, "Customers");
    const frame = appFrame(page);
    await frame.goto(appUrl(`/customers/${id}`));
    await frame.goto(appUrl(`/customers/${id}/edit`));
    const company = frame.getByLabel("Company", { exact: true });
    await company.fill(`Unsaved ${Date.now()}`);
    const typed = await company.inputValue();

    const asked: string[] = [];
    let answer = false;
    page.on("dialog", (dialog) => {
      asked.push(dialog.message());
      void (answer ? dialog.accept() : dialog.dismiss());
    });
    // Side navigation, declined: still on the form with the edits.
    await frame.getByRole("navigation").getByRole("link", { name: "Lists", exact: true }).click();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toBe("You have unsaved changes on this page. Leave it and lose them?");
    await expect(company).toHaveValue(typed);
    expect(frame.url()).toContain(`/customers/${id}/edit`);

    // Back, declined: the form stays.
    await frame.evaluate(() => history.back());
    await expect.poll(() => asked.length).toBe(2);
    await expect(company).toHaveValue(typed);
    await expect.poll(() => frame.url()).toContain(`/customers/${id}/edit`);

    // Accepted: it leaves.
    answer = true;
    await frame.getByRole("navigation").getByRole("link", { name: "Lists", exact: true }).click();
    await expect(frame.getByRole("heading", { level: 1, name: "Lists" })).toBeVisible();
    expect(asked).toHaveLength(3);
  });

  test("a plain tab without openAppId: a page that says how to choose, not a dead end", async ({ page }) => {
    await page.goto(`${e2eUrls.app}/api/auth/start?returnTo=%2Fcustomers`);
    await expect(page).toHaveURL(/\/\?chooseEnvironment=1&returnTo=%2Fcustomers/);
    await expect(page.getByRole("heading", { level: 2, name: "Which installation?" })).toBeVisible();
    await expect(page.getByTestId("choose-environment")).toContainText("open Engage Console from its marketplace");
    await expectAccessible(page, { label: "chooser" });
    // Signed in at the top level (a plain tab's own cookie), the app knows the installation again.
    await page.goto(`${e2eUrls.app}/api/auth/start?openAppId=${ALPHA.openAppId}`);
    await expect(page.getByTestId("tenant")).toBeVisible({ timeout: 20_000 });
    await page.goto(`${e2eUrls.app}/customers`);
    await expect(page.getByRole("heading", { level: 1, name: "Customers" })).toBeVisible();
  });

  test("Activity: in the navigation, a burst folded into one row that opens, paging past 50, filters by resource and time", async ({ page, request }) => {
    const stamp = Date.now();
    const send = async (change: Record<string, unknown>) => {
      const res = await request.post(`${ALPHA.origin}/__sandbox/webhooks/send`, { data: { environment: "alpha", ...change } });
      expect(res.status()).toBe(202);
      return ((await res.json()) as { queued: string[] }).queued[0]!;
    };
    const ids: string[] = [];
    for (let i = 0; i < 55; i++) ids.push(await send({ resource: "tag", action: "created", id: `${stamp}${i}` }));
    ids.push(await send({ resource: "order", action: "cancelled", id: `SO${stamp}` }));
    await expect
      .poll(async () => {
        const { deliveries } = (await (await request.get(`${ALPHA.origin}/__sandbox/webhooks/deliveries`)).json()) as { deliveries: Array<{ id: string; status: string }> };
        return ids.filter((id) => deliveries.find((d) => d.id === id)?.status === "delivered").length;
      }, { timeout: 60_000 })
      .toBe(56);

    const frame = await openArea(page, "Customers");
    await frame.getByRole("navigation").getByRole("link", { name: "Activity", exact: true }).click();
    await expect(frame.getByRole("heading", { level: 1, name: "Activity" })).toBeVisible();
    const table = frame.getByTestId("activity-table");
    await expect(table.getByRole("link", { name: `order SO${stamp}` })).toBeVisible();
    const burst = frame.getByTestId("activity-burst").first();
    // Deliveries arrive in any order: the burst holds the tag.created run around the order's row.
    await expect(burst).toContainText(/\d+ deliveries of tag\.created in a burst/);
    const inBurst = Number(/(\d+) deliveries of tag\.created/.exec((await burst.textContent()) ?? "")![1]);
    expect(inBurst).toBeGreaterThanOrEqual(10);
    await expect(burst.getByRole("row")).toHaveCount(1);
    await burst.getByText("Show them").click();
    await expect(burst.locator("details table tbody tr")).toHaveCount(inBurst);
    await expectAccessible(page, { include: APP_FRAME, label: "activity" });

    const older = await frame.getByTestId("activity-older").getAttribute("href");
    expect(older).toMatch(/before=\d+/);
    await appFrame(page).goto(new URL(older!, appFrame(page).url()).toString());
    await expect(frame.getByRole("link", { name: "Back to the newest" })).toBeVisible({ timeout: 20_000 });
    await expect(frame.getByTestId("activity-table")).toContainText("tag.created");
    await expect(frame.getByTestId("activity-table").getByRole("link", { name: `order SO${stamp}` })).toHaveCount(0);

    await frame.getByRole("link", { name: "Back to the newest" }).click();
    await frame.getByLabel("Resource").selectOption("order");
    await frame.getByRole("button", { name: "Apply filters" }).click();
    await expect(frame.getByTestId("activity-table").getByRole("link", { name: `order SO${stamp}` })).toBeVisible();
    await expect(frame.getByTestId("activity-table")).not.toContainText("tag.created");
    await frame.getByLabel("Received from (UTC+8)").fill("2099-01-01 00:00");
    await frame.getByRole("button", { name: "Apply filters" }).click();
    await expect(frame.getByText("No delivery matches these filters.")).toBeVisible();
  });

  test("the customers table fits the admin's 1024-px iframe with its default columns, Created and Updated in view", async ({ page }) => {
    await openArea(page, "Customers");
    const frame = appFrame(page);
    await expect(frame.locator("tbody tr").first()).toBeVisible();
    const fit = await frame.evaluate(() => {
      const table = document.querySelector("table")!;
      const pane = table.parentElement!;
      return { table: table.scrollWidth, pane: pane.clientWidth, page: document.documentElement.scrollWidth - document.documentElement.clientWidth };
    });
    expect(fit.table, `table ${fit.table} px in a ${fit.pane} px pane`).toBeLessThanOrEqual(fit.pane);
    expect(fit.page).toBe(0);
    for (const name of ["Created", "Updated"]) {
      const header = frame.locator("th").filter({ hasText: name }).first();
      await expect(header).toBeInViewport();
    }
  });
});
