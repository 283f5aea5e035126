import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Frame, type FrameLocator, type Page } from "@playwright/test";
import { csvRecord, UTF8_BOM } from "../lib/csv";
import { parseCsv } from "../lib/events/csv";
import { e2eUrls } from "../scripts/testing/e2e-env";
import { ALPHA, installAlpha, marketUrl, platformGet, sandboxToken } from "./support/sandbox-login";

/**
 * Deep browsing and CSV export of the customers list through the real chain: sandbox marketplace
 * → the console in the admin's iframe → the app (proxy, export route) → the sandbox API. Results
 * are checked against the sandbox API itself.
 */

type Row = { id: string; [key: string]: unknown };
const COLUMNS = ["id", "displayName", "mobile", "email", "stage", "source", "dateCreated", "lastUpdated"];
const FEMALE = "2";

async function openConsoleInFrame(page: Page): Promise<FrameLocator> {
  await page.goto(marketUrl(ALPHA.origin));
  await page.getByRole("region", { name: "Engage Console" }).getByRole("link", { name: "Open" }).click();
  const frame = page.frameLocator('iframe[title="Engage Console"]');
  await frame.getByRole("navigation").getByRole("link", { name: "Customers" }).click();
  await expect(frame.getByRole("heading", { level: 1, name: "Customers" })).toBeVisible({ timeout: 20_000 });
  return frame;
}

const appFrame = (page: Page): Frame => page.frames().find((f) => f.url().startsWith(e2eUrls.app))!;
const frameQuery = (page: Page) => new URL(appFrame(page).url()).searchParams;
// The first column is the bulk selection checkbox; the id is the second.
const idsOnScreen = async (frame: FrameLocator) => (await frame.locator("tbody tr td:nth-child(2)").allTextContents()).map((s) => s.trim());

test.describe.serial("customers: keyset paging and CSV export through the sandbox", () => {
  let token: string;
  const ids = async (query: Record<string, string>) => ((await platformGet("/v1/customers", { rows: "20", select: "id", ...query }, token)) as { rows: Row[] }).rows.map((r) => r.id);

  test.beforeAll(async ({ request }) => {
    expect((await request.post(`${ALPHA.origin}/__sandbox/reset`)).ok()).toBe(true);
    // About half are female: enough for several pages of 20 under the filter.
    expect((await request.post(`${ALPHA.origin}/__sandbox/seed`, { data: { customers: 240 } })).ok()).toBe(true);
    token = await sandboxToken();
  });

  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await installAlpha(page);
  });

  test("pages forward and back by keyset under a filter: the cursor is in the URL, the rows are the platform's", async ({ page }) => {
    const frame = await openConsoleInFrame(page);
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

  test("exports the filtered customers as the CSV the platform's rows make (Blob download in the iframe)", async ({ page }) => {
    const frame = await openConsoleInFrame(page);
    await frame.getByRole("search").getByLabel("Gender").selectOption(FEMALE);
    await expect(frame.getByText(/^\d+ customers$/)).toBeVisible();
    const total = (await platformGet("/v1/customers/count", { gender: FEMALE }, token)) as number;
    const expected = ((await platformGet("/v1/customers", { gender: FEMALE, rows: "1000", select: COLUMNS.join(",") }, token)) as { rows: Row[] }).rows;
    expect(expected).toHaveLength(total);

    const downloading = page.waitForEvent("download");
    await frame.getByRole("button", { name: "Export CSV" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = await readFile((await download.path())!);
    await expect(frame.getByTestId("customer-export")).toContainText(`Exported ${total} rows`);

    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    const records = parseCsv(text.slice(1));
    expect(records[0]).toEqual(["id", "displayName", "mobile", "email", "stage", "source", "dateCreated (UTC)", "lastUpdated (UTC)"]);
    expect(records.slice(1).map((r) => r[0])).toEqual(expected.map((r) => r.id));
    // Byte for byte what the platform's rows make (UTC times as sent, Chinese text, guarded formulas).
    expect(text).toBe(UTF8_BOM + csvRecord(records[0]!) + expected.map((row) => csvRecord(COLUMNS.map((c) => row[c]))).join(""));
    expect(text).toMatch(/[\u4e00-\u9fff]/);
    await test.info().attach("customers-export-done", { body: await page.screenshot({ fullPage: true, path: test.info().outputPath("customers-export-done.png") }), contentType: "image/png" });
  });

  test("shows progress while exporting and cancels (nothing saved)", async ({ page }) => {
    const frame = await openConsoleInFrame(page);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/export/customers**", async (route) => {
      await gate;
      await route.continue().catch(() => undefined);
    });
    await frame.getByRole("button", { name: "Export CSV" }).click();
    await expect(frame.getByRole("progressbar", { name: "Export progress" })).toBeVisible();
    await expect(frame.getByTestId("customer-export-progress")).toHaveText(/^0 of [\d,]+ rows exported$/);
    await frame.getByRole("button", { name: "Cancel export" }).click();
    await expect(frame.getByTestId("customer-export")).toContainText("Export cancelled; nothing was saved.");
    await expect(frame.getByRole("button", { name: "Export CSV" })).toBeVisible();
    release();
  });

  for (const locale of ["en", "zh-CN"] as const) {
    test(`axe finds nothing with the export's progress shown (${locale})`, async ({ page }) => {
      const frame = await openConsoleInFrame(page);
      if (locale === "zh-CN") {
        await frame.getByLabel("Language").first().selectOption("zh-CN");
        await expect(frame.getByRole("heading", { level: 1, name: "客户" })).toBeVisible();
      }
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      await page.route("**/api/export/customers**", async (route) => {
        await gate;
        await route.abort().catch(() => undefined);
      });
      await frame.getByRole("button", { name: locale === "en" ? "Export CSV" : "导出 CSV" }).click();
      await expect(frame.getByRole("progressbar")).toBeVisible();
      await test.info().attach(`customers-export-progress-${locale}`, {
        body: await page.screenshot({ fullPage: true, path: test.info().outputPath(`customers-export-progress-${locale}.png`) }),
        contentType: "image/png",
      });
      // Axe last: after it the frame may stop taking clicks.
      const results = await new AxeBuilder({ page }).include('iframe[title="Engage Console"]').withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
      release();
    });
  }
});
