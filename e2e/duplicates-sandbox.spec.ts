import { expect, test, type FrameLocator, type Page } from "@playwright/test";
import { APP_FRAME, openInAdmin } from "./support/admin-frame";
import { axeScan } from "./support/a11y";
import { platformCall } from "./support/sandbox-api";
import { ALPHA } from "./support/sandbox-login";
import { sandboxSuite } from "./support/suite";

/**
 * The duplicates queue in the admin's 1024-px iframe, on a sandbox seeded with planted duplicates
 * (`POST /__sandbox/seed/duplicates`): the queue shows them with their reasons; a merge removes the
 * source on the platform and the pair from the queue; "not the same person" sticks across a re-scan;
 * a bulk merge of one rule completes and its history lists each merge; axe finds nothing in English
 * and Chinese.
 */

type Planted = { tenantId: number; rule: string; originalId: string; duplicateId: string };

test.describe.serial("duplicates queue", () => {
  const sandbox = sandboxSuite({ reset: { customers: 60 }, window: { width: 1024, height: 800 } });
  let planted: Planted[] = [];

  test.beforeAll(async ({ request }) => {
    const answer = await request.post(`${ALPHA.origin}/__sandbox/seed/duplicates`, { data: { perRule: 2 } });
    expect(answer.ok()).toBe(true);
    planted = ((await answer.json()) as { planted: Planted[] }).planted.filter((p) => String(p.tenantId) === "80000000001");
    expect(planted.length).toBe(8);
  });

  const clusterOf = (frame: FrameLocator, p: Planted) => frame.getByTestId("duplicate-cluster").filter({ hasText: `(${p.originalId})` }).filter({ hasText: `(${p.duplicateId})` });

  /** The queue, opened again until the index and the whole-tenant pass have found the planted pair. */
  async function queueShowing(page: Page, p: Planted, lang = "en"): Promise<FrameLocator> {
    let frame!: FrameLocator;
    await expect(async () => {
      frame = await openInAdmin(page, `/duplicates?lang=${lang}`);
      await expect(clusterOf(frame, p)).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout: 90_000 });
    return frame;
  }

  test("the queue shows the planted duplicates with their reasons; axe finds nothing in English and Chinese", async ({ page }) => {
    const frame = await queueShowing(page, planted[0]!);
    const reasons: Record<string, string> = { mobile: "Same mobile", email: "Same email", nameMobile8: "Same name and mobile's last 8 digits", nameBirthday: "Same name and birthday" };
    for (const p of planted) await expect(clusterOf(frame, p).getByTestId("duplicate-cluster-reasons")).toContainText(reasons[p.rule]!);
    await expect(frame.getByRole("navigation").getByTestId("nav-duplicates-count")).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect((await axeScan(page, APP_FRAME)).violations.map((v) => v.id)).toEqual([]);

    const zh = await queueShowing(page, planted[0]!, "zh-CN");
    await expect(zh.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(clusterOf(zh, planted.find((p) => p.rule === "mobile")!)).toContainText("相同手机号");
    await zh.getByRole("button", { name: `审核客户 ${planted[0]!.originalId}`, exact: false }).first().click();
    await expect(zh.getByTestId("duplicate-compare")).toBeVisible({ timeout: 20_000 });
    await page.waitForLoadState("networkidle");
    expect((await axeScan(page, APP_FRAME)).violations.map((v) => v.id)).toEqual([]);
  });

  test("merge removes the source on the platform and the pair from the queue", async ({ page }) => {
    const p = planted.find((x) => x.rule === "mobile")!;
    const frame = await queueShowing(page, p);
    await clusterOf(frame, p).getByRole("button", { name: "Review" }).click();
    const review = frame.getByTestId("duplicate-review");
    await expect(review.getByTestId("duplicate-compare")).toBeVisible({ timeout: 20_000 });
    await expect(review.getByTestId("duplicate-reasons")).toContainText("Same mobile");
    await expect(review.locator('tr[data-differs="true"]').first()).toBeVisible();
    await review.getByRole("button", { name: `Merge ${p.duplicateId} into ${p.originalId}` }).click();
    await expect(clusterOf(frame, p)).toHaveCount(0, { timeout: 20_000 });
    expect((await platformCall("GET", `/v1/customers/${p.duplicateId}`, sandbox.token)).status).toBe(404);
    await expect(frame.getByTestId("duplicate-history")).toContainText(`${p.duplicateId} → ${p.originalId}`);
    // The merge is in the audit log, found by the deleted customer's id.
    const audit = await openInAdmin(page, `/audit?target=${p.duplicateId}`);
    await expect(audit.getByTestId("audit-table")).toContainText("duplicates.merge");
  });

  test("'not the same person' sticks across a re-scan", async ({ page }) => {
    const p = planted.find((x) => x.rule === "nameBirthday")!;
    const frame = await queueShowing(page, p);
    await clusterOf(frame, p).getByRole("button", { name: "Review" }).click();
    await frame.getByTestId("duplicate-review").getByRole("button", { name: "Not the same person" }).click();
    await expect(clusterOf(frame, p)).toHaveCount(0, { timeout: 20_000 });
    await frame.getByRole("button", { name: "Scan all customers again" }).click();
    await expect(frame.getByTestId("duplicates-scan-status")).toContainText("complete", { timeout: 60_000 });
    const again = await queueShowing(page, planted.find((x) => x.rule === "email")!);
    await expect(clusterOf(again, p)).toHaveCount(0);
  });

  test("bulk merge of one rule: dry run, then every merge in the run's history", async ({ page }) => {
    const emails = planted.filter((x) => x.rule === "email");
    const frame = await queueShowing(page, emails[0]!);
    const bulk = frame.getByTestId("duplicate-bulk");
    await bulk.getByLabel("Rule").selectOption("email");
    await bulk.getByRole("button", { name: "Show what would be merged" }).click();
    const plan = bulk.getByTestId("duplicate-plan");
    for (const p of emails) await expect(plan).toContainText(p.duplicateId);
    await plan.getByRole("button", { name: /^Merge \d+ customers?$/ }).click();
    await expect(bulk.getByTestId("duplicate-bulk-run")).toContainText("Done:", { timeout: 60_000 });
    const rows = bulk.getByTestId("duplicate-run-history").getByTestId("duplicate-history-row");
    for (const p of emails) await expect(rows.filter({ hasText: `${p.duplicateId} → ${p.originalId}` })).toContainText("Merged");
    for (const p of emails) expect((await platformCall("GET", `/v1/customers/${p.duplicateId}`, sandbox.token)).status).toBe(404);
  });
});
