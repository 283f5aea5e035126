import { expect, test, type FrameLocator, type Page } from "@playwright/test";
import { e2eUrls } from "../scripts/testing/e2e-env";
import { expectAccessible } from "./support/a11y";
import { appFrame, customerIdsOnScreen as idsOnScreen, horizontalOverflow, openArea } from "./support/admin-frame";
import { platformCall, platformGet } from "./support/sandbox-api";
import { ALPHA } from "./support/sandbox-login";
import { attachScreenshot } from "./support/screenshots";
import { sandboxSuite } from "./support/suite";

/**
 * Bulk actions on the customers list through the real chain: sandbox marketplace → the console in
 * the admin's iframe → the app's proxy → the sandbox API. Selection across pages, add to a list
 * (listMembersBatch, §4.4), tag (addCustomerTag, §4.5), delete (§4.1) behind a confirmation, Stop,
 * and failures named in the summary. Every result is checked against the sandbox API.
 */

type Row = { id: string; [key: string]: unknown };
type Member = { id: string; customerId: string; listId: string };

const rowCheckbox = (frame: FrameLocator | Page, id: string) => frame.locator(`tbody tr[data-row-id="${id}"]`).getByRole("checkbox");
const names = (tags: string | null | undefined) => (tags ?? "").split(",").map((s) => s.trim()).filter(Boolean).sort();

