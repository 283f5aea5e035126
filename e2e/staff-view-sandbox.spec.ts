import { expect, test, type FrameLocator } from "@playwright/test";
import { expectAccessible } from "./support/a11y";
import { customerIdsOnScreen as idsOnScreen, openArea, openInAdmin } from "./support/admin-frame";
import { platformCall, platformGet } from "./support/sandbox-api";
import { attachScreenshot } from "./support/screenshots";
import { sandboxSuite } from "./support/suite";

/**
 * The console as staff use it all day, in the admin's 1024-px iframe through the sandbox: a search
 * says why each result matched, how many were found and that it is still searching; a search can
 * be exported; the tags table counts each tag's customers and opens them; lists count their
 * members; and people are named (name, contact, copyable id) where a person is meant.
 */

type Row = { id: string; name?: string | null; displayName?: string | null; email?: string | null; mobile?: string | null };

async function searchFinds(frame: FrameLocator, text: string, id: string) {
  await frame.getByTestId("customer-search").fill(text);
  await expect.poll(() => idsOnScreen(frame), { timeout: 30_000 }).toContain(id);
}

test.describe.serial("people, counts and the list behind every click", () => {
  // The shared machine is slow under parallel builds: each step waits for its own answer.
  test.describe.configure({ timeout: 240_000 });
  const sandbox = sandboxSuite({ reset: { customers: 200 }, window: { width: 1024, height: 900 } });
  const stamp = Date.now().toString(36);

  test("a search names the matched field, counts its results and can be exported; a tag's count opens its people", async ({ page }) => {
    const frame = await openArea(page, "Customers");
    const { rows } = (await platformGet("/v1/customers", { rows: "200", select: "id,name,displayName,email,mobile", hasEmail: "true" }, sandbox.token)) as { rows: Row[] };
    const person = rows.find((r) => r.name && r.email && r.email.length > 10)!;
    // Part of the email from its middle: the result says it matched on the email, the part marked.
    const part = person.email!.slice(2, 9);
    await searchFinds(frame, part, person.id);
    const row = frame.locator(`tbody tr[data-row-id="${person.id}"]`);
    const match = row.getByTestId("search-match");
    await expect(match).toHaveAttribute("data-field", "email");
    await expect(match.locator("mark")).toHaveText(part);
    await expect(frame.getByTestId("customers-count")).toHaveText(/customers? found/);
    // Exporting a search is offered (it used to be switched off).
    await expect(frame.getByTestId("customer-export").getByRole("button", { name: "Export CSV" })).toBeEnabled();
    await attachScreenshot(page, "search-matched-field");
    await expectAccessible(page, { include: 'iframe[title="Engage Console"]', label: "search with matched field" });

    // A tag's count in the tags table, then its people: the customers list filtered by the tag, counted the same.
    const allIds = rows.map((r) => r.id);
    const tagged = (await platformGet("/v1/tagservice/getCustomerTags", { customerId: allIds.join(",") }, sandbox.token)) as Record<string, string | null>;
    const byTag = new Map<string, number>();
    for (const names of Object.values(tagged)) for (const name of (names ?? "").split(",").filter(Boolean)) byTag.set(name, (byTag.get(name) ?? 0) + 1);
    const tags = await openInAdmin(page, "/tags?rows=100");
    const peopleLinks = tags.getByTestId("tag-people");
    await expect(peopleLinks.first()).toHaveText(/\d+ customers?/, { timeout: 30_000 });
    const texts = await peopleLinks.allTextContents();
    const index = texts.findIndex((text) => /^[1-9]\d* customers?$/.test(text.trim()));
    expect(index).toBeGreaterThanOrEqual(0);
    const count = Number(texts[index]!.match(/\d+/)![0]);
    await peopleLinks.nth(index).click();
    await expect(tags.getByRole("heading", { level: 1, name: "Customers" })).toBeVisible();
    await expect(tags.getByTestId("customers-count")).toHaveText(count === 1 ? "1 customer found" : `${count} customers found`, { timeout: 30_000 });
    expect([...byTag.values()]).toContain(count);
  });

  test("events and orders name their customer; lists count their members", async ({ page }) => {
    const { rows } = (await platformGet("/v1/customers", { rows: "50", select: "id,name,displayName" }, sandbox.token)) as { rows: Row[] };
    const person = rows.find((r) => r.displayName || r.name)!;
    const name = person.displayName || person.name!;
    const made = await platformCall("POST", "/v1/customerevents", sandbox.token, { body: { customerId: person.id, event: "open_page", date: `${new Date().toISOString().slice(0, 19)}Z`, externalId: `staff-${stamp}` } });
    expect(made.status).toBe(200);
    const frame = await openInAdmin(page, `/events?customerId=${person.id}`);
    const named = frame.getByTestId("events-browser").locator(`[data-customer-id="${person.id}"]`).first();
    await expect(named).toContainText(name, { timeout: 30_000 });
    await expect(named.getByRole("button", { name: `Copy id ${person.id}` })).toBeVisible();

    const orders = await openInAdmin(page, `/orders?customerId=${person.id}`);
    await expect(orders.getByRole("heading", { level: 1 })).toHaveText(`Orders of ${name} (${person.id})`, { timeout: 30_000 });

    const lists = await openInAdmin(page, "/lists");
    await expect(lists.getByTestId("list-member-count").first()).toHaveText(/^[\d,]+$/, { timeout: 30_000 });
  });

  test("axe finds nothing on the searched customers, tags and lists pages in Chinese, and the words are Chinese", async ({ page }) => {
    const { rows } = (await platformGet("/v1/customers", { rows: "50", select: "id,name,email", hasEmail: "true" }, sandbox.token)) as { rows: Row[] };
    const person = rows.find((r) => r.email && r.email.length > 10)!;
    const frame = await openInAdmin(page, "/customers");
    // Chinese chosen as staff do, in the console's own language menu (kept for the pages after).
    await frame.getByLabel(/Language|语言/).first().selectOption("zh-CN");
    await expect(frame.getByRole("heading", { level: 1, name: "客户" })).toBeVisible({ timeout: 30_000 });
    await searchFinds(frame, person.email!.slice(2, 9), person.id);
    await expect(frame.getByTestId("customers-count")).toHaveText(/找到.*位客户/);
    await expect(frame.locator("thead")).toContainText("匹配字段");
    await expectAccessible(page, { include: 'iframe[title="Engage Console"]', label: "zh search" });
    const tags = await openInAdmin(page, "/tags");
    await expect(tags.getByTestId("tag-people").first()).toHaveText(/位客户/, { timeout: 30_000 });
    await expectAccessible(page, { include: 'iframe[title="Engage Console"]', label: "zh tags" });
    const lists = await openInAdmin(page, "/lists");
    await expect(lists.locator("thead")).toContainText("成员");
    await expectAccessible(page, { include: 'iframe[title="Engage Console"]', label: "zh lists" });
  });
});
