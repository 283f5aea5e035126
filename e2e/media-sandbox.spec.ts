import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/a11y";
import { APP_FRAME, appFrame, horizontalOverflow, openArea, openInAdmin } from "./support/admin-frame";
import { ALPHA } from "./support/sandbox-login";
import { attachScreenshot } from "./support/screenshots";
import { sandboxSuite } from "./support/suite";

/**
 * Media data imports (§4.6) through the real chain: the console in the admin's 1024-px iframe →
 * the app's route → the sandbox's import, which reads the files from its object storage. What was
 * sent is checked through `/__sandbox/media/tasks` (the API has no task read).
 */

type Task = { id: string; file: string; eventType: string | null };

const tasks = async () => ((await (await fetch(`${ALPHA.origin}/__sandbox/media/tasks?environment=alpha`)).json()) as { rows: Task[] }).rows;

test.describe.serial("media imports through the sandbox", () => {
  sandboxSuite({ window: { width: 1024, height: 900 } });
  const stamp = Date.now().toString(36);
  const clicks = `oss://media-e2e/${stamp}/clicks.csv`;
  const mixed = `oss://media-e2e/${stamp}/mixed.csv`;

  test.beforeAll(async () => {
    for (const [path, content] of [
      [clicks, "2026-11-01,mobile,13800000001,banner-a,2\n2026-11-02,mobile,13800000002,banner-b,1\n"],
      [mixed, "event.mediaView,2026-11-01,mobile,13800000001,banner-a,5\nevent.mediaClick,2026-11-01,mobile,13800000001,banner-a,1\n"],
    ]) {
      const res = await fetch(`${ALPHA.origin}/__sandbox/storage`, { method: "PUT", body: JSON.stringify({ environment: "alpha", path, content }) });
      expect(res.ok).toBe(true);
    }
  });

  test("import two files (a path checked first), see the task ids, find them in the history; both languages, axe clean", async ({ page }) => {
    test.setTimeout(120_000);
    const frame = await openArea(page, "Media imports");
    await expect(frame.getByTestId("media-no-status")).toContainText("no way to read a task's progress");
    await frame.getByRole("link", { name: "New import" }).click();
    await expect(frame.getByRole("heading", { level: 1, name: "New media import" })).toBeVisible();
    await expect(frame.getByText(/the file imported later replaces that day's data/)).toBeVisible();

    const first = frame.getByRole("textbox", { name: "File 1: object-storage path" });
    await first.fill("s3://media-e2e/clicks.csv");
    await frame.getByRole("button", { name: "Start import" }).click();
    await expect(first).toHaveAttribute("aria-invalid", "true");
    await expect(frame.getByText(/Must be oss:\/\/<bucket>\/<file>/)).toBeVisible();
    const before = (await tasks()).length;

    await first.fill(clicks);
    await frame.getByRole("combobox", { name: "File 1: events in it" }).selectOption("event.mediaClick");
    await frame.getByRole("button", { name: "Add a file" }).click();
    await frame.getByRole("textbox", { name: "File 2: object-storage path" }).fill(mixed);
    await frame.getByRole("combobox", { name: "File 2: events in it" }).selectOption({ label: "From the file's first column" });
    await frame.getByRole("button", { name: "Start import" }).click();

    const shown = frame.getByTestId("media-task-ids").locator("li");
    await expect(shown).toHaveCount(2);
    const ids = (await shown.allTextContents()).map((s) => s.trim());
    const sent = (await tasks()).slice(before);
    expect(sent).toMatchObject([
      { id: ids[0], file: clicks, eventType: "event.mediaClick" },
      { id: ids[1], file: mixed, eventType: null },
    ]);
    expect(await horizontalOverflow(appFrame(page))).toBeLessThanOrEqual(0);
    await attachScreenshot(page, "media-import-started");

    await frame.getByRole("link", { name: "See all imports" }).click();
    const row = frame.getByTestId("media-table").locator("tbody tr").first();
    await expect(row).toContainText(ids[0]!);
    await expect(row).toContainText(ids[1]!);
    await expect(row).toContainText(clicks);
    await expect(row).toContainText("From the file's first column");
    await expectAccessible(page, { include: APP_FRAME, label: "media imports en" });

    const zh = await openInAdmin(page, "/media/new?lang=zh-CN");
    await expect(zh.getByRole("heading", { level: 1, name: "新建媒体数据导入" })).toBeVisible();
    await expect(zh.getByRole("navigation").getByRole("link", { name: "媒体数据导入" })).toHaveAttribute("aria-current", "page");
    await expect(zh.getByRole("navigation").getByRole("link", { name: "门店" })).toBeVisible();
    await expectAccessible(page, { include: APP_FRAME, label: "media import zh-CN" });
  });
});
