import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/a11y";
import { openInAdmin } from "./support/admin-frame";
import { platformGet, platformSend } from "./support/sandbox-api";
import { BETA, installIn } from "./support/sandbox-login";
import { attachScreenshot } from "./support/screenshots";
import { sandboxSuite } from "./support/suite";

/**
 * Custom attributes (§2.1 `attr`) get staff-given labels in Settings (the
 * tenant's, in the app's store) and their values are edited on the customer form; both stay after
 * a reload; another tenant (beta) does not see the label. In the admin's 1024-px iframe.
 */
test.describe.serial("custom attribute labels and values", () => {
  const sandbox = sandboxSuite({ reset: { customers: 30 }, window: { width: 1024, height: 900 } });
  const label = `Card level ${Date.now().toString(36)}`;

  test("label attr1 in Settings, see it on a customer, edit the value, reload: both kept; beta does not see the label", async ({ page }) => {
    const customer = ((await platformGet("/v1/customers", { rows: "1", select: "id,name" }, sandbox.token)) as { rows: { id: string }[] }).rows[0]!;
    await platformSend("PUT", `/v1/customers/${customer.id}`, { attr: { attr1: "Silver" } }, sandbox.token);

    // Settings: add attr1 and name it.
    let frame = await openInAdmin(page, "/settings");
    await frame.getByLabel("Attribute number").fill("1");
    await frame.getByRole("button", { name: "Add an attribute" }).click();
    await frame.getByLabel("Label of attr1").fill(label);
    await frame.getByRole("button", { name: "Save labels" }).click();
    await expect(frame.getByText("Labels saved.")).toBeVisible();
    await expectAccessible(page, { include: 'iframe[title="Engage Console"]', label: "settings with attribute labels" });

    // The customer's page shows the label, not the technical name alone.
    frame = await openInAdmin(page, `/customers/${customer.id}`);
    const attrs = frame.locator("#detail-attrs").locator("xpath=..");
    await expect(attrs.getByText(label)).toBeVisible();
    await expect(attrs.getByText("Silver")).toBeVisible();

    // Edit the value on the customer form.
    frame = await openInAdmin(page, `/customers/${customer.id}/edit`);
    const field = frame.getByRole("textbox", { name: label, exact: true });
    await expect(field).toHaveValue("Silver");
    await field.fill("Platinum");
    await frame.getByRole("button", { name: "Save changes" }).click();
    await expect(frame.getByText("Changes saved.")).toBeVisible();
    const saved = (await platformGet(`/v1/customers/${customer.id}`, {}, sandbox.token)) as { attr: Record<string, unknown> };
    expect(saved.attr.attr1).toBe("Platinum");

    // A reload: label and value kept.
    frame = await openInAdmin(page, `/customers/${customer.id}`);
    const again = frame.locator("#detail-attrs").locator("xpath=..");
    await expect(again.getByText(label)).toBeVisible();
    await expect(again.getByText("Platinum")).toBeVisible();
    await attachScreenshot(page, "attributes-labelled");

    // Another tenant (beta) has no such label.
    await installIn(page, BETA);
    frame = await openInAdmin(page, "/settings", BETA.origin);
    await expect(frame.getByText("No labels yet.")).toBeVisible();
    await expect(frame.getByText(label)).toHaveCount(0);
  });
});
