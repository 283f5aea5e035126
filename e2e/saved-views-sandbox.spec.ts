import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/a11y";
import { APP_FRAME, appFrame, openInAdmin } from "./support/admin-frame";
import { sandboxSuite } from "./support/suite";

/**
 * Saved views of a list page, as staff use them in the admin's 1024-px iframe: save the customers
 * list's sort as a shared view, open the list afresh and choose the view (the URL takes its state),
 * save the same name again (asked before replacing, one view kept), delete it; in English and Chinese.
 */
test.describe.serial("saved views", () => {
  sandboxSuite({ reset: { customers: 20 }, window: { width: 1024, height: 900 } });
  const name = `By name ${Date.now().toString(36)}`;

  test("save the list as a shared view, choose it on a fresh list, replace it only when asked, delete it", async ({ page }) => {
    let frame = await openInAdmin(page, "/customers?sidx=name&sord=desc");
    const views = frame.getByTestId("saved-views");
    await views.getByRole("button", { name: "Save view" }).click();
    const dialog = frame.getByRole("dialog", { name: "Save this view" });
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByLabel("Share with everyone in this tenant").check();
    await dialog.getByRole("button", { name: "Save view" }).click();
    await expect(views.getByRole("status")).toHaveText(`Saved view “${name}”.`);
    await expectAccessible(page, { include: APP_FRAME, label: "customers with a saved view" });

    // A fresh list: no view shown; choosing it brings its sort into the URL.
    frame = await openInAdmin(page, "/customers");
    const select = frame.getByLabel("Saved views");
    await expect(select).toHaveValue("");
    await select.selectOption(await select.locator("option", { hasText: name }).getAttribute("value"));
    await expect.poll(() => new URL(appFrame(page).url()).searchParams.get("sidx")).toBe("name");
    expect(new URL(appFrame(page).url()).searchParams.get("sord")).toBe("desc");
    await expect(frame.getByTestId("saved-views").getByRole("button", { name: "Delete view" })).toBeVisible();

    // The same name again: asked first; Replace keeps one view.
    await frame.getByTestId("saved-views").getByRole("button", { name: "Save view" }).click();
    const again = frame.getByRole("dialog", { name: "Save this view" });
    await expect(again.getByLabel("Name")).toHaveValue(name);
    await again.getByLabel("Share with everyone in this tenant").check();
    await again.getByRole("button", { name: "Save view" }).click();
    await expect(again.getByRole("alert")).toContainText("already exists");
    await again.getByRole("button", { name: "Replace" }).click();
    await expect(frame.getByTestId("saved-views").getByRole("status")).toHaveText(`Saved view “${name}”.`);
    await expect(select.locator("option", { hasText: name })).toHaveCount(1);

    // Delete it (asked first); the list stays as it is.
    await frame.getByTestId("saved-views").getByRole("button", { name: "Delete view" }).click();
    await frame.getByRole("alertdialog").getByRole("button", { name: "Delete view" }).click();
    await expect(select.locator("option", { hasText: name })).toHaveCount(0);
    expect(new URL(appFrame(page).url()).searchParams.get("sidx")).toBe("name");
  });

  test("in Chinese: the views control and dialog speak Chinese and pass axe", async ({ page }) => {
    const frame = await openInAdmin(page, "/orders?lang=zh-CN");
    const views = frame.getByTestId("saved-views");
    await expect(frame.getByLabel("已保存的视图")).toBeVisible();
    await views.getByRole("button", { name: "保存视图" }).click();
    const dialog = frame.getByRole("dialog", { name: "保存此视图" });
    await dialog.getByLabel("名称").fill("我的订单");
    await expectAccessible(page, { include: APP_FRAME, label: "save view dialog in Chinese" });
    await dialog.getByRole("button", { name: "保存视图" }).click();
    await expect(views.getByRole("status")).toHaveText("已保存视图“我的订单”。");
    await expect(frame.getByLabel("已保存的视图")).toHaveValue(/.+/);
  });
});
