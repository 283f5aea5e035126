import { expect, test, type FrameLocator } from "@playwright/test";
import { e2eUrls } from "../scripts/testing/e2e-env";
import { expectAccessible } from "./support/a11y";
import { appFrame, horizontalOverflow, openArea } from "./support/admin-frame";
import { platformGet } from "./support/sandbox-api";
import { ALPHA } from "./support/sandbox-login";
import { attachScreenshot } from "./support/screenshots";
import { sandboxSuite } from "./support/suite";

/**
 * The Lists area through the real chain: sandbox marketplace → the console in the admin's iframe →
 * the app's proxy → the sandbox API (§4.4). Every result is checked against the sandbox API.
 */

type Row = { id: string; [key: string]: unknown };
type Member = { id: string; customerId: string; listId: string };

/** The members' customer ids on screen (each cell also names the customer when the index knows it). */
const memberIdsOnScreen = async (frame: FrameLocator) =>
  frame.getByTestId("members-table").locator("tbody tr [data-customer-id]").evaluateAll((cells) => cells.map((c) => c.getAttribute("data-customer-id") ?? ""));

test.describe.serial("lists through the sandbox", () => {
  const sandbox = sandboxSuite({ reset: { customers: 75 }, window: { width: 1280, height: 900 } });
  let customers: string[];
  const listName = `VIP ${Date.now()}`;

  const members = async (listId: string, query: Record<string, string> = {}) =>
    ((await platformGet("/v1/listMembers", { listId, rows: "10000", ...query }, sandbox.token)) as { items: Member[] }).items;
  const lists = async () => ((await platformGet("/v1/lists", { rows: "100" }, sandbox.token)) as { rows: Row[] }).rows;

  test.beforeAll(async () => {
    customers = ((await platformGet("/v1/customers", { rows: "75", select: "id" }, sandbox.token)) as { rows: Row[] }).rows.map((r) => r.id);
    expect(customers).toHaveLength(75);
    expect(BigInt(customers[0]!) > 2n ** 53n).toBe(true);
  });

  test("create, add one and many, count, page both ways, remove one and many, delete", async ({ page }) => {
    const frame = await openArea(page, "Lists");
    // The seed creates some lists: the page shows what the platform has.
    const before = await lists();
    await expect(frame.getByText(`${before.length} lists`)).toBeVisible();
    await expect.poll(async () => (await frame.getByTestId("lists-table").locator("tbody tr td:first-child").allTextContents()).map((s) => s.trim())).toEqual(before.map((l) => l.id));

    // Create: the name is required (checked before sending), then created on the platform.
    await frame.getByRole("button", { name: "New list" }).click();
    const dialog = frame.getByRole("dialog", { name: "New list" });
    await dialog.getByRole("button", { name: "Create list" }).click();
    await expect(dialog.getByText("Enter a name.")).toBeVisible();
    await dialog.getByRole("textbox", { name: "Name" }).fill("x".repeat(256));
    await expect(dialog.getByText("A list name is at most 255 characters.")).toBeVisible();
    await dialog.getByRole("textbox", { name: "Name" }).fill(listName);
    await dialog.getByRole("button", { name: "Create list" }).click();
    await expect(frame.getByRole("link", { name: listName })).toBeVisible();
    const created = (await lists()).find((l) => l.name === listName);
    expect(created).toBeDefined();
    const listId = created!.id;
    await expect(frame.getByTestId("lists-table").getByText(listId)).toBeVisible();
    await attachScreenshot(page, "lists-index");

    // The list page.
    await frame.getByRole("link", { name: listName }).click();
    await expect(frame.getByRole("heading", { level: 1, name: listName })).toBeVisible();
    await expect(frame.getByTestId("members-empty")).toBeVisible();

    // Add one (an id above 2^53, exact).
    await frame.getByRole("combobox", { name: "Customer id", exact: true }).fill(customers[0]!);
    await frame.getByRole("button", { name: "Add to list", exact: true }).click();
    await expect.poll(async () => (await members(listId)).map((m) => m.customerId)).toEqual([customers[0]]);
    // Text that is no id is a search, not a customer: nothing is sent until one is picked.
    await frame.getByRole("combobox", { name: "Customer id", exact: true }).fill("12ab");
    await frame.getByRole("button", { name: "Add to list", exact: true }).click();
    await expect(frame.getByText("Enter a customer id.")).toBeVisible();

    // Add many by paste: 30 customers, one id that is no customer, one value that is no id.
    const pasted = [...customers.slice(1, 31), "123", "abc"].join("\n");
    await frame.getByRole("textbox", { name: "Customer ids" }).fill(pasted);
    await expect(frame.getByTestId("ids-summary")).toContainText("31 valid ids");
    await expect(frame.getByTestId("ids-summary")).toContainText("1 value is not an id and will not be sent");
    await frame.getByRole("button", { name: "Add 31 to list" }).click();
    await expect(frame.getByTestId("batch-result")).toContainText("Finished 31 of 31: 30 added, 1 failed.", { timeout: 20_000 });
    await expect(frame.getByTestId("batch-failed")).toContainText("123");
    await expect(frame.getByTestId("batch-failed")).toContainText("customer 123 not found");
    await expect.poll(async () => (await members(listId)).length).toBe(31);

    // Add many by file upload (a CSV with a header).
    const csv = ["customerId", ...customers.slice(31, 45)].join("\r\n");
    await frame.getByTestId("ids-file").setInputFiles({ name: "ids.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await expect(frame.getByTestId("ids-summary")).toContainText("14 valid ids");
    await frame.getByRole("button", { name: "Add 14 to list" }).click();
    await expect(frame.getByTestId("batch-result")).toContainText("Finished 14 of 14: 14 added, 0 failed.", { timeout: 20_000 });
    const all = await members(listId);
    expect(all).toHaveLength(45);
    expect(new Set(all.map((m) => m.customerId))).toEqual(new Set(customers.slice(0, 45)));

    // Count, and a joined-date range typed in UTC+8 (sent in UTC).
    await expect(frame.getByTestId("member-count")).toHaveText("45 members in this list");
    expect(await platformGet("/v1/listservice/memberCount", { listId }, sandbox.token)).toBe(45);
    await frame.getByLabel("Joined from (UTC+8)").fill("2000-01-01T08:00:00");
    const since2000 = await platformGet("/v1/listservice/memberCount", { listId, joinListDateSince: "2000-01-01T00:00:00" }, sandbox.token);
    await expect(frame.getByTestId("member-count-range")).toHaveText(`${since2000} members joined in this range`);
    await frame.getByLabel("Joined from (UTC+8)").fill("2099-01-01T08:00:00");
    expect(await platformGet("/v1/listservice/memberCount", { listId, joinListDateSince: "2099-01-01T00:00:00" }, sandbox.token)).toBe(0);
    await expect(frame.getByTestId("member-count-range")).toHaveText("0 members joined in this range");
    await frame.getByRole("button", { name: "Clear range" }).click();
    await expect(frame.getByTestId("member-count-range")).toBeHidden();

    // Keyset paging forward and back (§4.4 sinceId), 20 a page, by customer id ascending.
    const page1 = (await members(listId, { rows: "20", sidx: "customerId", sord: "asc" })).map((m) => m.customerId);
    await expect.poll(() => memberIdsOnScreen(frame)).toEqual(page1);
    await frame.getByRole("button", { name: "Next page" }).click();
    const page2 = (await members(listId, { rows: "20", sidx: "customerId", sord: "asc", sinceId: page1.at(-1)! })).map((m) => m.customerId);
    await expect.poll(() => memberIdsOnScreen(frame)).toEqual(page2);
    await frame.getByRole("button", { name: "Next page" }).click();
    const page3 = (await members(listId, { rows: "20", sidx: "customerId", sord: "asc", sinceId: page2.at(-1)! })).map((m) => m.customerId);
    expect(page3).toHaveLength(5);
    await expect.poll(() => memberIdsOnScreen(frame)).toEqual(page3);
    await expect(frame.getByRole("button", { name: "Next page" })).toBeDisabled();
    await frame.getByRole("button", { name: "Previous page" }).click();
    await expect.poll(() => memberIdsOnScreen(frame)).toEqual(page2);
    await frame.getByRole("button", { name: "Previous page" }).click();
    await expect.poll(() => memberIdsOnScreen(frame)).toEqual(page1);
    // Descending by membership id: the platform's order.
    await frame.getByLabel("Sort by").selectOption("id");
    await frame.getByLabel("Order").selectOption("desc");
    const byIdDesc = (await members(listId, { rows: "20", sidx: "id", sord: "desc" })).map((m) => m.customerId);
    await expect.poll(() => memberIdsOnScreen(frame)).toEqual(byIdDesc);
    await attachScreenshot(page, "list-members");

    // Remove one (by membership id).
    const first = byIdDesc[0]!;
    await frame.getByRole("button", { name: `Remove customer ${first} from the list` }).click();
    await expect(frame.getByRole("alertdialog")).toContainText("The customers are NOT deleted.");
    await frame.getByRole("alertdialog").getByRole("button", { name: "Remove from list" }).click();
    await expect.poll(async () => (await members(listId)).some((m) => m.customerId === first)).toBe(false);

    // Remove many (removeFromList with the selected customer ids).
    await expect.poll(() => memberIdsOnScreen(frame)).not.toContain(first);
    const shown = await memberIdsOnScreen(frame);
    const chosen = shown.slice(0, 3);
    for (const id of chosen) await frame.getByRole("checkbox", { name: `Select customer ${id}` }).check();
    await frame.getByRole("button", { name: "Remove selected (3)…" }).click();
    await frame.getByRole("alertdialog").getByRole("button", { name: "Remove from list" }).click();
    await expect.poll(async () => (await members(listId)).length).toBe(41);
    const left = new Set((await members(listId)).map((m) => m.customerId));
    for (const id of chosen) expect(left.has(id)).toBe(false);
    await expect(frame.getByTestId("member-count")).toHaveText("41 members in this list");

    // Fits the iframe: no horizontal scrolling of the console's page.
    const overflow = await horizontalOverflow(appFrame(page));
    expect(overflow).toBeLessThanOrEqual(0);

    // Delete the list: the dialog says the customers stay; they do.
    await frame.getByRole("button", { name: "Delete list" }).click();
    await expect(frame.getByRole("alertdialog")).toContainText("NOT deleted");
    await frame.getByRole("alertdialog").getByRole("button", { name: "Delete the list" }).click();
    await expect(frame.getByRole("heading", { level: 1, name: "Lists" })).toBeVisible();
    await expect.poll(async () => (await lists()).some((l) => l.id === listId)).toBe(false);
    expect(await platformGet("/v1/customers/count", {}, sandbox.token)).toBe(75);
  });

  test("works in a 1024 px wide iframe", async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 800 });
    const frame = await openArea(page, "Lists");
    await expect(frame.getByRole("button", { name: "New list" })).toBeVisible();
    expect(await horizontalOverflow(appFrame(page))).toBeLessThanOrEqual(0);
  });

  test("axe finds nothing on the lists pages, in both languages", async ({ page }) => {
    await page.goto(`${e2eUrls.app}/lists?openAppId=${ALPHA.openAppId}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible({ timeout: 20_000 });
    // A list with members, so the table, the forms and a result are on the page.
    await page.getByRole("button", { name: "New list" }).click();
    await page.getByRole("dialog").getByRole("textbox", { name: "Name" }).fill("axe");
    await page.getByRole("dialog").getByRole("button", { name: "Create list" }).click();
    await page.getByRole("link", { name: "axe" }).click();
    await page.getByRole("textbox", { name: "Customer ids" }).fill([...customers.slice(0, 5), "123"].join("\n"));
    await page.getByRole("button", { name: "Add 6 to list" }).click();
    await expect(page.getByTestId("batch-result")).toContainText("Finished");
    const detailUrl = page.url();
    for (const locale of ["en", "zh-CN"] as const) {
      for (const url of [`${e2eUrls.app}/lists?openAppId=${ALPHA.openAppId}`, detailUrl]) {
        await page.goto(url);
        if (locale === "zh-CN") await page.getByLabel(/Language|语言/).first().selectOption("zh-CN");
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible({ timeout: 20_000 });
        await expect(page.locator("table").first()).toBeVisible();
        await expectAccessible(page, { label: `${locale} ${url}` });
        await attachScreenshot(page, `${url.includes("/lists/") ? "list" : "lists"}-${locale}`);
      }
    }
  });
});
