import { expect, test, type FrameLocator } from "@playwright/test";
import { expectAccessible } from "./support/a11y";
import { customerIdsOnScreen as idsOnScreen, openArea, openInAdmin } from "./support/admin-frame";
import { platformGet } from "./support/sandbox-api";
import { attachScreenshot } from "./support/screenshots";
import { sandboxSuite } from "./support/suite";

/**
 * People search through the real chain, in the admin's 1024-px iframe: the customers page's
 * search box and tag filter over the app's customer index (built from the sandbox on first use),
 * and the customer picker in merge. Expected results come from the sandbox API itself.
 */

type Row = { id: string; name?: string | null; email?: string | null; mobile?: string | null };

/** Types into the search box and waits until `id` is among the rows (the index may still be filling). */
async function searchFinds(frame: FrameLocator, text: string, id: string) {
  const box = frame.getByTestId("customer-search");
  await box.fill(text);
  await expect.poll(() => idsOnScreen(frame), { timeout: 30_000 }).toContain(id);
}

test.describe.serial("people search through the sandbox", () => {
  const sandbox = sandboxSuite({ reset: { customers: 300 }, window: { width: 1024, height: 800 } });

  test("two characters of a name, part of an email, a mobile without +86 find the customer; a tag lists exactly its customers", async ({ page }) => {
    const frame = await openArea(page, "Customers");
    const { rows } = (await platformGet("/v1/customers", { rows: "300", select: "id,name,email,mobile", hasMobile: "true", hasEmail: "true" }, sandbox.token)) as { rows: Row[] };
    const person = rows.find((r) => r.name && [...r.name].length >= 2 && r.email && r.mobile?.startsWith("+86 "))!;
    expect(person).toBeTruthy();

    // Two characters of the (CJK) name: the start of it.
    await searchFinds(frame, [...person.name!].slice(0, 2).join(""), person.id);
    await expect(frame.getByTestId("index-status")).toContainText(/up to date|Building/);
    // Part of the email, from its middle.
    const email = person.email!;
    await searchFinds(frame, email.slice(2, 9), person.id);
    // The mobile without "+86 ".
    const bare = person.mobile!.replace(/^\+86 /, "");
    await searchFinds(frame, bare, person.id);
    await expect.poll(() => idsOnScreen(frame)).toEqual([person.id]);
    await attachScreenshot(page, "search-by-mobile");

    // The tag filter: the customers the platform gives a tag, exactly.
    await frame.getByTestId("customer-search").fill("");
    const allIds = ((await platformGet("/v1/customers", { rows: "300", select: "id" }, sandbox.token)) as { rows: Row[] }).rows.map((r) => r.id);
    const tagged = (await platformGet("/v1/tagservice/getCustomerTags", { customerId: allIds.join(",") }, sandbox.token)) as Record<string, string | null>;
    const byTag = new Map<string, string[]>();
    for (const [id, names] of Object.entries(tagged)) for (const name of (names ?? "").split(",").filter(Boolean)) byTag.set(name, [...(byTag.get(name) ?? []), id]);
    const [tag, expected] = [...byTag.entries()].filter(([, ids]) => ids.length >= 1 && ids.length <= 20).sort((a, b) => b[1].length - a[1].length)[0]!;
    await frame.getByTestId("tag-filter").selectOption(tag);
    await expect.poll(async () => (await idsOnScreen(frame)).sort(), { timeout: 30_000 }).toEqual([...expected].sort());
    await expectAccessible(page, { include: 'iframe[title="Engage Console"]', label: "customers search" });
  });

  test("merge: both customers are picked by typing, not by id", async ({ page }) => {
    const { rows } = (await platformGet("/v1/customers", { rows: "300", select: "id,name,email,mobile", hasEmail: "true" }, sandbox.token)) as { rows: Row[] };
    const [from, to] = rows.filter((r) => r.email).slice(-2);
    const frame = await openInAdmin(page, "/customers/merge");
    for (const [side, customer] of [["from", from!], ["to", to!]] as const) {
      const box = frame.getByTestId(`merge-${side}`);
      await box.fill(customer.email!.slice(0, 12));
      const option = frame.getByRole("option").filter({ hasText: customer.id });
      await expect(option).toBeVisible({ timeout: 30_000 });
      await option.click();
      await expect(frame.getByTestId(`merge-${side}-chosen`)).toContainText(customer.id);
    }
    await frame.getByRole("button", { name: "Review merge" }).click();
    const compare = frame.getByTestId("merge-compare");
    await expect(compare).toContainText(from!.id);
    await expect(compare).toContainText(to!.id);
  });
});
