import { createHash } from "node:crypto";
import { expect, test } from "@playwright/test";
import { e2eUrls } from "../scripts/testing/e2e-env";
import { expectAccessible } from "./support/a11y";
import { APP_FRAME, openInAdmin } from "./support/admin-frame";
import { platformGet, platformSend } from "./support/sandbox-api";
import { ALPHA } from "./support/sandbox-login";
import { attachScreenshot } from "./support/screenshots";
import { sandboxSuite } from "./support/suite";

/**
 * The customer detail's identities (add one, §4.1 POST /v1/customeridentities), the MD5 lookup
 * (§4.1 getCustomerIdentityByMd5) and the detail's server prefetch, through the sandbox admin's
 * iframe (1024 px) and checked against the sandbox API.
 */

type Identity = { customerId: string; identityType: string; identityValue: string; identityName: string | null };
const md5 = (text: string) => createHash("md5").update(text, "utf8").digest("hex");
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19) + "Z";

test.describe.serial("customer detail through the sandbox", () => {
  const sandbox = sandboxSuite({ window: { width: 1024, height: 900 } });
  const stamp = Date.now().toString(36);

  test("adds an identity: a too-long value is refused on the field, then it is added and listed; a taken one is refused", async ({ page }) => {
    const customer = await platformSend("POST", "/v1/customers", { name: `Ida ${stamp}` }, sandbox.token);
    const id = String(customer.id);
    const other = await platformSend("POST", "/v1/customerandidentities", { customer: { name: `Other ${stamp}` }, customerIdentities: [{ identityType: "crm-e2e", identityValue: `TAKEN-${stamp}` }] }, sandbox.token);
    const frame = await openInAdmin(page, `/customers/${id}?lang=en`);
    await expect(frame.getByRole("heading", { level: 1 })).toHaveText(`Ida ${stamp}`);
    const section = frame.getByRole("region", { name: "Identities" });
    await expect(section.getByText("No identities.")).toBeVisible();

    await section.getByRole("button", { name: "Add an identity" }).click();
    await expect(section.getByRole("button", { name: "Add an identity" })).toHaveAttribute("aria-expanded", "true");
    const form = section.getByRole("form", { name: "Add an identity" });
    let posts = 0;
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().includes("/api/platform/")) posts++;
    });
    await form.getByLabel("Identity type").selectOption("custom");
    await form.getByRole("textbox", { name: "Custom type name" }).fill("crm-e2e");
    await form.getByRole("textbox", { name: "Identity value" }).fill("v".repeat(129));
    await form.getByRole("button", { name: "Add identity" }).click();
    await expect(form.getByText("At most 128 characters.")).toBeVisible();
    await expect(form.getByRole("textbox", { name: "Identity value" })).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByRole("textbox", { name: "Identity value" })).toBeFocused();
    expect(posts).toBe(0);

    await form.getByRole("textbox", { name: "Identity value" }).fill(`E2E-${stamp}`);
    await form.getByRole("textbox", { name: "Display name (optional)" }).fill("会员号");
    await form.getByRole("button", { name: "Add identity" }).click();
    await expect(section.getByRole("table")).toContainText(`E2E-${stamp}`);
    await expect(section.getByRole("table")).toContainText("会员号");
    await expect(form.getByRole("textbox", { name: "Identity value" })).toHaveValue("");
    const identities = (await platformGet("/v1/customeridentities", { customerIds: id }, sandbox.token)) as Identity[];
    expect(identities.map((i) => [i.identityType, i.identityValue, i.identityName])).toEqual([["crm-e2e", `E2E-${stamp}`, "会员号"]]);

    // The same identity again: said on the field, nothing sent.
    const before = posts;
    await form.getByLabel("Identity type").selectOption("custom");
    await form.getByRole("textbox", { name: "Custom type name" }).fill("crm-e2e");
    await form.getByRole("textbox", { name: "Identity value" }).fill(`E2E-${stamp}`);
    await form.getByRole("button", { name: "Add identity" }).click();
    await expect(form.getByText("This customer already has this identity.")).toBeVisible();
    expect(posts).toBe(before);

    // Bound to another customer: the platform refuses; the form says so and nothing moves.
    await form.getByRole("textbox", { name: "Identity value" }).fill(`TAKEN-${stamp}`);
    await form.getByRole("button", { name: "Add identity" }).click();
    await expect(form.getByRole("alert")).toContainText("The identity was not added.");
    const owner = (await platformGet("/v1/customeridentities", { identityType: "crm-e2e", identityValue: `TAKEN-${stamp}` }, sandbox.token)) as Identity[];
    expect(owner.map((i) => String(i.customerId))).toEqual([String(other.id)]);
    // axe last (the frame is not driven after it): the open form with its platform error.
    await expectAccessible(page, { include: APP_FRAME });
    await attachScreenshot(page, "add-identity-en");
  });

  test("Find by MD5 from the list: bad input refused, found links to the customer, not found said in words", async ({ page }) => {
    const mobile = `137${String(Date.now()).slice(-8)}`;
    const customer = await platformSend("POST", "/v1/customerandidentities", { customer: { name: `Md5 ${stamp}`, mobile }, customerIdentities: [{ identityType: "mobile", identityValue: mobile }] }, sandbox.token);
    const id = String(customer.id);
    const onPlatform = (await platformGet("/v1/customerService/getCustomerIdentityByMd5", { md5type: "common", md5value: md5(mobile) }, sandbox.token)) as { customerIdStr: string };
    expect(onPlatform.customerIdStr).toBe(id);

    const frame = await openInAdmin(page, "/customers?lang=en");
    await frame.getByRole("link", { name: "Find by MD5" }).click();
    await expect(frame.getByRole("heading", { level: 1, name: "Find a customer by MD5 identity" })).toBeVisible();
    await frame.getByRole("textbox", { name: "MD5 value" }).fill(mobile);
    await frame.getByRole("button", { name: "Find" }).click();
    await expect(frame.getByText("An MD5 is 32 characters, 0–9 and a–f.")).toBeVisible();

    await frame.getByRole("textbox", { name: "MD5 value" }).fill(md5(mobile).toUpperCase());
    await frame.getByRole("button", { name: "Find" }).click();
    const found = frame.getByTestId("md5-found");
    await expect(found).toContainText(id);
    await expect(found).toContainText(mobile);

    await frame.getByLabel("MD5 type").selectOption("marketplace");
    await frame.getByRole("button", { name: "Find" }).click();
    await expect(frame.getByTestId("md5-not-found")).toHaveText("Not found: no customer has this MD5 identity.");

    await frame.getByLabel("MD5 type").selectOption("common");
    await frame.getByRole("button", { name: "Find" }).click();
    await found.getByRole("link", { name: new RegExp(`^Open customer (Md5 ${stamp} \\(${id}\\)|${id})$`) }).click();
    await expect(frame.getByRole("heading", { level: 1 })).toHaveText(`Md5 ${stamp}`);
  });

  test("with a session cookie every detail section arrives with the HTML (server prefetch), no browser call", async ({ page }) => {
    const customer = await platformSend("POST", "/v1/customerandidentities", { customer: { name: `Pre ${stamp}` }, customerIdentities: [{ identityType: "crm-e2e", identityValue: `PRE-${stamp}` }] }, sandbox.token);
    const id = String(customer.id);
    await platformSend("POST", "/v1/customerevents", { customerId: id, event: "c_e2e_visit", targetName: `Event ${stamp}`, date: iso(Date.now() - 60_000) }, sandbox.token);
    await platformSend("POST", "/v1/deals", { customerId: id, orderNo: `PRE-${stamp}`, amountPaid: 10, amountTotal: 12, dateOrder: iso(Date.now() - 3_600_000), lines: [{ lineId: "1", productName: "茶", qty: 1, priceUnit: 12, priceSubTotal: 12 }] }, sandbox.token);
    await platformSend("POST", "/v1/tagservice/addCustomerTag", { customerId: id, tags: [{ name: `pre-${stamp}` }] }, sandbox.token);

    const url = `${e2eUrls.app}/customers/${id}?openAppId=${ALPHA.openAppId}&lang=en`;
    // First visit: authorization in this tab sets the session cookie; the measured load is the next one.
    await page.goto(url);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Pre ${stamp}`, { timeout: 20_000 });
    expect((await page.context().cookies(e2eUrls.app)).length).toBeGreaterThan(0);
    // The setup's webhooks must have reached the app first: a delivery during the measured load
    // rightly makes the console refetch what it changed.
    await expect
      .poll(async () => {
        const pending = await Promise.all(["pending", "retrying"].map(async (status) => ((await (await fetch(`${ALPHA.origin}/__sandbox/webhooks/deliveries?status=${status}`)).json()) as { deliveries: unknown[] }).deliveries.length));
        return pending[0]! + pending[1]!;
      })
      .toBe(0);
    // The document itself carries every section (rendered from the prefetched answers).
    const html = await (await page.request.get(url)).text();
    for (const text of [`Pre ${stamp}`, `PRE-${stamp}`, `pre-${stamp}`, "c_e2e_visit", "Not in any list."]) expect(html, text).toContain(text);
    const calls: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/platform/")) calls.push(r.url());
    });
    // The shell's first activity poll comes after every mount effect (where a fetch would start).
    const settled = page.waitForRequest((r) => r.url().includes("/api/activity"));
    await page.goto(url);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Pre ${stamp}`);
    await expect(page.getByRole("region", { name: "Identities" }).getByRole("table")).toContainText(`PRE-${stamp}`);
    await expect(page.getByTestId("customer-tags")).toContainText(`pre-${stamp}`);
    await expect(page.getByRole("region", { name: "Lists" })).toContainText("Not in any list.");
    await expect(page.getByTestId("customer-events")).toContainText("c_e2e_visit");
    await expect(page.getByTestId("customer-orders")).toContainText(`PRE-${stamp}`);
    await expect(page.getByRole("region", { name: "Statistics" }).locator("dl, p")).not.toHaveCount(0);
    await settled;
    expect(calls).toEqual([]);
  });
});
