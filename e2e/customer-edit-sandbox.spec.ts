import { expect, test, type FrameLocator, type Page } from "@playwright/test";
import { e2eUrls } from "../scripts/testing/e2e-env";
import { expectAccessible } from "./support/a11y";
import { APP_FRAME, consoleFrameAt, openArea } from "./support/admin-frame";
import { platformGet, platformSend } from "./support/sandbox-api";
import { ALPHA } from "./support/sandbox-login";
import { attachScreenshot } from "./support/screenshots";
import { sandboxSuite } from "./support/suite";

/**
 * Customer write flows through the real chain: sandbox marketplace → the console in the admin's
 * iframe (1024 px wide) → the app's proxy → the sandbox API; results are checked through the API.
 */

type Row = { id: string; [key: string]: unknown };

async function openCreateInFrame(page: Page): Promise<FrameLocator> {
  const frame = await openArea(page, "Customers");
  await frame.getByTestId("new-customer").click();
  await expect(frame.getByRole("heading", { level: 1, name: "New customer" })).toBeVisible({ timeout: 20_000 });
  return frame;
}

/** Identity 1 of the create form as a custom type with its value. */
async function fillCustomIdentity(frame: FrameLocator, type: string, value: string) {
  await frame.getByLabel("Identity 1: type").selectOption("custom");
  await frame.getByLabel("Identity 1: custom type name").fill(type);
  await frame.getByLabel("Identity 1: value").fill(value);
}

async function identityOwner(type: string, value: string, token: string): Promise<string | undefined> {
  const found = (await platformGet("/v1/customeridentities", { identityType: type, identityValue: value }, token)) as { customerId: string }[];
  return found[0]?.customerId === undefined ? undefined : String(found[0].customerId);
}

test.describe.serial("customer create through the sandbox", () => {
  const sandbox = sandboxSuite({ reset: { customers: 30 }, window: { width: 1024, height: 900 } });

  test("creates a new customer with a custom identity and says so, with a link", async ({ page }) => {
    const frame = await openCreateInFrame(page);
    const stamp = Date.now().toString(36);
    const email = `new-${stamp}@example.test`;
    await frame.getByRole("textbox", { name: "Full name", exact: true }).fill("Ada New");
    await frame.getByRole("textbox", { name: "Email", exact: true }).fill(email);
    await fillCustomIdentity(frame, "crm-account", `CRM-${stamp}`);
    await frame.getByRole("button", { name: "Create customer" }).click();
    const outcome = frame.getByTestId("create-outcome");
    await expect(outcome).toHaveAttribute("data-outcome", "created");
    const owner = await identityOwner("crm-account", `CRM-${stamp}`, sandbox.token);
    expect(owner).toBeDefined();
    await expect(outcome).toContainText(`id ${owner}`);
    const customer = (await platformGet(`/v1/customers/${owner}`, {}, sandbox.token)) as Row;
    expect(customer.email).toBe(email);
    expect(customer.name).toBe("Ada New");
    await outcome.getByRole("link", { name: "Open the customer" }).click();
    await expect(frame.getByRole("heading", { level: 1 })).toHaveText("Ada New");
    await attachScreenshot(page, "customer-create-created");
  });

  test("merges into the customer with the same email (rule 2) and names it; off, a new one is created", async ({ page }) => {
    const existing = ((await platformGet("/v1/customers", { hasEmail: "true", rows: "1", select: "id,email,name" }, sandbox.token)) as { rows: Row[] }).rows[0]!;
    const before = (await platformGet("/v1/customers/count", {}, sandbox.token)) as number;
    const frame = await openCreateInFrame(page);
    const stamp = Date.now().toString(36);
    await frame.getByRole("textbox", { name: "Email", exact: true }).fill(String(existing.email));
    await fillCustomIdentity(frame, "shop-account", `S-${stamp}`);
    await frame.getByRole("button", { name: "Create customer" }).click();
    const outcome = frame.getByTestId("create-outcome");
    await expect(outcome).toHaveAttribute("data-outcome", "merged");
    await expect(outcome).toContainText("existing customer");
    await expect(outcome).toContainText(`(${existing.id})`);
    await expect(outcome).toContainText(`already had the email ${String(existing.email)}`);
    expect(await identityOwner("shop-account", `S-${stamp}`, sandbox.token)).toBe(existing.id);
    expect(await platformGet("/v1/customers/count", {}, sandbox.token)).toBe(before);
    // Not left empty fields cleared (nullAble off): the name stays.
    expect(((await platformGet(`/v1/customers/${existing.id}`, {}, sandbox.token)) as Row).name).toBe(existing.name);

    // The same email with "same person if the email matches" off: a new customer.
    await frame.getByRole("textbox", { name: "Email", exact: true }).fill(String(existing.email));
    await frame.getByLabel("Identity 1: value").fill(`T-${stamp}`);
    await frame.getByLabel("Same person if the email matches").uncheck();
    await frame.getByRole("button", { name: "Create customer" }).click();
    await expect(outcome).toHaveAttribute("data-outcome", "created");
    const owner = await identityOwner("email", `T-${stamp}`, sandbox.token);
    expect(owner).toBeDefined();
    expect(owner).not.toBe(existing.id);
  });

  test("refuses a 129-character identity value on the field, sending nothing", async ({ page }) => {
    const frame = await openCreateInFrame(page);
    let posts = 0;
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().includes("/api/platform/")) posts++;
    });
    await frame.getByLabel("Identity 1: value").fill("v".repeat(129));
    await frame.getByRole("button", { name: "Create customer" }).click();
    await expect(frame.getByText("At most 128 characters.")).toBeVisible();
    await expect(frame.getByLabel("Identity 1: value")).toHaveAttribute("aria-invalid", "true");
    expect(posts).toBe(0);
  });

  test("axe finds nothing on the create page in both languages", async ({ page }) => {
    for (const locale of ["en", "zh-CN"] as const) {
      await page.goto(`${e2eUrls.app}/customers/new?openAppId=${ALPHA.openAppId}&lang=${locale}`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible({ timeout: 20_000 });
      if (locale === "zh-CN") await expect(page.getByRole("heading", { level: 1 })).toHaveText("新建客户");
      await expectAccessible(page, { label: locale });
      await attachScreenshot(page, `customer-create-${locale}`);
    }
  });
});

