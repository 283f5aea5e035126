import { expect, test } from "@playwright/test";
import { customerIdsOnScreen as idsOnScreen, openArea } from "./support/admin-frame";
import { platformGet, platformSend } from "./support/sandbox-api";
import { sandboxSuite } from "./support/suite";

/**
 * The customer index follows the platform's webhooks in the production build (the topic handlers
 * registered at start-up reach the receiver): customers tagged A, then A merged into B on the
 * platform, are listed by the Customers page's tag filter under B, and no longer under A.
 */

type Row = { id: string; name?: string | null };

test.describe.serial("customer index through webhooks", () => {
  const sandbox = sandboxSuite({ reset: { customers: 60 }, window: { width: 1024, height: 800 } });

  test("tag three customers with A, merge A into B: the tag filter B lists them", async ({ page }) => {
    const suffix = Date.now().toString(36).slice(-5);
    const [a, b] = [`Hook A ${suffix}`, `Hook B ${suffix}`];
    const { rows } = (await platformGet("/v1/customers", { rows: "3", select: "id,name", sidx: "id", sord: "desc" }, sandbox.token)) as { rows: Row[] };
    const ids = rows.map((r) => r.id).sort();
    for (const id of ids) await platformSend("POST", "/v1/tagservice/addCustomerTag", { customerId: id, tags: [{ name: a }] }, sandbox.token);
    const to = await platformSend<{ id: string }>("POST", "/v1/tags", { name: b, dimension: "basic" }, sandbox.token);
    const tags = (await platformGet("/v1/tags", { rows: "1000" }, sandbox.token)) as { rows: Array<{ id: string; name: string }> };
    const from = tags.rows.find((t) => t.name === a)!;

    // The tag filter's choices come with the page: open it again until the index lists the tag's customers.
    const listedUnder = async (tag: string) => {
      await expect(async () => {
        const customers = await openArea(page, "Customers");
        await customers.getByTestId("tag-filter").selectOption(tag);
        await expect.poll(async () => (await idsOnScreen(customers)).sort(), { timeout: 5_000 }).toEqual(ids);
      }).toPass({ timeout: 60_000 });
    };
    await listedUnder(a);

    await platformSend("POST", `/v1/tags/${from.id}/mergeto/${to.id}`, {}, sandbox.token);
    await listedUnder(b);
  });
});