test.describe.serial("bulk actions on the customers list through the sandbox", () => {
  // 75 customers: 4 pages of 20.
  const sandbox = sandboxSuite({ reset: { customers: 75 }, window: { width: 1024, height: 800 } });
  let listId: string;
  const listName = `Bulk ${Date.now()}`;

  const platformDelete = async (path: string) => (await platformCall("DELETE", path, sandbox.token)).status;
  const members = async () => ((await platformGet("/v1/listMembers", { listId, rows: "10000" }, sandbox.token)) as { items: Member[] }).items.map((m) => m.customerId);
  const tagsOf = async (ids: string[]) => (await platformGet("/v1/tagservice/getCustomerTags", { customerId: ids.join(",") }, sandbox.token)) as Record<string, string | null>;
  const customerExists = async (id: string) => (await platformCall("GET", `/v1/customers/${id}`, sandbox.token)).status !== 404;

  test.beforeAll(async () => {
    const created = await platformCall("POST", "/v1/lists", sandbox.token, { body: { name: listName } });
    expect(created.status).toBe(200);
    listId = String((created.json as Row).id);
  });

  test("select across two pages, add to a list, tag, delete two; results on the platform", async ({ page }) => {
    const frame = await openArea(page, "Customers");
    const page1 = ((await platformGet("/v1/customers", { rows: "20", select: "id" }, sandbox.token)) as { rows: Row[] }).rows.map((r) => r.id);
    const page2 = ((await platformGet("/v1/customers", { rows: "20", page: "2", select: "id" }, sandbox.token)) as { rows: Row[] }).rows.map((r) => r.id);
    await expect.poll(() => idsOnScreen(frame)).toEqual(page1);
    await expect(frame.getByTestId("bulk-toolbar")).toBeHidden();

    // Two rows of page 1: the header checkbox is indeterminate; each checkbox names its customer.
    for (const id of page1.slice(0, 2)) {
      await expect(rowCheckbox(frame, id)).toHaveAccessibleName(new RegExp(`^Select .*${id}\\)?$`));
      await rowCheckbox(frame, id).check();
    }
    await expect(frame.getByTestId("bulk-count")).toContainText("2 selected");
    const header = frame.getByTestId("select-page");
    await expect(header).toHaveAccessibleName("Select all customers on this page");
    await expect(header).not.toBeChecked();
    expect(await header.evaluate((el) => (el as HTMLInputElement).indeterminate)).toBe(true);

    // Page 2: the header checkbox selects the whole page; the keyboard (Space) deselects one row.
    await frame.getByRole("button", { name: "Next page" }).click();
    await expect.poll(() => idsOnScreen(frame)).toEqual(page2);
    await expect(header).not.toBeChecked();
    expect(await header.evaluate((el) => (el as HTMLInputElement).indeterminate)).toBe(false);
    await header.focus();
    await page.keyboard.press("Space");
    await expect(header).toBeChecked();
    await expect(frame.getByTestId("bulk-count")).toContainText("22 selected");
    await rowCheckbox(frame, page2[19]!).focus();
    await page.keyboard.press("Space");
    await expect(rowCheckbox(frame, page2[19]!)).not.toBeChecked();
    await expect(frame.getByTestId("bulk-count")).toContainText("21 selected");
    const selected = [...page1.slice(0, 2), ...page2.slice(0, 19)];

    // The selection survives a filter change and going back to page 1, and is not in the URL.
    await frame.getByRole("textbox", { name: "Source", exact: true }).fill("no-such-source-zz");
    await expect(frame.getByTestId("customers-no-results")).toBeVisible();
    await expect(frame.getByTestId("bulk-count")).toContainText("21 selected");
    await frame.getByTestId("customers-no-results").getByRole("button", { name: "Clear filters" }).click();
    await expect.poll(() => idsOnScreen(frame)).toEqual(page1);
    await expect(rowCheckbox(frame, page1[0]!)).toBeChecked();
    await expect(rowCheckbox(frame, page1[2]!)).not.toBeChecked();
    const consoleFrame = appFrame(page);
    expect(consoleFrame.url()).not.toContain(page1[0]!);

    // Add to list: a list must be chosen; then listMembersBatch adds all 21.
    await frame.getByRole("button", { name: "Add to list…" }).click();
    const listDialog = frame.getByRole("dialog", { name: "Add the selected customers to a list" });
    await expect(listDialog).toContainText("21 selected customers");
    await listDialog.getByRole("button", { name: "Add to list" }).click();
    await expect(listDialog.getByText("Choose a list.")).toBeVisible();
    await listDialog.getByRole("combobox", { name: "List" }).selectOption({ label: `${listName} (id ${listId})` });
    await listDialog.getByRole("button", { name: "Add to list" }).click();
    await expect(frame.getByTestId("bulk-summary")).toHaveText(`Added to “${listName}”: 21 added, 0 failed.`, { timeout: 20_000 });
    expect(new Set(await members())).toEqual(new Set(selected));
    await expect(frame.getByTestId("bulk-count")).toContainText("21 selected");

    // Tag: a name over 32 characters is refused before sending; then two names on every customer.
    await frame.getByRole("button", { name: "Tag…" }).click();
    const tagDialog = frame.getByRole("dialog", { name: "Tag the selected customers" });
    await tagDialog.getByRole("textbox", { name: "Tag names" }).fill(`ok, ${"x".repeat(33)}`);
    await tagDialog.getByRole("button", { name: "Add tags" }).click();
    await expect(tagDialog.getByText(`“${"x".repeat(33)}” is longer than 32 characters.`)).toBeVisible();
    expect(Object.values(await tagsOf(selected)).some((v) => v?.includes("ok"))).toBe(false);
    const tagsBefore = await tagsOf(selected);
    await tagDialog.getByRole("textbox", { name: "Tag names" }).fill("bulk-a，bulk-b");
    await tagDialog.getByRole("button", { name: "Add tags" }).click();
    await expect(frame.getByTestId("bulk-summary")).toHaveText("Tagged with bulk-a, bulk-b: 21 tagged, 0 failed.", { timeout: 20_000 });
    // Every customer has both, and keeps the tags it had (the seed tags some customers).
    const tags = await tagsOf(selected);
    for (const id of selected) expect(names(tags[id]), id).toEqual([...new Set([...names(tagsBefore[id]), "bulk-a", "bulk-b"])].sort());
    await attachScreenshot(page, "customers-bulk-selection-1024");
    // Fits the 1024 px iframe: no horizontal scrolling of the console's page.
    expect(await horizontalOverflow(consoleFrame)).toBeLessThanOrEqual(0);

    // Delete two: the confirmation says how many and that it cannot be undone; Cancel changes nothing.
    await frame.getByRole("button", { name: "Clear selection" }).click();
    await expect(frame.getByTestId("bulk-toolbar")).toBeHidden();
    const doomed = page1.slice(3, 5);
    for (const id of doomed) await rowCheckbox(frame, id).check();
    await frame.getByRole("button", { name: "Delete…" }).click();
    const confirm = frame.getByRole("alertdialog", { name: "Delete the selected customers?" });
    await expect(confirm).toContainText("2 customers will be deleted");
    await expect(confirm).toContainText("This cannot be undone.");
    await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    expect(await customerExists(doomed[0]!)).toBe(true);
    await frame.getByRole("button", { name: "Delete…" }).click();
    await attachScreenshot(page, "customers-bulk-delete-dialog");
    await confirm.getByRole("button", { name: "Delete 2 customers" }).click();
    await expect(frame.getByTestId("bulk-result")).toBeFocused();
    await expect(frame.getByTestId("bulk-summary")).toHaveText("2 deleted, 0 failed.", { timeout: 20_000 });
    for (const id of doomed) expect(await customerExists(id), id).toBe(false);
    expect(await platformGet("/v1/customers/count", {}, sandbox.token)).toBe(73);
    // Deleted customers leave the selection (nothing left: no toolbar) and the list.
    await expect(frame.getByTestId("bulk-toolbar")).toBeHidden();
    await expect.poll(() => idsOnScreen(frame)).not.toContain(doomed[0]);
    await expect(frame.getByText("73 customers")).toBeVisible();
  });

  test("Stop sends no new requests; a failure is named with the platform's reason", async ({ page }) => {
    const frame = await openArea(page, "Customers");
    const page1 = ((await platformGet("/v1/customers", { rows: "20", select: "id" }, sandbox.token)) as { rows: Row[] }).rows.map((r) => r.id);
    await expect.poll(() => idsOnScreen(frame)).toEqual(page1);

    // Slow tag calls, so Stop lands while the run is going.
    let sent = 0;
    await page.route("**/api/platform/**", async (route) => {
      if (route.request().url().includes("addCustomerTag")) {
        sent += 1;
        await new Promise((r) => setTimeout(r, 400));
      }
      await route.continue();
    });
    await frame.getByTestId("select-page").check();
    await frame.getByRole("button", { name: "Tag…" }).click();
    await frame.getByRole("textbox", { name: "Tag names" }).fill("stopped");
    await frame.getByRole("button", { name: "Add tags" }).click();
    await expect(frame.getByTestId("bulk-summary")).toContainText("Tagging…");
    await frame.getByRole("button", { name: "Stop" }).click();
    await expect(frame.getByTestId("bulk-summary")).toContainText("Tagged with stopped:", { timeout: 20_000 });
    const summary = (await frame.getByTestId("bulk-summary").textContent())!;
    const tagged = Number(/(\d+) tagged/.exec(summary)![1]);
    expect(tagged).toBeLessThan(20);
    expect(tagged).toBe(sent);
    await expect(frame.getByTestId("bulk-not-started")).toContainText(`Stopped before ${20 - tagged} customers`);
    const onPlatform = Object.values(await tagsOf(page1)).filter((v) => v?.includes("stopped")).length;
    expect(onPlatform).toBe(tagged);
    await page.unroute("**/api/platform/**");

    // A customer deleted elsewhere after it was selected: its call fails, the others go through.
    await frame.getByRole("button", { name: "Clear selection" }).click();
    const [gone, kept] = [page1[5]!, page1[6]!];
    await rowCheckbox(frame, gone).check();
    await rowCheckbox(frame, kept).check();
    expect(await platformDelete(`/v1/customers/${gone}`)).toBeLessThan(300);
    await frame.getByRole("button", { name: "Tag…" }).click();
    await frame.getByRole("textbox", { name: "Tag names" }).fill("late");
    await frame.getByRole("button", { name: "Add tags" }).click();
    await expect(frame.getByTestId("bulk-summary")).toHaveText("Tagged with late: 1 tagged, 1 failed.", { timeout: 20_000 });
    await expect(frame.getByTestId("bulk-failed")).toContainText(gone);
    await expect(frame.getByTestId("bulk-failed")).toContainText(`Not found. customer ${gone} not found`);
    await attachScreenshot(page, "customers-bulk-failure-summary");
    expect((await tagsOf([kept]))[kept]).toContain("late");
  });

  test("axe finds nothing with a selection, a summary and each dialog open, in both languages", async ({ page }) => {
    const open = async (locale: "en" | "zh-CN") => {
      await page.goto(`${e2eUrls.app}/customers?openAppId=${ALPHA.openAppId}`);
      if (locale === "zh-CN") await page.getByLabel(/Language|语言/).first().selectOption("zh-CN");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(locale === "en" ? "Customers" : "客户", { timeout: 20_000 });
      await page.locator("tbody tr").first().getByRole("checkbox").check();
      await page.locator("tbody tr").nth(1).getByRole("checkbox").check();
      await expect(page.getByTestId("bulk-toolbar")).toBeVisible();
    };
    const check = async (name: string) => {
      await expectAccessible(page, { label: name });
      await attachScreenshot(page, name);
    };
    for (const locale of ["en", "zh-CN"] as const) {
      const zh = locale === "zh-CN";
      // A selection and a finished run's summary (with one failure: an id that no longer exists).
      await open(locale);
      const firstId = (await page.locator("tbody tr[data-row-id]").first().getAttribute("data-row-id"))!;
      expect(await platformDelete(`/v1/customers/${firstId}`)).toBeLessThan(300);
      await page.getByRole("button", { name: zh ? "打标签…" : "Tag…" }).click();
      await page.getByRole("dialog").getByRole("textbox").fill("axe");
      await page.getByRole("dialog").getByRole("button", { name: zh ? "添加标签" : "Add tags" }).click();
      await expect(page.getByTestId("bulk-failed")).toBeVisible({ timeout: 20_000 });
      await check(`customers-bulk-summary-${locale}`);
      for (const [button, role] of [[zh ? "加入列表…" : "Add to list…", "dialog"], [zh ? "打标签…" : "Tag…", "dialog"], [zh ? "删除…" : "Delete…", "alertdialog"]] as const) {
        await open(locale);
        await page.getByRole("button", { name: button }).click();
        await expect(page.getByRole(role)).toBeVisible();
        if (button.startsWith("Add") || button.startsWith("加入")) await expect(page.getByRole("dialog").getByRole("combobox")).toBeVisible();
        await check(`customers-bulk-${role}-${button.replace(/[…]/g, "")}-${locale}`);
      }
    }
  });
});
