import { readFile } from "node:fs/promises";
import { expect, test, type FrameLocator, type Locator } from "@playwright/test";
import { parseCsv } from "../lib/events/csv";
import { expectAccessible } from "./support/a11y";
import { openArea, openInAdmin } from "./support/admin-frame";
import { platformCall, platformGet } from "./support/sandbox-api";
import { attachScreenshot } from "./support/screenshots";
import { sandboxSuite } from "./support/suite";

/**
 * The customer picker wherever an id was typed, used as staff would, by typing a name in the admin's
 * 1024-px iframe: add to list, list batch add (several picks), tag customers, new order, record an
 * event; and names beside ids in list members, orders and order detail. Checked against the sandbox API.
 */

type Person = { id: string; name: string; email: string };

/** Types a part of the person's name into `box` and picks them from the options (the index may still be filling). */
async function pickByName(frame: FrameLocator, box: Locator, person: Person) {
  await box.fill(person.name.slice(0, -1));
  const option = frame.getByRole("option").filter({ hasText: person.id });
  await expect(option).toBeVisible({ timeout: 30_000 });
  await option.click();
}

test.describe.serial("customer pickers through the sandbox", () => {
  const sandbox = sandboxSuite({ reset: { customers: 30 }, window: { width: 1024, height: 900 } });
  const stamp = Date.now().toString(36);
  const people: Person[] = [];

  test.beforeAll(async () => {
    for (const letter of ["A", "B", "C"]) {
      const name = `Picker${stamp}${letter}x`;
      const email = `picker.${stamp}.${letter.toLowerCase()}@example.com`;
      const made = await platformCall("POST", "/v1/customers", sandbox.token, { body: { name, email } });
      people.push({ id: String((made.json as { id: string }).id), name, email });
    }
  });

  let listId = "";

  test("lists: add one by name, add several by name; members show names", async ({ page }) => {
    const made = await platformCall("POST", "/v1/lists", sandbox.token, { body: { name: `Picked ${stamp}` } });
    listId = String((made.json as { id: string }).id);
    const members = async () => ((await platformGet("/v1/listMembers", { listId, rows: "100" }, sandbox.token)) as { items: { customerId: string }[] }).items.map((m) => m.customerId);
    const frame = await openInAdmin(page, `/lists/${listId}`);

    await pickByName(frame, frame.getByRole("combobox", { name: "Customer id", exact: true }), people[0]!);
    await expect(frame.getByTestId("add-member-picker-chosen")).toContainText(people[0]!.name);
    await frame.getByRole("button", { name: "Add to list", exact: true }).click();
    await expect.poll(members).toEqual([people[0]!.id]);

    // Batch: two picks land as lines of the ids; picking one again adds nothing.
    const batch = frame.getByRole("combobox", { name: "Add customers by name" });
    await pickByName(frame, batch, people[1]!);
    await pickByName(frame, batch, people[2]!);
    await pickByName(frame, batch, people[1]!);
    await expect(frame.getByRole("textbox", { name: "Customer ids" })).toHaveValue(`${people[1]!.id}\n${people[2]!.id}`);
    await frame.getByRole("button", { name: "Add 2 to list" }).click();
    await expect(frame.getByTestId("batch-result")).toContainText("2 added", { timeout: 20_000 });
    await expect.poll(async () => (await members()).sort()).toEqual(people.map((p) => p.id).sort());

    // Members are named, with their contact, beside their ids.
    await page.reload();
    const table = frame.getByTestId("members-table");
    for (const person of people) await expect(table.locator(`[data-customer-id="${person.id}"]`)).toContainText(person.name, { timeout: 20_000 });
    await expect(table.locator(`[data-customer-id="${people[0]!.id}"]`)).toContainText(people[0]!.email);
    await attachScreenshot(page, "members-named");
    await expectAccessible(page, { include: 'iframe[title="Engage Console"]', label: "list with pickers" });
  });

  test("lists: a member found by name, a non-member said so; the members exported in the customers page's CSV", async ({ page }) => {
    const outsider = { name: `Picker${stamp}Dx`, email: `picker.${stamp}.d@example.com`, id: "" };
    outsider.id = String(((await platformCall("POST", "/v1/customers", sandbox.token, { body: { name: outsider.name, email: outsider.email } })).json as { id: string }).id);
    const frame = await openInAdmin(page, `/lists/${listId}`);
    const rows = frame.getByTestId("members-table").locator("tbody tr");
    await expect(rows).toHaveCount(3, { timeout: 20_000 });

    const finder = frame.getByRole("combobox", { name: "Find a member", exact: true });
    await pickByName(frame, finder, people[1]!);
    await expect(rows).toHaveCount(1, { timeout: 20_000 });
    await expect(rows.first()).toContainText(people[1]!.name);
    await pickByName(frame, finder, outsider);
    await expect(frame.getByTestId("members-no-results")).toContainText(`${outsider.name} (${outsider.id}) is not in this list.`, { timeout: 20_000 });
    await frame.getByTestId("members-no-results").getByRole("button", { name: "Show all members" }).click();
    await expect(rows).toHaveCount(3, { timeout: 20_000 });

    await frame.getByRole("button", { name: "Export members as CSV" }).click();
    const task = frame.getByTestId("list-export").getByTestId("task-row").first();
    await expect(task).toHaveAttribute("data-state", "done", { timeout: 30_000 });
    const downloading = page.waitForEvent("download");
    await task.getByRole("button", { name: new RegExp(`^Download list-${listId}-members-\\d{4}-\\d{2}-\\d{2}\\.csv$`) }).click();
    const bytes = await readFile((await (await downloading).path())!);
    const records = parseCsv(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).slice(1));
    // The customers page's columns, one row per member, in customer id order.
    expect(records[0]).toEqual(["id", "displayName", "mobile", "email", "stage", "source", "dateCreated (UTC)", "lastUpdated (UTC)"]);
    expect(records.slice(1).map((r) => r[0])).toEqual(people.map((p) => p.id).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)));
    expect(records.slice(1).map((r) => r[3])).toContain(people[0]!.email);
  });

  test("tags: a customer picked by name gets the tag", async ({ page }) => {
    const frame = await openArea(page, "Tags");
    const open = frame.getByRole("button", { name: /^Tag\/untag customers with / }).first();
    const tag = (await open.getAttribute("aria-label"))!.replace(/^Tag\/untag customers with /, "");
    await open.click();
    const dialog = frame.getByRole("dialog", { name: `Customers and the tag “${tag}”` });
    await pickByName(frame, dialog.getByRole("combobox", { name: "Add customers by name" }), people[2]!);
    await expect(dialog.getByRole("textbox", { name: "Customer ids" })).toHaveValue(people[2]!.id);
    await dialog.getByRole("button", { name: "Add the tag to 1" }).click();
    await expect(dialog.getByTestId("tag-customers-result")).toContainText("1 tagged", { timeout: 20_000 });
    const tags = (await platformGet("/v1/tagservice/getCustomerTags", { customerId: people[2]!.id }, sandbox.token)) as Record<string, string | null>;
    expect(String(tags[people[2]!.id] ?? "").split(",")).toContain(tag);
  });

  test("new order: the customer is picked by name; the order and the orders list name them", async ({ page }) => {
    const orderNo = `PK-${stamp}`;
    const frame = await openInAdmin(page, "/orders/new");
    await frame.getByRole("textbox", { name: "Order number *" }).fill(orderNo);
    await frame.getByLabel("Paid at (UTC+8) *").fill(new Date(Date.now() + 8 * 3_600_000 - 60_000).toISOString().slice(0, 19));
    await pickByName(frame, frame.getByRole("combobox", { name: "Customer id *" }), people[1]!);
    await expect(frame.getByTestId("order-customer-picker-chosen")).toContainText(people[1]!.id);
    await frame.getByRole("textbox", { name: "Paid amount *" }).fill("1");
    const line = frame.getByTestId("order-line").first();
    await line.getByRole("textbox", { name: "Product *" }).fill("Tea");
    await line.getByRole("textbox", { name: "Unit price" }).fill("1");
    await frame.getByRole("button", { name: "Create order" }).click();
    await expect(frame.getByRole("heading", { level: 1, name: `Order ${orderNo}`, exact: true })).toBeVisible();
    const order = (await platformCall("GET", "/v1/dealService/getDealByOrderNo", sandbox.token, { query: { orderNo } })).json as { customerIdStr?: string; customerId?: string };
    expect(String(order.customerIdStr ?? order.customerId)).toBe(people[1]!.id);
    await expect(frame.getByTestId("order-customer-name")).toContainText(people[1]!.name);

    const list = await openInAdmin(page, "/orders");
    const row = list.getByTestId("orders-table").locator("tr", { hasText: orderNo });
    await expect(row.locator(`[data-customer-id="${people[1]!.id}"]`)).toContainText(people[1]!.name, { timeout: 20_000 });
  });

  test("record an event: the customer is picked by name", async ({ page }) => {
    const frame = await openInAdmin(page, "/events");
    await frame.getByTestId("record-event-open").click();
    const dialog = frame.getByRole("dialog", { name: "Record an event" });
    await pickByName(frame, dialog.getByRole("combobox", { name: "Customer id *" }), people[0]!);
    await dialog.locator('button[type="submit"]').click();
    await expect(dialog).toBeHidden();
    await expect.poll(async () => ((await platformGet("/v1/customerevents", { customerId: people[0]!.id, max: "10" }, sandbox.token)) as unknown[]).length).toBe(1);
  });
});
