import { expect, test, type Locator } from "@playwright/test";
import { e2eUrls } from "../scripts/testing/e2e-env";
import { expectAccessible } from "./support/a11y";
import { appFrame, horizontalOverflow, openArea } from "./support/admin-frame";
import { platformGet, platformSend } from "./support/sandbox-api";
import { ALPHA } from "./support/sandbox-login";
import { attachScreenshot } from "./support/screenshots";
import { sandboxSuite } from "./support/suite";

/**
 * The Tags area through the real chain: sandbox marketplace → the console in the admin's iframe →
 * the app's proxy → the sandbox API (§2.6, §4.5). Every change is checked against the sandbox API.
 */

type Row = { id: string; [key: string]: unknown };
type TagRow = { id: string; name: string; dimension: string };
type Dimension = { id: string; dimensionKey: string; name: string };

const todayFolder = () => `oss://sandbox/external-tags/${new Date().toISOString().slice(0, 10).replace(/-/g, "")}/`;

test.describe.serial("tags through the sandbox", () => {
  const sandbox = sandboxSuite({ reset: { customers: 30 }, window: { width: 1280, height: 900 } });
  let customers: string[];
  const stamp = Date.now().toString(36);

  const allTags = async () => ((await platformGet("/v1/tags", { rows: "1000" }, sandbox.token)) as { rows: TagRow[] }).rows;
  const tagNamed = async (name: string) => (await allTags()).find((t) => t.name === name);
  const dimensions = async () => (await platformGet("/v1/tagdimensions", { max: "1000" }, sandbox.token)) as Dimension[];
  const customerTags = async (ids: string[]) => (await platformGet("/v1/tagservice/getCustomerTags", { customerId: ids.join(",") }, sandbox.token)) as Record<string, string>;
  const carrying = async (ids: string[], name: string) => {
    const map = await customerTags(ids);
    return ids.filter((id) => (map[id] ?? "").split(",").includes(name));
  };

  test.beforeAll(async () => {
    customers = ((await platformGet("/v1/customers", { rows: "30", select: "id" }, sandbox.token)) as { rows: Row[] }).rows.map((r) => r.id);
    expect(customers).toHaveLength(30);
  });

  test("dimensions, tags, renaming, moving, tagging customers, merging, deleting, external import", async ({ page }) => {
    const frame = await openArea(page, "Tags");
    const consoleFrame = () => appFrame(page);

    // Dimensions: what the platform has, the three built-ins badged, none editable or deletable.
    const dimensionTable = frame.getByTestId("dimensions-table");
    for (const key of ["basic", "interests", "consumptive_habit"]) {
      await expect(dimensionTable.getByRole("row").filter({ hasText: key })).toContainText("Built-in");
    }
    await expect(dimensionTable.getByRole("row").filter({ hasText: "lifecycle" })).toContainText("Custom");
    expect(await dimensionTable.getByRole("button").count()).toBe(0);
    await expect(frame.getByText(`${(await dimensions()).length} dimensions shown`)).toBeVisible();

    // Create a dimension: required fields, §8 length, a taken key, then created.
    const dimKey = `channel_${stamp}`;
    await frame.getByRole("button", { name: "New dimension" }).click();
    let dialog = frame.getByRole("dialog", { name: "New dimension" });
    await dialog.getByRole("button", { name: "Create dimension" }).click();
    await expect(dialog.getByText("Required.")).toHaveCount(2);
    await dialog.getByRole("textbox", { name: "Dimension name" }).fill("渠道");
    await dialog.getByRole("textbox", { name: "Dimension key" }).fill("k".repeat(256));
    await expect(dialog.getByText("At most 255 characters.")).toBeVisible();
    await dialog.getByRole("textbox", { name: "Dimension key" }).fill("basic");
    await expect(dialog.getByText("A dimension with this key already exists.")).toBeVisible();
    await attachScreenshot(page, "dimension-dialog");
    await dialog.getByRole("textbox", { name: "Dimension key" }).fill(dimKey);
    await dialog.getByRole("button", { name: "Create dimension" }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(async () => (await dimensions()).find((d) => d.dimensionKey === dimKey)?.name).toBe("渠道");
    await expect(dimensionTable.getByRole("row").filter({ hasText: dimKey })).toContainText("Custom");

    // Create a tag in that dimension: §8 32 characters and no comma are checked before sending.
    const nameA = `VIP-${stamp}`;
    await frame.getByRole("button", { name: "New tag" }).click();
    dialog = frame.getByRole("dialog", { name: "New tag" });
    await dialog.getByRole("textbox", { name: "Tag name" }).fill("长".repeat(33));
    await dialog.getByRole("button", { name: "Create tag" }).click();
    await expect(dialog.getByText("At most 32 characters.")).toBeVisible();
    await dialog.getByRole("textbox", { name: "Tag name" }).fill("a,b");
    await expect(dialog.getByText(/cannot contain a comma/)).toBeVisible();
    await dialog.getByRole("textbox", { name: "Tag name" }).fill(nameA);
    await dialog.getByRole("combobox", { name: "Dimension" }).selectOption(dimKey);
    await dialog.getByRole("button", { name: "Create tag" }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(async () => (await tagNamed(nameA))?.dimension).toBe(dimKey);
    const tagA = (await tagNamed(nameA))!;
    // A taken name comes back from the platform as a field error.
    await frame.getByRole("button", { name: "New tag" }).click();
    await dialog.getByRole("textbox", { name: "Tag name" }).fill(nameA);
    await dialog.getByRole("button", { name: "Create tag" }).click();
    await expect(dialog.getByText(/already exists/)).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();

    // Newest first: sort by id descending from the header; the URL keeps it (replace).
    await frame.getByTestId("tags-table").getByRole("columnheader", { name: /Tag id/ }).getByRole("button").click();
    await expect.poll(() => new URL(consoleFrame().url()).searchParams.get("sord")).toBe("desc");
    const firstIds = async () => (await frame.getByTestId("tags-table").locator('tbody tr td[data-column="id"]').allTextContents()).map((s) => s.trim());
    const apiDesc = ((await platformGet("/v1/tags", { rows: "20", sidx: "id", sord: "desc" }, sandbox.token)) as { rows: TagRow[] }).rows.map((r) => r.id);
    await expect.poll(firstIds).toEqual(apiDesc);
    const all = await allTags();
    await expect(frame.getByText(`${all.length} tags`)).toBeVisible();
    await attachScreenshot(page, "tags-index");

    // Rename.
    const renamed = `VIP2-${stamp}`;
    await frame.getByRole("button", { name: `Edit tag ${nameA}` }).click();
    dialog = frame.getByRole("dialog", { name: `Edit tag “${nameA}”` });
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByText(/Nothing changed/)).toBeVisible();
    await dialog.getByRole("textbox", { name: "Tag name" }).fill(renamed);
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(async () => (await allTags()).find((t) => t.id === tagA.id)).toMatchObject({ name: renamed, dimension: dimKey });

    // Move to another dimension.
    await frame.getByRole("button", { name: `Edit tag ${renamed}` }).click();
    dialog = frame.getByRole("dialog", { name: `Edit tag “${renamed}”` });
    await dialog.getByRole("combobox", { name: "Dimension" }).selectOption("interests");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(async () => (await allTags()).find((t) => t.id === tagA.id)).toMatchObject({ name: renamed, dimension: "interests" });

    // The dimension filter covers this page only, and says so.
    await frame.getByRole("combobox", { name: "Dimension (this page)" }).selectOption("interests");
    await expect(frame.getByTestId("dimension-filter-note")).toContainText("only this page is filtered");
    await expect.poll(() => new URL(consoleFrame().url()).searchParams.get("dim")).toBe("interests");
    const shownDims = await frame.getByTestId("tags-table").locator('tbody tr td[data-column="dimension"]').allTextContents();
    expect(shownDims.length).toBeGreaterThan(0);
    for (const d of shownDims) expect(d).toContain("interests");
    await frame.getByRole("combobox", { name: "Dimension (this page)" }).selectOption("");

    // Tag customers from the tag's side: 10 customers, one id that is no customer, one that is no id.
    await frame.getByRole("button", { name: `Tag/untag customers with ${renamed}` }).click();
    dialog = frame.getByRole("dialog", { name: `Customers and the tag “${renamed}”` });
    const chosen = customers.slice(0, 10);
    await dialog.getByRole("textbox", { name: "Customer ids" }).fill([...chosen, "123", "abc"].join("\n"));
    await expect(dialog.getByTestId("tag-ids-summary")).toContainText("11 valid ids");
    await dialog.getByRole("button", { name: "Add the tag to 11" }).click();
    await expect(dialog.getByTestId("tag-customers-result")).toContainText("Finished 11 of 11: 10 tagged, 1 failed.", { timeout: 20_000 });
    await expect(dialog.getByTestId("tag-customers-failed")).toContainText("123");
    expect(await carrying(chosen, renamed)).toEqual(chosen);
    await attachScreenshot(page, "tag-customers-dialog");

    // Remove it from two that carry it and one that does not (by file), after a confirmation.
    const off = [chosen[0]!, chosen[1]!, customers[20]!];
    await dialog.getByTestId("tag-ids-file").setInputFiles({ name: "ids.csv", mimeType: "text/csv", buffer: Buffer.from(["customerId", ...off].join("\r\n")) });
    await expect(dialog.getByTestId("tag-ids-summary")).toContainText("3 valid ids");
    await dialog.getByRole("button", { name: "Remove the tag from 3…" }).click();
    await expect(dialog.getByRole("alert")).toContainText("The customers and the tag itself are kept.");
    await dialog.getByRole("button", { name: "Remove from 3" }).click();
    await expect(dialog.getByTestId("tag-customers-result")).toContainText("Finished 3 of 3: 2 removed, 1 did not carry the tag, 0 failed.", { timeout: 20_000 });
    const stillCarrying = chosen.slice(2);
    expect(await carrying(chosen, renamed)).toEqual(stillCarrying);
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();

    // A second tag B in basic; one customer carries both A and B already.
    const nameB = `Gold-${stamp}`;
    await frame.getByRole("button", { name: "New tag" }).click();
    dialog = frame.getByRole("dialog", { name: "New tag" });
    await dialog.getByRole("textbox", { name: "Tag name" }).fill(nameB);
    await dialog.getByRole("button", { name: "Create tag" }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(async () => (await tagNamed(nameB))?.dimension).toBe("basic");
    const tagB = (await tagNamed(nameB))!;
    await platformSend("POST", "/v1/tagservice/addCustomerTag", { customerId: stillCarrying[0], tags: [{ name: nameB }] }, sandbox.token);

    // Merge A into B: pick A, then B; the confirmation names both and says what happens.
    await frame.getByRole("button", { name: `Merge tag ${renamed} into another tag` }).click();
    await expect(frame.getByTestId("merge-picking")).toContainText(`Merging “${renamed}”`);
    await expect(frame.getByRole("row").filter({ hasText: tagA.id })).toContainText("Being merged");
    await frame.getByRole("button", { name: `Merge into this: “${nameB}” (merging “${renamed}”)` }).click();
    const confirm = frame.getByRole("alertdialog", { name: `Merge “${renamed}” into “${nameB}”?` });
    await expect(confirm.getByTestId("merge-effects")).toContainText(`Customers carrying “${renamed}” receive “${nameB}”.`);
    await expect(confirm.getByTestId("merge-effects")).toContainText(`“${renamed}” is then deleted.`);
    await expect(confirm.getByTestId("merge-tags")).toContainText(tagA.id);
    await expect(confirm.getByTestId("merge-tags")).toContainText(tagB.id);
    await attachScreenshot(page, "merge-dialog");
    await confirm.getByRole("button", { name: "Merge", exact: true }).click();
    await expect(confirm).toBeHidden();
    await expect(frame.getByTestId("merge-picking")).toBeHidden();
    await expect.poll(async () => (await allTags()).some((t) => t.id === tagA.id)).toBe(false);
    expect(await carrying(customers, nameB)).toEqual(stillCarrying);
    expect(await carrying(customers, renamed)).toEqual([]);
    expect((await customerTags([stillCarrying[0]!]))[stillCarrying[0]!]!.split(",").filter((n) => n === nameB)).toHaveLength(1);

    // Delete B: confirmed; the customers lose the tag and are kept.
    await frame.getByRole("button", { name: `Delete tag ${nameB}` }).click();
    const del = frame.getByRole("alertdialog", { name: `Delete tag “${nameB}”?` });
    await expect(del).toContainText("NOT deleted");
    await attachScreenshot(page, "delete-dialog");
    await del.getByRole("button", { name: "Delete the tag" }).click();
    await expect(del).toBeHidden();
    await expect.poll(async () => (await allTags()).some((t) => t.id === tagB.id)).toBe(false);
    expect(await carrying(customers, nameB)).toEqual([]);
    expect(await platformGet("/v1/customers/count", {}, sandbox.token)).toBe(30);

    // External tags: named (§8: ≤ 64 each, checked before sending), then today's whole folder.
    await frame.getByRole("button", { name: "Import external tags" }).click();
    dialog = frame.getByRole("dialog", { name: "Import external tags" });
    await dialog.getByRole("textbox", { name: "Tag names (one per line)" }).fill(`ext-a-${stamp}\next-b-${stamp}\n${"x".repeat(65)}`);
    await dialog.getByRole("button", { name: "Import 2 names" }).click();
    await expect(dialog.getByText("1 name is longer than 64 characters: shorten or remove it.")).toBeVisible();
    await expect(dialog.getByTestId("external-result")).toBeHidden();
    await dialog.getByRole("textbox", { name: "Tag names (one per line)" }).fill(`ext-a-${stamp}\next-b-${stamp}`);
    await dialog.getByRole("button", { name: "Import 2 names" }).click();
    await expect(dialog.getByTestId("external-result")).toContainText("Answer SUCCESS: 2 imported, 0 failed.");
    await expect(dialog.getByTestId("external-success")).toContainText(`ext-a-${stamp}`);
    await expect(dialog.getByTestId("external-success")).toContainText(`ext-b-${stamp}`);
    // A file in today's folder, with one name over 64 characters that the platform reports failed.
    const put = await fetch(`${ALPHA.origin}/__sandbox/storage`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ environment: ALPHA.environment, path: `${todayFolder()}e2e-${stamp}.txt`, content: `文件标签-${stamp}\n${"长".repeat(65)}\n` }),
    });
    expect(put.ok).toBe(true);
    await dialog.getByRole("radio", { name: /Every tag file of today's folder/ }).check();
    await expect(dialog.getByText(/Which files are there is not visible from the console/)).toBeVisible();
    await dialog.getByRole("button", { name: "Import today's folder" }).click();
    await expect(dialog.getByTestId("external-success")).toContainText(`文件标签-${stamp}`);
    await expect(dialog.getByTestId("external-failed")).toContainText("长".repeat(65));
    await attachScreenshot(page, "external-dialog");
    await dialog.getByRole("button", { name: "Close" }).click();

    // Fits the iframe: no horizontal scrolling of the console's page.
    expect(await horizontalOverflow(consoleFrame())).toBeLessThanOrEqual(0);
  });

  test("works in a 1024 px wide iframe", async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 800 });
    const frame = await openArea(page, "Tags");
    await expect(frame.getByTestId("tags-table")).toBeVisible();
    expect(await horizontalOverflow(appFrame(page))).toBeLessThanOrEqual(0);
    await attachScreenshot(page, "tags-1024");
  });

  test("axe finds nothing on the tags page and its dialogs, in both languages", async ({ page }) => {
    // Sixteen axe runs (page, banner and seven dialogs, in two languages).
    test.setTimeout(240_000);
    const url = `${e2eUrls.app}/tags?openAppId=${ALPHA.openAppId}`;
    const tag = (await allTags())[0]!;
    const other = (await allTags())[1]!;
    const L = {
      en: { newDim: "New dimension", newTag: "New tag", edit: `Edit tag ${tag.name}`, customers: `Tag/untag customers with ${tag.name}`, merge: `Merge tag ${tag.name} into another tag`, mergeInto: `Merge into this: “${other.name}” (merging “${tag.name}”)`, del: `Delete tag ${tag.name}`, imp: "Import external tags", ids: "Customer ids", names: "Tag names (one per line)", add: "Add the tag to 1", importN: "Import 1 names" },
      "zh-CN": { newDim: "新建维度", newTag: "新建标签", edit: `编辑标签 ${tag.name}`, customers: `批量打标：为客户添加或移除标签 ${tag.name}`, merge: `将标签 ${tag.name} 合并到另一个标签`, mergeInto: `合并到此标签：“${other.name}”（合并“${tag.name}”）`, del: `删除标签 ${tag.name}`, imp: "导入外部标签", ids: "客户 ID", names: "标签名称（每行一个）", add: "为 1 位客户添加标签", importN: "导入 1 个名称" },
    } as const;
    for (const locale of ["en", "zh-CN"] as const) {
      const l = L[locale];
      await page.goto(url);
      if (locale === "zh-CN") await page.getByLabel(/Language|语言/).first().selectOption("zh-CN");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(locale === "en" ? "Tags" : "标签", { timeout: 20_000 });
      await expect(page.getByTestId("tags-table")).toBeVisible();
      await expectAccessible(page, { label: `${locale} page` });
      await attachScreenshot(page, `tags-${locale}`);

      const openDialog = async (button: string, name: string, fill?: (d: Locator) => Promise<void>) => {
        await page.getByRole("button", { name: button, exact: true }).click();
        const d = page.locator("dialog[open]");
        await expect(d).toBeVisible();
        if (fill) await fill(d);
        await expectAccessible(page, { label: `${locale} ${name}` });
        await attachScreenshot(page, `${name}-${locale}`);
        await page.keyboard.press("Escape");
        await expect(d).toBeHidden();
      };
      await openDialog(l.newDim, "dimension-dialog", async (d) => {
        await d.getByRole("button", { name: locale === "en" ? "Create dimension" : "创建维度" }).click();
      });
      await openDialog(l.newTag, "tag-dialog");
      await openDialog(l.edit, "edit-dialog");
      await openDialog(l.customers, "customers-dialog", async (d) => {
        await d.getByRole("textbox", { name: l.ids }).fill(customers[29]!);
        await d.getByRole("button", { name: l.add }).click();
        await expect(d.getByTestId("tag-customers-result")).toContainText(/1 \/ 1|1 of 1/);
      });
      await openDialog(l.del, "delete-dialog");
      await openDialog(l.imp, "external-dialog", async (d) => {
        await d.getByRole("textbox", { name: l.names }).fill(`axe-${locale}-${stamp}`);
        await d.getByRole("button", { name: l.importN }).click();
        await expect(d.getByTestId("external-result")).toBeVisible();
      });
      // Merge: the picking banner, then the confirmation (cancelled: nothing is merged).
      await page.getByRole("button", { name: l.merge }).click();
      await expect(page.getByTestId("merge-picking")).toBeVisible();
      await expectAccessible(page, { label: `${locale} merge picking` });
      await page.getByRole("button", { name: l.mergeInto }).click();
      await expect(page.locator("dialog[open]")).toBeVisible();
      await expectAccessible(page, { label: `${locale} merge dialog` });
      await attachScreenshot(page, `merge-dialog-${locale}`);
      await page.keyboard.press("Escape");
    }
    expect((await allTags()).some((t) => t.id === tag.id)).toBe(true);
  });
});
