import { createHash } from "node:crypto";
import { expect, test, type FrameLocator, type Locator } from "@playwright/test";
import { axeScan } from "./support/a11y";
import { APP_FRAME, openInAdmin } from "./support/admin-frame";
import { platformSend } from "./support/sandbox-api";
import { attachScreenshot } from "./support/screenshots";
import { sandboxSuite } from "./support/suite";

/**
 * Accessibility and screenshots sweep of the console shell and the customer pages, as staff see
 * them: each page is a fresh load of the sandbox admin with the console in its iframe (1024 px),
 * in English and Simplified Chinese. axe (WCAG 2.1 AA tags) must find nothing inside the frame,
 * and a full-page screenshot of each is attached to the report. axe runs last on each load (after
 * an axe run the frame is not driven any further).
 */

type Sweep = { name: string; path: (ids: Ids) => string; ready: (frame: FrameLocator, ids: Ids) => Locator };
type Ids = { customer: string; name: string; md5: string };

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19) + "Z";

const PAGES: Sweep[] = [
  { name: "home", path: () => "/", ready: (f) => f.getByRole("heading", { level: 1 }) },
  { name: "customers-list", path: () => "/customers", ready: (f) => f.locator("tbody tr").first() },
  { name: "customers-no-results", path: () => "/customers?source=no-such-source-zz", ready: (f) => f.getByTestId("customers-no-results") },
  { name: "customer-detail", path: (ids) => `/customers/${ids.customer}`, ready: (f) => f.getByTestId("customer-orders") },
  { name: "customer-new", path: () => "/customers/new", ready: (f) => f.getByTestId("identity-row-0") },
  { name: "customer-edit", path: (ids) => `/customers/${ids.customer}/edit`, ready: (f, ids) => f.getByRole("heading", { level: 1, name: new RegExp(ids.name) }) },
  { name: "customer-merge", path: (ids) => `/customers/merge?fromId=${ids.customer}`, ready: (f) => f.getByRole("heading", { level: 1 }) },
  { name: "customer-lookup", path: () => "/customers/lookup", ready: (f) => f.getByRole("heading", { level: 1 }) },
  { name: "customer-lookup-found", path: (ids) => `/customers/lookup?md5value=${ids.md5}`, ready: (f) => f.getByTestId("md5-found") },
  { name: "settings", path: () => "/settings", ready: (f) => f.getByRole("heading", { level: 1 }) },
  { name: "activity", path: () => "/activity", ready: (f) => f.getByRole("heading", { level: 1 }) },
];

test.describe.serial("console accessibility sweep through the sandbox admin", () => {
  const ids: Ids = { customer: "", name: "", md5: "" };
  const sandbox = sandboxSuite({ window: { width: 1280, height: 900 } });

  test.beforeAll(async () => {
    const stamp = Date.now().toString(36);
    ids.name = `A11y ${stamp}`;
    const mobile = `136${String(Date.now()).slice(-8)}`;
    ids.md5 = createHash("md5").update(mobile).digest("hex");
    const customer = await platformSend(
      "POST",
      "/v1/customerandidentities",
      {
        customer: { name: ids.name, email: `a11y-${stamp}@example.test`, mobile },
        customerIdentities: [
          { identityType: "crm-a11y", identityValue: `A-${stamp}`, identityName: "会员号" },
          { identityType: "mobile", identityValue: mobile },
        ],
      },
      sandbox.token,
    );
    ids.customer = String(customer.id);
    await platformSend("POST", "/v1/customerevents", { customerId: ids.customer, event: "c_a11y", targetName: "页面", date: iso(Date.now() - 60_000) }, sandbox.token);
    await platformSend("POST", "/v1/deals", { customerId: ids.customer, orderNo: `A11Y-${stamp}`, amountPaid: 10, amountTotal: 12, dateOrder: iso(Date.now() - 3_600_000), lines: [{ lineId: "1", productName: "茶", qty: 1, priceUnit: 12, priceSubTotal: 12 }] }, sandbox.token);
    await platformSend("POST", "/v1/tagservice/addCustomerTag", { customerId: ids.customer, tags: [{ name: "vip" }] }, sandbox.token);
  });

  for (const sweep of PAGES) {
    test(`${sweep.name}: axe finds nothing in English and Chinese; screenshots attached`, async ({ page }) => {
      for (const locale of ["en", "zh-CN"] as const) {
        const path = sweep.path(ids);
        const frame = await openInAdmin(page, `${path}${path.includes("?") ? "&" : "?"}lang=${locale}`);
        await expect(sweep.ready(frame, ids).first()).toBeVisible({ timeout: 20_000 });
        await expect(frame.locator("html")).toHaveAttribute("lang", locale === "en" ? "en" : "zh-CN");
        // Nothing still loading: the page is seen as a person sees it once it settled.
        await page.waitForLoadState("networkidle");
        const results = await axeScan(page, APP_FRAME);
        // The admin's iframe is as tall as the window: a tall window shows the whole console page.
        await page.setViewportSize({ width: 1280, height: 2400 });
        await attachScreenshot(page, `${sweep.name}-${locale}`);
        await page.setViewportSize({ width: 1280, height: 900 });
        expect(
          results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => `${n.target.join(" ")} ${n.failureSummary ?? ""}`).join(" | ")}`),
          `${sweep.name} ${locale}`,
        ).toEqual([]);
      }
    });
  }
});
