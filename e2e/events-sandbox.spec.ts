import { readFile } from "node:fs/promises";
import { expect, test, type Frame, type Page } from "@playwright/test";
import { parseCsv } from "../lib/events/csv";
import { e2eUrls } from "../scripts/testing/e2e-env";
import { expectAccessible } from "./support/a11y";
import { appFrame, appUrl, consoleFrameAt, horizontalOverflow, openFromMarket } from "./support/admin-frame";
import { platformGet } from "./support/sandbox-api";
import { ALPHA } from "./support/sandbox-login";
import { attachScreenshot } from "./support/screenshots";
import { sandboxSuite } from "./support/suite";

/**
 * Events through the real chain: sandbox marketplace → the console in the admin's iframe → the app's
 * proxy → the sandbox API (§4.3). Recording a custom event on a customer, and importing a CSV as a
 * background task (the file uploaded to the app, its rows sent by the app with the installation's
 * token through batchPushEvents) with bad rows and injected 503s, going on through a reload,
 * stopped from the tasks panel; results are checked against the sandbox API.
 */

type Row = { id: string; [key: string]: unknown };

/** `YYYY-MM-DD HH:MM:SS` in UTC+8, the format the import documents. */
const homeTime = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 19).replace("T", " ");

async function faults(list: unknown[]) {
  const response = await fetch(`${ALPHA.origin}/__sandbox/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ faults: list }) });
  expect(response.ok).toBe(true);
}

test.describe.serial("events through the sandbox", () => {
  const sandbox = sandboxSuite({ reset: { customers: 20 }, window: { width: 1280, height: 900 } });
  let customerId: string;
  const events = async (query: Record<string, string>) => (await platformGet("/v1/customerevents", { max: "1000", ...query }, sandbox.token)) as Row[];

  test.beforeAll(async () => {
    customerId = ((await platformGet("/v1/customers", { rows: "1", select: "id" }, sandbox.token)) as { rows: Row[] }).rows[0]!.id;
    expect(BigInt(customerId) > 2n ** 53n).toBe(true);
  });

  test("record a custom c_ event on a customer; the same external id is not stored twice", async ({ page }) => {
    const frame = await consoleFrameAt(page, `/customers/${customerId}`);
    await frame.getByTestId("record-event-open").click();
    const dialog = frame.getByRole("dialog", { name: "Record an event" });
    await dialog.getByLabel("Event type").selectOption("custom");
    // A custom id must start with c_: refused before sending.
    await dialog.getByLabel("Custom event id").fill("test_drive");
    await dialog.getByRole("button", { name: "Record event" }).click();
    await expect(dialog.getByText(/a custom event id starts with c_/)).toBeVisible();
    await dialog.getByLabel("Custom event id").fill("c_test_drive");
    await dialog.getByLabel("Target name").fill("试驾 X1");
    await dialog.getByRole("button", { name: "Add a property" }).click();
    await dialog.getByLabel("Property 1 name").fill("carModel");
    await dialog.getByLabel("Property 1 value").fill("X1");
    await dialog.getByRole("button", { name: "Add a property" }).click();
    await dialog.getByLabel("Property 2 name").fill("price");
    await dialog.getByLabel("Property 2 kind").selectOption("money");
    await dialog.getByLabel("Property 2 value").fill("¥199");
    await expect(dialog.getByText("Used: 1 of 40 text, 0 of 3 numeric, 1 of 10 money.", { exact: false })).toBeVisible();
    await dialog.getByRole("button", { name: "Record event" }).click();
    await expect(dialog.getByText(/Enter a number such as 19.90/)).toBeVisible();
    await dialog.getByLabel("Property 2 value").fill("199.50");
    await dialog.getByLabel("My own id decides").check();
    await dialog.getByLabel("External id").fill("td-e2e-1");
    await attachScreenshot(page, "record-event-form");
    await dialog.getByRole("button", { name: "Record event" }).click();
    await expect(frame.getByTestId("record-event-outcome")).toContainText("Event recorded");
    await expect(frame.getByTestId("customer-events")).toContainText("c_test_drive");
    await expect(frame.getByTestId("customer-events")).toContainText("试驾 X1");

    const stored = await events({ customerId, event: "c_test_drive" });
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ event: "c_test_drive", targetName: "试驾 X1", carModel: "X1", price: 199.5, externalId: "td-e2e-1", customerId });

    // §2.3: the same external id again → the platform answers the stored event; the console says so.
    await frame.getByTestId("record-event-open").click();
    await dialog.getByLabel("Event type").selectOption("custom");
    await dialog.getByLabel("Custom event id").fill("c_test_drive");
    await dialog.getByLabel("My own id decides").check();
    await dialog.getByLabel("External id").fill("td-e2e-1");
    await dialog.getByRole("button", { name: "Record event" }).click();
    await expect(frame.getByTestId("record-event-outcome")).toContainText("The platform already had this event");
    expect(await events({ customerId, event: "c_test_drive" })).toHaveLength(1);
    await attachScreenshot(page, "customer-events");
  });

  test("import a CSV with bad rows as a background task: preview, one task for a double click, 503s retried, goes on through a reload, counts, failure report", async ({ page }) => {
    const base = Date.now() - 86_400_000;
    const header = "identityType,identityValue,event,date,targetName,visits:number,price:money";
    const bad = new Map<number, { cells: string; reason: RegExp }>([
      [7, { cells: `crm-e2e,E-7,open_page,yesterday,x,,`, reason: /^date:/ }],
      [50, { cells: `crm-e2e,E-0,c_${"x".repeat(40)},${homeTime(base)},x,,`, reason: /^event: At most 32/ }],
      [120, { cells: `crm-e2e,E-0,c_import,${homeTime(base)},x,many,`, reason: /^visits:number: Enter a whole number/ }],
      [233, { cells: `crm-e2e,,open_page,${homeTime(base)},x,,`, reason: /^identityValue: Required/ }],
      [301, { cells: `crm-e2e,E-1,c_import,${homeTime(base)},x,1,¥5`, reason: /^price:money: Enter a number/ }],
      [402, { cells: `crm-e2e,E-2,open_page,${homeTime(base)},x,3,`, reason: /^visits:number: Only custom/ }],
      [455, { cells: `crm-e2e,E-3,open_page,2026-02-30 10:00:00,x,,`, reason: /^date:/ }],
      [500, { cells: `crm-e2e,E-4,open page,${homeTime(base)},x,,`, reason: /^event:/ }],
      [555, { cells: `,E-5,open_page,${homeTime(base)},x,,`, reason: /^identityType: Required/ }],
      [599, { cells: `crm-e2e,E-6,c_import,${homeTime(base)},x,,1e3`, reason: /^price:money:/ }],
    ]);
    const expected = new Map<string, number>();
    const lines = [header];
    for (let i = 0; i < 600; i++) {
      const b = bad.get(i);
      if (b) {
        lines.push(b.cells);
        continue;
      }
      const who = `E-${i % 10}`;
      expected.set(who, (expected.get(who) ?? 0) + 1);
      const custom = i % 2 === 1;
      lines.push(`crm-e2e,${who},${custom ? "c_import" : "open_page"},${homeTime(base + i * 1000)},"页面 ${i}, ""引号""",${custom ? i % 7 : ""},${custom ? "9.90" : ""}`);
    }
    const csv = `\uFEFF${lines.join("\r\n")}\r\n`;

    let frame = await consoleFrameAt(page, "");
    await frame.getByRole("navigation").getByRole("link", { name: "Events" }).click();
    await expect(frame.getByRole("heading", { level: 1, name: "Events" })).toBeVisible();
    await frame.getByTestId("events-file").setInputFiles({ name: "events.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    const preview = frame.getByTestId("events-preview");
    await expect(preview.locator("tbody tr")).toHaveCount(20);
    // Row 9 of the file (index 7) is bad: shown with its reason; the quoted Chinese cell reads back whole.
    await expect(preview.locator('tr[data-invalid="1"]')).toHaveCount(1);
    await expect(preview.locator('tr[data-invalid="1"]')).toContainText("date: Use year-month-day");
    await expect(preview).toContainText('页面 1, "引号"');
    await attachScreenshot(page, "events-preview");

    // Slow, flaky platform: every batch waits 1.5 s and a fifth of the calls answer 503 (retried by the task).
    await faults([{ path: "/v1/collector/batchPushEvents", method: "POST", latencyMs: 1500, errorRate: 0.2, status: 503 }]);
    const uploads: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/events/import")) uploads.push(r.method());
    });
    try {
      // A double click uploads once and starts one task.
      await frame.getByTestId("events-start").dblclick();
      await expect(frame.getByTestId("events-start-outcome")).toContainText("The import runs in the background");
      expect(uploads).toEqual(["POST"]);
      const row = tasksOf(frame).first();
      await expect(row).toContainText("Event import: events.csv");
      await expect(row).toHaveAttribute("data-state", /queued|running/);
      // The tab goes away (a reload of the whole admin page); the import goes on in the app.
      await page.reload();
      frame = await consoleFrameAt(page, "/events");
      await expect(tasksOf(frame)).toHaveCount(1);
      await expect(tasksOf(frame).first()).toHaveAttribute("data-state", "done", { timeout: 60_000 });
      await expect(tasksOf(frame).first()).toContainText("590 events sent, 10 failed");
    } finally {
      await faults([]);
    }
    await attachScreenshot(page, "events-import-done");

    // The failure report: row number in the file (header = 1), reason, original cells.
    const downloading = page.waitForEvent("download");
    await tasksOf(frame).first().getByRole("button", { name: "Download events-import-failures.csv" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("events-import-failures.csv");
    const report = parseCsv(await readFile((await download.path())!, "utf8"));
    expect(report[0]).toEqual(["row", "reason", ...header.split(",")]);
    const body = report.slice(1).sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(body.map((r) => Number(r[0]))).toEqual([...bad.keys()].map((i) => i + 2));
    for (const [n, [i, b]] of [...bad].entries()) {
      expect(body[n]![1], `row ${i + 2}`).toMatch(b.reason);
      expect(body[n]!.slice(2), `row ${i + 2}`).toEqual(parseCsv(b.cells)[0]);
    }

    // On the platform: each identity's customer has exactly its valid rows (distinct times: no duplicates).
    let total = 0;
    for (const [who, count] of expected) {
      const owner = (await platformGet("/v1/customeridentities", { identityType: "crm-e2e", identityValue: who }, sandbox.token)) as { customerId: string }[];
      expect(owner, who).toHaveLength(1);
      const stored = await events({ customerId: owner[0]!.customerId });
      expect(stored, who).toHaveLength(count);
      total += stored.length;
    }
    expect(total).toBe(590);
    const sample = (await events({ event: "c_import" })).find((e) => e.targetName === '页面 1, "引号"');
    expect(sample).toMatchObject({ visits: 1, price: 9.9, date: new Date(base + 1000).toISOString().slice(0, 19) + "Z" });
  });

  test("any staff member stops a running import from the tasks panel: fewer events than the file holds, the task cancelled", async ({ page }) => {
    const base = Date.now() - 2 * 86_400_000;
    const rows = Array.from({ length: 2000 }, (_, i) => `crm-stop,S-${i % 10},open_page,${homeTime(base + i * 1000)}`);
    await faults([{ path: "/v1/collector/batchPushEvents", method: "POST", latencyMs: 2000 }]);
    try {
      const frame = await consoleFrameAt(page, "/events");
      await frame.getByTestId("events-file").setInputFiles({ name: "stop.csv", mimeType: "text/csv", buffer: Buffer.from(["identityType,identityValue,event,date", ...rows].join("\r\n")) });
      await expect(frame.getByTestId("events-preview")).toBeVisible();
      await frame.getByTestId("events-start").click();
      const row = tasksOf(frame).first();
      await expect(row).toHaveAttribute("data-state", "running", { timeout: 20_000 });
      await row.getByRole("button", { name: "Stop Event import: stop.csv" }).click();
      await expect(row).toHaveAttribute("data-state", "cancelled", { timeout: 30_000 });
      await expect(row).toContainText("Stopped by");
    } finally {
      await faults([]);
    }
    let stored = 0;
    for (let who = 0; who < 10; who++) {
      const owner = (await platformGet("/v1/customeridentities", { identityType: "crm-stop", identityValue: `S-${who}` }, sandbox.token)) as { customerId: string }[];
      if (owner[0]) stored += (await events({ customerId: owner[0].customerId })).length;
    }
    expect(stored).toBeLessThan(2000);
  });

  test("a file larger than Next lets a proxied route read (10 MB) arrives whole", async ({ page }) => {
    const base = Date.now() - 3 * 86_400_000;
    const rows = Array.from({ length: 180_000 }, (_, i) => `crm-big,B-${i % 10},open_page,${homeTime(base + i * 1000)},${"页".repeat(8)}`);
    const file = Buffer.from(["identityType,identityValue,event,date,targetName", ...rows].join("\r\n"));
    expect(file.byteLength).toBeGreaterThan(11 * 1024 * 1024);
    // Slow batches: little is sent before the import is stopped.
    await faults([{ path: "/v1/collector/batchPushEvents", method: "POST", latencyMs: 2000 }]);
    try {
      const frame = await consoleFrameAt(page, "/events");
      await frame.getByTestId("events-file").setInputFiles({ name: "big.csv", mimeType: "text/csv", buffer: file });
      await expect(frame.getByTestId("events-preview")).toBeVisible();
      const answered = page.waitForResponse((r) => r.url().includes("/api/events/import") && r.request().method() === "POST");
      await frame.getByTestId("events-start").click();
      const response = await answered;
      expect(response.status()).toBe(202);
      expect(((await response.json()) as { task: { input: { size: number } } }).task.input.size).toBe(file.byteLength);
      const row = tasksOf(frame).first();
      await row.getByRole("button", { name: "Stop Event import: big.csv" }).click();
      await expect(row).toHaveAttribute("data-state", "cancelled", { timeout: 30_000 });
    } finally {
      await faults([]);
    }
  });

  test("a file chosen while the page is still loading is read once its script runs (the choice is not lost)", async ({ page }) => {
    await (await openFromMarket(page)).getByRole("navigation").waitFor({ timeout: 20_000 });
    // The app's scripts held back until the file is chosen: the page is the server's HTML meanwhile.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`${e2eUrls.app}/_next/static/**/*.js`, async (route) => {
      await held;
      await route.continue();
    });
    const frame = appFrame(page);
    await frame.goto(appUrl("/events"), { waitUntil: "domcontentloaded" });
    await frame.getByTestId("events-file").setInputFiles({ name: "early.csv", mimeType: "text/csv", buffer: Buffer.from("identityType,identityValue,event,date\r\ncrm-early,A,open_page,2026-11-01 10:00:00\r\n") });
    release();
    await expect(frame.getByTestId("events-preview")).toBeVisible({ timeout: 20_000 });
    await expect(frame.getByTestId("events-preview").locator("tbody tr")).toHaveCount(1);
    await page.unroute(`${e2eUrls.app}/_next/static/**/*.js`);
  });

  test("a header without the required columns is refused before anything is sent", async ({ page }) => {
    const frame = await consoleFrameAt(page, "/events");
    await frame.getByTestId("events-file").setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from("identityValue,event,when,price:euro\r\nA,open_page,now,1\r\n") });
    const problems = frame.getByTestId("events-header-problems");
    await expect(problems).toContainText("The column price:euro is not an event field or a property");
    await expect(problems).toContainText("The column identityType is missing.");
    await expect(problems).toContainText("The column date is missing.");
    await expect(frame.getByTestId("events-start")).toHaveCount(0);
  });

  test("works in a 1024 px wide iframe", async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 800 });
    const frame = await consoleFrameAt(page, "/events");
    await frame.getByTestId("events-file").setInputFiles({ name: "e.csv", mimeType: "text/csv", buffer: Buffer.from(`identityType,identityValue,event,date,targetName,summary\r\ncrm,A,open_page,${homeTime(Date.now())},${"长".repeat(80)},${"s".repeat(300)}\r\n`) });
    await expect(frame.getByTestId("events-preview")).toBeVisible();
    expect(await horizontalOverflow(frame)).toBeLessThanOrEqual(0);
  });

  test("axe finds nothing on the events page and the recording form, in both languages", async ({ page }) => {
    // Two imports and four scans of a page that also holds the event browser.
    test.setTimeout(120_000);
    const csv = `identityType,identityValue,event,date\r\ncrm-axe,A,open_page,${homeTime(Date.now())}\r\ncrm-axe,B,open_page,bad\r\n`;
    for (const locale of ["en", "zh-CN"] as const) {
      // The import page: preview, then a finished import with its report's download.
      await page.goto(`${e2eUrls.app}/events?openAppId=${ALPHA.openAppId}&lang=${locale}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(locale === "en" ? "Events" : "事件", { timeout: 20_000 });
      await page.getByTestId("events-file").setInputFiles({ name: "axe.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
      await expect(page.getByTestId("events-preview")).toBeVisible();
      await page.getByTestId("events-format").locator("summary").click();
      await expectAccessible(page, { label: `${locale} preview` });
      await page.getByTestId("events-start").click();
      await expect(tasksOf(page).first()).toHaveAttribute("data-state", "done", { timeout: 30_000 });
      await expect(tasksOf(page).first().getByRole("button", { name: /events-import-failures\.csv/ })).toBeVisible();
      await expectAccessible(page, { label: `${locale} import` });
      await attachScreenshot(page, `events-${locale}`);

      // The recording form, with the custom-event parts shown.
      await page.goto(`${e2eUrls.app}/customers/${customerId}?openAppId=${ALPHA.openAppId}&lang=${locale}`);
      await page.getByTestId("record-event-open").click();
      const form = page.getByTestId("record-event-form");
      await form.locator("select").first().selectOption("custom");
      await form.getByTestId("event-properties").getByRole("button").last().click();
      await form.locator('input[type="radio"][value="externalId"]').check();
      await form.locator('button[type="submit"]').click();
      await expect(form.locator('[aria-invalid="true"]').first()).toBeVisible();
      await expectAccessible(page, { label: `${locale} record form` });
      await attachScreenshot(page, `record-event-${locale}`);
    }
  });
});

/** The import tasks of the tenant on the events page, newest first. */
const tasksOf = (frame: Frame | Page) => frame.getByTestId("events-import-tasks").getByTestId("task-row");