test.describe.serial("customer edit and delete through the sandbox", () => {
  const sandbox = sandboxSuite({ window: { width: 1024, height: 900 } });
  let customer: Row;

  test.beforeAll(async () => {
    const stamp = Date.now().toString(36);
    customer = await platformSend<Row>("POST", "/v1/customers", { name: `Eve ${stamp}`, mobile: `139${Date.now() % 100000000}`, mobileVerified: true, remark: "keep me" }, sandbox.token);
  });

  test("a platform field error lands on its field; a valid edit saves and returns to the customer", async ({ page }) => {
    const frame = await consoleFrameAt(page, `/customers/${customer.id}`);
    await frame.getByRole("link", { name: "Edit", exact: true }).click();
    await expect(frame.getByRole("heading", { level: 1 })).toHaveText(`Edit ${String(customer.name)}`, { timeout: 20_000 });
    const mobile = frame.getByRole("textbox", { name: "Mobile", exact: true });
    await frame.getByRole("textbox", { name: "Full name", exact: true }).fill("Eve Edited");
    await mobile.fill("12-ab");
    await frame.getByRole("button", { name: "Save changes" }).click();
    // The sandbox (not the form) refuses the number: §7.1 fieldErrors, shown on the field.
    await expect(mobile).toHaveAttribute("aria-invalid", "true");
    await expect(frame.getByText("mobile must be digits, or +<country code> <number>").first()).toBeVisible();
    expect(((await platformGet(`/v1/customers/${customer.id}`, {}, sandbox.token)) as Row).name).toBe(customer.name);

    await mobile.fill(String(customer.mobile));
    // §4.1: verified stays on while the number is unchanged.
    await expect(frame.getByRole("checkbox", { name: "Mobile verified" })).toBeDisabled();
    await expect(frame.getByRole("checkbox", { name: "Mobile verified" })).toBeChecked();
    await frame.getByRole("textbox", { name: "Remark", exact: true }).fill("");
    await expect(frame.getByTestId("kept-fields")).toContainText("Remark");
    await frame.getByRole("button", { name: "Save changes" }).click();
    await expect(frame.getByRole("heading", { level: 1 })).toHaveText("Eve Edited");
    const after = (await platformGet(`/v1/customers/${customer.id}`, {}, sandbox.token)) as Row;
    expect(after.name).toBe("Eve Edited");
    expect(after.remark).toBe("keep me");
    expect(after.mobileVerified).toBe(true);
    // axe last: after an axe run inside the frame the page is not driven any further.
    await frame.goto(`${e2eUrls.app}/customers/${customer.id}/edit?openAppId=${ALPHA.openAppId}`);
    await expect(frame.getByRole("heading", { level: 1 })).toHaveText("Edit Eve Edited", { timeout: 20_000 });
    await expectAccessible(page, { include: APP_FRAME });
    await attachScreenshot(page, "customer-edit-en");
  });

  test("changing the number frees the verified flag; axe is clean in Chinese", async ({ page }) => {
    const frame = await consoleFrameAt(page, `/customers/${customer.id}/edit?lang=zh-CN`);
    await expect(frame.getByRole("heading", { level: 1 })).toHaveText("编辑 Eve Edited", { timeout: 20_000 });
    await frame.getByRole("textbox", { name: "手机号", exact: true }).fill("13700000001");
    const verified = frame.getByRole("checkbox", { name: "手机号已验证" });
    await expect(verified).toBeEnabled();
    await expectAccessible(page, { include: APP_FRAME });
    await attachScreenshot(page, "customer-edit-zh-CN");
  });

  test("tags: added and removed at once, checked through the API; a refused add is rolled back", async ({ page, request }) => {
    const frame = await consoleFrameAt(page, `/customers/${customer.id}?lang=en`);
    const tagsOnPlatform = async () => String(((await platformGet("/v1/tagservice/getCustomerTags", { customerId: customer.id }, sandbox.token)) as Record<string, string | null>)[customer.id] ?? "");
    const chips = frame.getByTestId("customer-tags");
    await frame.getByRole("textbox", { name: "New tag" }).fill("e2e-vip");
    await frame.getByRole("button", { name: "Add tag" }).click();
    await expect(chips).toContainText("e2e-vip");
    await expect.poll(tagsOnPlatform).toContain("e2e-vip");
    await frame.getByRole("button", { name: "Remove tag e2e-vip" }).click();
    await expect(chips).not.toContainText("e2e-vip");
    await expect.poll(tagsOnPlatform).not.toContain("e2e-vip");

    // The platform refuses (a sandbox fault, slow so the optimistic chip is seen): the chip goes away again.
    expect((await request.post(`${ALPHA.origin}/__sandbox/faults`, { data: { faults: [{ path: "/v1/tagservice/addCustomerTag", errorRate: 1, status: 500, latencyMs: 1500 }] } })).ok()).toBe(true);
    try {
      await frame.getByRole("textbox", { name: "New tag" }).fill("e2e-refused");
      await frame.getByRole("button", { name: "Add tag" }).click();
      await expect(chips).toContainText("e2e-refused");
      await expect(chips).not.toContainText("e2e-refused", { timeout: 15_000 });
      await expect(frame.getByText("The tag was not added.", { exact: false })).toBeVisible();
      expect(await tagsOnPlatform()).not.toContain("e2e-refused");
    } finally {
      await request.post(`${ALPHA.origin}/__sandbox/faults`, { data: { faults: [] } });
    }
    await expectAccessible(page, { include: APP_FRAME });
    await attachScreenshot(page, "customer-detail-en");
  });

  test("delete asks first, then goes back to the list with a toast; the platform no longer has it", async ({ page }) => {
    const frame = await consoleFrameAt(page, `/customers/${customer.id}?lang=en`);
    await frame.getByRole("button", { name: "Delete", exact: true }).click();
    const dialog = frame.getByRole("alertdialog", { name: "Delete this customer?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(((await platformGet(`/v1/customers/${customer.id}`, {}, sandbox.token)) as Row).id).toBe(customer.id);
    await frame.getByRole("button", { name: "Delete", exact: true }).click();
    await dialog.getByRole("button", { name: "Delete customer" }).click();
    await expect(frame.getByRole("heading", { level: 1, name: "Customers" })).toBeVisible();
    await expect(frame.getByText(`Customer ${customer.id} deleted.`)).toBeVisible();
    const gone = (await platformGet(`/v1/customers/${customer.id}`, {}, sandbox.token)) as { error?: unknown };
    expect(gone.error).toBeDefined();
  });
});

test.describe.serial("customer merge and messenger unbinding through the sandbox", () => {
  const sandbox = sandboxSuite({ window: { width: 1024, height: 900 } });
  const stamp = Date.now().toString(36);

  test("merge by id: both customers side by side, confirmed, reported; the source is gone", async ({ page }) => {
    const from = await platformSend<Row>("POST", "/v1/customers", { name: `From ${stamp}`, email: `from-${stamp}@example.test` }, sandbox.token);
    const to = await platformSend<Row>("POST", "/v1/customers", { name: `To ${stamp}`, email: `to-${stamp}@example.test` }, sandbox.token);
    const frame = await consoleFrameAt(page, `/customers/${from.id}?lang=en`);
    await frame.getByRole("link", { name: "Merge into another customer" }).click();
    await expect(frame.getByRole("heading", { level: 1, name: "Merge two customers" })).toBeVisible({ timeout: 20_000 });
    await expect(frame.getByRole("combobox", { name: "Customer to merge" })).toHaveValue(from.id);
    // Pasting an id into the picker still works.
    await frame.getByRole("combobox", { name: "Customer to keep" }).fill(to.id);
    await frame.getByRole("button", { name: "Review merge" }).click();
    const dialog = frame.getByRole("alertdialog", { name: "Merge these customers?" });
    await expect(dialog.getByTestId("merge-compare")).toContainText(`From ${stamp}`);
    await expect(dialog.getByTestId("merge-compare")).toContainText(`To ${stamp}`);
    await dialog.getByRole("button", { name: "Merge customers" }).click();
    await expect(frame.getByTestId("merge-report")).toContainText(`From ${stamp} (${from.id}) was merged into To ${stamp} (${to.id}) and deleted.`);
    // The merged-away customer is gone from the form; the one kept stays chosen.
    await expect(frame.getByRole("combobox", { name: "Customer to merge" })).toHaveValue("");
    await expect(frame.getByTestId("merge-from-chosen")).toBeEmpty();
    expect(((await platformGet(`/v1/customers/${from.id}`, {}, sandbox.token)) as { error?: unknown }).error).toBeDefined();
    expect(((await platformGet(`/v1/customers/${to.id}`, {}, sandbox.token)) as Row).id).toBe(to.id);
  });

  test("merge by identities, then axe on the merge page in both languages", async ({ page }) => {
    const from = await platformSend<Row>("POST", "/v1/customerandidentities", { customer: { name: `IdFrom ${stamp}` }, customerIdentities: [{ identityType: "crm", identityValue: `F-${stamp}` }] }, sandbox.token);
    const to = await platformSend<Row>("POST", "/v1/customerandidentities", { customer: { name: `IdTo ${stamp}` }, customerIdentities: [{ identityType: "crm", identityValue: `T-${stamp}` }] }, sandbox.token);
    const frame = await consoleFrameAt(page, "/customers/merge?lang=en");
    await frame.getByRole("radio", { name: "Identity (type and value)" }).check();
    await frame.getByRole("textbox", { name: "Identity type of the customer to merge" }).fill("crm");
    await frame.getByRole("textbox", { name: "Identity value of the customer to merge" }).fill(`F-${stamp}`);
    await frame.getByRole("textbox", { name: "Identity type of the customer to keep" }).fill("crm");
    await frame.getByRole("textbox", { name: "Identity value of the customer to keep" }).fill(`T-${stamp}`);
    await frame.getByRole("button", { name: "Review merge" }).click();
    const dialog = frame.getByRole("alertdialog", { name: "Merge these customers?" });
    await expect(dialog.getByTestId("merge-compare")).toContainText(`IdFrom ${stamp}`);
    await dialog.getByRole("button", { name: "Merge customers" }).click();
    await expect(frame.getByTestId("merge-report")).toContainText(`IdFrom ${stamp} (${from.id}) was merged into IdTo ${stamp} (${to.id}) and deleted.`);
    const owner = (await platformGet("/v1/customeridentities", { identityType: "crm", identityValue: `F-${stamp}` }, sandbox.token)) as { customerId: string }[];
    expect(String(owner[0]?.customerId)).toBe(to.id);
    expect(((await platformGet(`/v1/customers/${from.id}`, {}, sandbox.token)) as { error?: unknown }).error).toBeDefined();

    for (const locale of ["en", "zh-CN"] as const) {
      await page.goto(`${e2eUrls.app}/customers/merge?openAppId=${ALPHA.openAppId}&lang=${locale}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(locale === "en" ? "Merge two customers" : "合并两个客户", { timeout: 20_000 });
      await expectAccessible(page, { label: locale });
      await attachScreenshot(page, `customer-merge-${locale}`);
    }
  });

  test("messenger unbinding: confirmed, reported, the union id now belongs to a new customer", async ({ page }) => {
    const customer = await platformSend<Row>(
      "POST",
      "/v1/customerandidentities",
      { customer: { name: `Msg ${stamp}` }, customerIdentities: [{ identityType: "messenger", identityValue: `o-${stamp}` }, { identityType: "messenger-unionid", identityValue: `u-${stamp}` }] },
      sandbox.token,
    );
    const frame = await consoleFrameAt(page, `/customers/${customer.id}?lang=en`);
    await frame.getByRole("button", { name: "Unbind messenger account" }).click();
    const dialog = frame.getByRole("alertdialog", { name: "Unbind the messenger account?" });
    await expect(dialog).toContainText(`u-${stamp}`);
    await dialog.getByRole("button", { name: "Unbind", exact: true }).click();
    const report = frame.getByTestId("unbind-report");
    await expect(report).toContainText("Unbound: the messenger account now belongs to the new customer");
    const owner = (await platformGet("/v1/customeridentities", { identityType: "messenger-unionid", identityValue: `u-${stamp}` }, sandbox.token)) as { customerId: string }[];
    expect(String(owner[0]?.customerId)).not.toBe(customer.id);
    await expect(report).toContainText(String(owner[0]?.customerId));
  });
});
