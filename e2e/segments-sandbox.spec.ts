import { expect, test, type Frame, type FrameLocator } from "@playwright/test";
import { expectAccessible } from "./support/a11y";
import { APP_FRAME, appFrame, consoleFrameAt, openInAdmin } from "./support/admin-frame";
import { platformGet, platformSend } from "./support/sandbox-api";
import { sandboxSuite } from "./support/suite";

/**
 * Segments through the real chain, in the admin's 1024-px iframe: a segment of three conditions
 * counted as the sandbox's own API counts it, exported, synced into a new list that then holds
 * exactly the segment; a customer changed on the platform leaves the count (webhook) and the list
 * (the next sync). English and Chinese, axe.
 */

type Row = { id: string; stage?: string | null; source?: string | null; gender?: number | null };
type Member = { customerId: string };

test.describe.serial("segments through the sandbox", () => {
  const sandbox = sandboxSuite({ reset: { customers: 120 }, window: { width: 1024, height: 900 } });

  test("build, count, export, sync, follow a change; English and Chinese, axe", async ({ page }) => {
    test.setTimeout(240_000);
    const sample = ((await platformGet("/v1/customers", { rows: "120", select: "id,stage,source,gender" }, sandbox.token)) as { rows: Row[] }).rows;
    const most = (values: Array<string | null | undefined>) => {
      const counts = new Map<string, number>();
      for (const v of values) if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
      return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    };
    const stage = most(sample.map((r) => r.stage));
    const source = most(sample.filter((r) => r.stage === stage).map((r) => r.source));
    const independent = async () => Number(await platformGet("/v1/customers/count", { stage, source, gender: "2" }, sandbox.token)) + Number(await platformGet("/v1/customers/count", { stage, source, gender: "1" }, sandbox.token));
    const expected = await independent();
    expect(expected).toBeGreaterThan(0);

    let frame: Frame | FrameLocator = await consoleFrameAt(page, "/segments");
    const conditions = frame.getByTestId("segment-condition");
    // Condition 1 (the new segment's first row): stage is …
    await conditions.nth(0).getByLabel("Field").selectOption("stage");
    await conditions.nth(0).getByLabel("Value").fill(stage);
    await frame.getByRole("button", { name: "Add condition" }).click();
    await conditions.nth(1).getByLabel("Field").selectOption("source");
    await conditions.nth(1).getByLabel("Value").fill(source);
    await frame.getByRole("button", { name: "Add condition" }).click();
    await conditions.nth(2).getByLabel("Field").selectOption("gender");
    await conditions.nth(2).getByLabel("Value").fill("1, 2");
    // The index fills in the background: the live count reaches the platform's own count.
    await expect(frame.getByTestId("segment-count-status")).toContainText(expected === 1 ? "1 person matches" : `${expected} people match`, { timeout: 60_000 });

    // A malformed value is named beside its condition.
    await frame.getByRole("button", { name: "Add condition" }).click();
    await conditions.nth(3).getByLabel("Field").selectOption("orderCount");
    await conditions.nth(3).getByLabel("Value").fill("two");
    await expect(frame.getByTestId("segment-condition-error")).toContainText("value: must be a number");
    await frame.getByRole("button", { name: "Remove condition 4" }).click();
    await expect(frame.getByTestId("segment-count-status")).toContainText(`${expected} `);

    await frame.getByLabel("Name", { exact: true }).first().fill(`Women and men of ${stage}`);
    await frame.getByRole("button", { name: "Save segment" }).click();
    await expect(frame.getByTestId("segment-actions")).toBeVisible();
    await expectAccessible(page, { include: APP_FRAME, label: "segments en" });

    // Export: the customers page's CSV, one row per member.
    const download = page.waitForEvent("download");
    await frame.getByRole("button", { name: "Export CSV" }).click();
    const file = await download;
    const text = await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"));
    expect(text.trim().split("\n")).toHaveLength(expected + 1);

    // Sync into a new list: it holds exactly the segment (read back from the platform). The segment
    // is opened again by its link first: in headless Chromium, a download started inside the
    // cross-site frame leaves that frame deaf to the mouse (not so in a user's browser).
    const segmentId = new URL(appFrame(page).url()).searchParams.get("segment")!;
    expect(segmentId).toBeTruthy();
    frame = await openInAdmin(page, `/segments?segment=${segmentId}&lang=en`);
    await expect(frame.getByTestId("segment-actions")).toBeVisible({ timeout: 20_000 });
    const listName = `Segment ${Date.now()}`;
    await frame.getByTestId("segment-actions").getByLabel("Name", { exact: true }).fill(listName);
    await frame.getByRole("button", { name: "Sync to a list" }).click();
    await expect(frame.getByTestId("segment-runs")).toContainText("Done", { timeout: 60_000 });
    const lists = (await platformGet("/v1/lists", { rows: "1000" }, sandbox.token)) as { rows: Array<{ id: string; name: string }> };
    const listId = lists.rows.find((l) => l.name === listName)!.id;
    const segmentIds = async () => {
      const ids: string[] = [];
      for (const gender of ["1", "2"]) ids.push(...((await platformGet("/v1/customers", { stage, source, gender, rows: "1000", select: "id" }, sandbox.token)) as { rows: Row[] }).rows.map((r) => String(r.id)));
      return ids.sort();
    };
    const listIds = async () => ((await platformGet("/v1/listMembers", { listId, rows: "10000" }, sandbox.token)) as { items: Member[] }).items.map((m) => String(m.customerId)).sort();
    expect(await listIds()).toEqual(await segmentIds());

    // A customer changed on the platform: the count follows (webhook), then the next sync removes them.
    const leaver = (await segmentIds())[0]!;
    await platformSend("PUT", `/v1/customers/${leaver}`, { stage: `${stage}-left` }, sandbox.token);
    await expect(frame.getByTestId("segment-count-status")).toContainText(expected - 1 === 1 ? "1 person matches" : `${expected - 1} people match`, { timeout: 30_000 });
    // The segment's own list is now chosen for the next sync.
    await expect(frame.getByTestId("segment-actions").getByLabel("List", { exact: true })).toHaveValue("segment", { timeout: 20_000 });
    await frame.getByRole("button", { name: "Sync to a list" }).click();
    await expect(frame.getByTestId("segment-runs").locator("tbody tr")).toHaveCount(2, { timeout: 60_000 });
    await expect(frame.getByTestId("segment-runs").locator("tbody tr").first()).toContainText("Done", { timeout: 60_000 });
    await expect.poll(listIds, { timeout: 30_000 }).toEqual(await segmentIds());
    expect(await listIds()).not.toContain(leaver);

    // Chinese, by the segment's link.
    const zh = await openInAdmin(page, `/segments?segment=${segmentId}&lang=zh-CN`);
    await expect(zh.getByRole("heading", { name: "客户分群" })).toBeVisible();
    await expect(zh.getByTestId("segment-count-status")).toContainText(`${expected - 1} 人符合`, { timeout: 30_000 });
    await page.waitForLoadState("networkidle");
    await expectAccessible(page, { include: APP_FRAME, label: "segments zh-CN" });
  });
});
