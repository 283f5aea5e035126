import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { csvRecord, UTF8_BOM } from "../lib/csv";
import { parseCsv } from "../lib/events/csv";
import { e2eUrls } from "../scripts/testing/e2e-env";
import { expectAccessible } from "./support/a11y";
import { APP_FRAME, appFrame, customerIdsOnScreen as idsOnScreen, openArea } from "./support/admin-frame";
import { platformGet } from "./support/sandbox-api";
import { ALPHA } from "./support/sandbox-login";
import { attachScreenshot } from "./support/screenshots";
import { sandboxSuite } from "./support/suite";

/**
 * Deep browsing and CSV export of the customers list through the real chain: sandbox marketplace
 * → the console in the admin's iframe → the app (proxy; the export as a background task, its file
 * from the tasks route) → the sandbox API. Results
 * are checked against the sandbox API itself.
 */

type Row = { id: string; [key: string]: unknown };
const COLUMNS = ["id", "displayName", "mobile", "email", "stage", "source", "dateCreated", "lastUpdated"];
const FEMALE = "2";

const frameQuery = (page: Page) => new URL(appFrame(page).url()).searchParams;

test.describe.serial("customers: keyset paging and CSV export through the sandbox", () => {
  // About half are female: enough for several pages of 20 under the filter.
  const sandbox = sandboxSuite({ reset: { customers: 240 }, window: { width: 1280, height: 900 } });
  const ids = async (query: Record<string, string>) => ((await platformGet("/v1/customers", { rows: "20", select: "id", ...query }, sandbox.token)) as { rows: Row[] }).rows.map((r) => r.id);

  test("pages forward and back by keyset under a filter: the cursor is in the URL, the rows are the platform's", async ({ page }) => {
    const frame = await openArea(page, "Customers");
    await frame.getByRole("search").getByLabel("Gender").selectOption(FEMALE);
    const page1 = await ids({ gender: FEMALE });
    expect(page1).toHaveLength(20);
    await expect.poll(() => idsOnScreen(frame)).toEqual(page1);
    const historyLength = await page.evaluate(() => history.length);

    // Next: the rows after the last id shown (idFrom = last + 1), page=1 on the wire, page 2 on screen.
    await frame.getByRole("button", { name: "Next page" }).click();
    const page2 = await ids({ gender: FEMALE, idFrom: String(BigInt(page1.at(-1)!) + 1n) });
    await expect.poll(() => idsOnScreen(frame)).toEqual(page2);
    expect(Object.fromEntries(frameQuery(page))).toMatchObject({ gender: FEMALE, page: "2", after: page1.at(-1) });
    await expect(frame.getByText(/^Page 2 of \d+$/)).toBeVisible();
    // The same rows as the offset page 2.
    expect(page2).toEqual(await ids({ gender: FEMALE, page: "2" }));

    await frame.getByRole("button", { name: "Next page" }).click();
    const page3 = await ids({ gender: FEMALE, idFrom: String(BigInt(page2.at(-1)!) + 1n) });
    await expect.poll(() => idsOnScreen(frame)).toEqual(page3);
    expect(Object.fromEntries(frameQuery(page))).toMatchObject({ page: "3", after: page2.at(-1) });

    // Previous: the rows before the first id shown, read backwards and shown in order.
    await frame.getByRole("button", { name: "Previous page" }).click();
    await expect.poll(() => idsOnScreen(frame)).toEqual(page2);
    expect(Object.fromEntries(frameQuery(page))).toMatchObject({ page: "2", before: page3[0] });

    await frame.getByRole("button", { name: "Previous page" }).click();
    await expect.poll(() => idsOnScreen(frame)).toEqual(page1);
    const query = frameQuery(page);
    expect(query.has("page") || query.has("after") || query.has("before")).toBe(false);
    // The URL was replaced, never pushed (the platform admin's history stays as it was).
    expect(await page.evaluate(() => history.length)).toBe(historyLength);

    // A reload of a keyset URL shows the same page (the cursor is the state).
    await appFrame(page).goto(`${e2eUrls.app}/customers?openAppId=${ALPHA.openAppId}&gender=${FEMALE}&page=3&after=${page2.at(-1)}`);
    await expect.poll(() => idsOnScreen(frame)).toEqual(page3);
  });

  test("the export is a background task: it completes though the page is reloaded, and downloads the CSV the platform's rows make", async ({ page }) => {
    let frame = await openArea(page, "Customers");
    await frame.getByRole("search").getByLabel("Gender").selectOption(FEMALE);
    await expect(frame.getByText(/^\d+ customers$/)).toBeVisible();
    const total = (await platformGet("/v1/customers/count", { gender: FEMALE }, sandbox.token)) as number;
    const expected = ((await platformGet("/v1/customers", { gender: FEMALE, rows: "1000", select: COLUMNS.join(",") }, sandbox.token)) as { rows: Row[] }).rows;
    expect(expected).toHaveLength(total);

    await frame.getByRole("button", { name: "Export CSV" }).click();
    await expect(frame.getByTestId("customer-export")).toContainText("Export started.");
    // The tab goes away (a reload of the whole admin page); the export goes on on the server.
    await page.reload();
    frame = await openArea(page, "Customers");
    const row = frame.getByTestId("customer-export-tasks").getByTestId("task-row").first();
    await expect(row).toHaveAttribute("data-state", "done", { timeout: 30_000 });
    await expect(row).toContainText(`${total} of ${total}`);

    const downloading = page.waitForEvent("download");
    await row.getByRole("button", { name: /^Download customers-\d{4}-\d{2}-\d{2}\.csv$/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = await readFile((await download.path())!);

    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    const records = parseCsv(text.slice(1));
    expect(records[0]).toEqual(["id", "displayName", "mobile", "email", "stage", "source", "dateCreated (UTC)", "lastUpdated (UTC)"]);
    expect(records.slice(1).map((r) => r[0])).toEqual(expected.map((r) => r.id));
    // Byte for byte what the platform's rows make (UTC times as sent, Chinese text, guarded formulas).
    expect(text).toBe(UTF8_BOM + csvRecord(records[0]!) + expected.map((r) => csvRecord(COLUMNS.map((c) => r[c]))).join(""));
    expect(text).toMatch(/[\u4e00-\u9fff]/);
    await attachScreenshot(page, "customers-export-done");
  });

  for (const locale of ["en", "zh-CN"] as const) {
    test(`axe finds nothing with the export's task shown (${locale})`, async ({ page }) => {
      const frame = await openArea(page, "Customers");
      if (locale === "zh-CN") {
        await frame.getByLabel("Language").first().selectOption("zh-CN");
        await expect(frame.getByRole("heading", { level: 1, name: "客户" })).toBeVisible();
      }
      await frame.getByRole("button", { name: locale === "en" ? "Export CSV" : "导出 CSV" }).click();
      await expect(frame.getByTestId("customer-export")).toContainText(locale === "en" ? "Export started." : "导出已开始");
      await expect(frame.getByTestId("customer-export-tasks").getByTestId("task-row").first()).toHaveAttribute("data-state", "done", { timeout: 30_000 });
      await expect(frame.getByTestId("customer-export-tasks")).toContainText(locale === "en" ? "Customers export (CSV)" : "客户导出（CSV）");
      await attachScreenshot(page, `customers-export-task-${locale}`);
      // Axe last: after it the frame may stop taking clicks.
      await expectAccessible(page, { include: APP_FRAME });
    });
  }
});
