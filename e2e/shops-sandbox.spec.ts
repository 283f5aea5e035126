import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/a11y";
import { APP_FRAME, appFrame, horizontalOverflow, openArea, openInAdmin } from "./support/admin-frame";
import { ALPHA } from "./support/sandbox-login";
import { attachScreenshot } from "./support/screenshots";
import { sandboxSuite } from "./support/suite";

/**
 * Shops and shop groups (§4.8) through the real chain: sandbox marketplace → the console in the
 * admin's 1024-px iframe → the app's shop routes → the sandbox API. What was sent is checked through
 * the sandbox's control plane (`/__sandbox/stores`, `/__sandbox/store-groups`), since §4.8 has no
 * shop list.
 */

type StoreRow = { id: string; sid: string; shopName: string; branchName: string; shopInfoAll: string };
type GroupRow = { id: string; name: string; remark: string; shopIds: string | null };

const controlRows = async <T,>(path: string): Promise<T[]> => ((await (await fetch(`${ALPHA.origin}/__sandbox${path}?environment=alpha`)).json()) as { rows: T[] }).rows;
const stores = () => controlRows<StoreRow>("/stores");
const groups = () => controlRows<GroupRow>("/store-groups");

test.describe.serial("shops and shop groups through the sandbox", () => {
  sandboxSuite({ reset: { customers: 20 }, window: { width: 1024, height: 900 } });
  const stamp = Date.now().toString(36).toUpperCase();
  const sid = `E2E-${stamp}`;
  const bogus = "9007199254749999";
  let seeded: GroupRow;
  let ungrouped: StoreRow;

  test.beforeAll(async () => {
    const all = await groups();
    seeded = all.find((g) => g.name === "华东门店")!;
    expect(seeded.shopIds!.split(",")).toHaveLength(6);
    const grouped = new Set(all.flatMap((g) => g.shopIds?.split(",") ?? []));
    ungrouped = (await stores()).find((s) => !grouped.has(s.id))!;
    expect(ungrouped).toBeDefined();
  });

  test("the navigation reaches Shops; opening a seeded group by id fills the register; both languages, axe clean", async ({ page }) => {
    const frame = await openArea(page, "Shops");
    await expect(frame.getByText(/this is the app's register/)).toBeVisible();
    await frame.getByRole("textbox", { name: "Group id" }).fill(seeded.id);
    await frame.getByRole("button", { name: "Open group" }).click();
    await expect(frame.getByRole("heading", { level: 1, name: new RegExp(seeded.id) })).toBeVisible();
    await expect(frame.getByTestId("group-count")).toContainText("Shops in this group: 6");
    await expect.poll(async () => (await frame.getByTestId("group-shops").locator("tbody tr td:first-child").allTextContents()).map((s) => s.trim())).toEqual(seeded.shopIds!.split(","));

    // The register now holds them, with names and codes from the read.
    await frame.getByRole("navigation").getByRole("link", { name: "Shops" }).click();
    await frame.getByRole("searchbox", { name: "Search" }).fill("S0001");
    const row = frame.getByTestId("shops-table").locator("tbody tr");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("贝果咖啡(");
    await expect(row).toContainText("A group read");
    expect(await horizontalOverflow(appFrame(page))).toBeLessThanOrEqual(0);
    await attachScreenshot(page, "shops-register");
    await expectAccessible(page, { include: APP_FRAME, label: "shops en" });

    const zh = await openInAdmin(page, "/shops/groups?lang=zh-CN");
    await expect(zh.getByRole("heading", { level: 1, name: "门店组" })).toBeVisible();
    await expect(zh.getByRole("navigation").getByRole("link", { name: "门店" })).toHaveAttribute("aria-current", "page");
    await expect(zh.getByRole("navigation").getByRole("link", { name: "媒体数据导入" })).toBeVisible();
    await expect(zh.getByTestId("groups-table")).toContainText(seeded.id);
    await expectAccessible(page, { include: APP_FRAME, label: "shop groups zh-CN" });
  });

  test("create a shop (required fields first, a sid the platform refuses shown on its field), edit it, delete it", async ({ page }) => {
    test.setTimeout(120_000);
    const frame = await openArea(page, "Shops");
    await frame.getByRole("link", { name: "New shop" }).click();
    await expect(frame.getByRole("heading", { level: 1, name: "New shop" })).toBeVisible();

    // §4.8 required fields are checked before anything is sent.
    const sidBox = frame.getByRole("textbox", { name: "Shop code (sid) *" });
    await frame.getByRole("button", { name: "Create shop" }).click();
    await expect(sidBox).toHaveAttribute("aria-invalid", "true");
    await expect(sidBox).toBeFocused();
    await expect(frame.getByRole("textbox", { name: "Telephone *" })).toHaveAttribute("aria-invalid", "true");
    await expect(frame.getByText("No category chosen yet.")).toBeVisible();

    // A code the platform already has for a shop the register cannot know (in no group).
    await sidBox.fill(ungrouped.sid);
    await frame.getByRole("textbox", { name: "Business name *" }).fill("贝果咖啡");
    await frame.getByRole("textbox", { name: "Branch name *" }).fill(`测试店 ${stamp}`);
    await frame.getByRole("textbox", { name: "Telephone *" }).fill("021-6000 1234");
    await frame.getByRole("textbox", { name: "Province *" }).fill("上海");
    await frame.getByRole("textbox", { name: "City *" }).fill("上海市");
    await frame.getByRole("textbox", { name: "District *" }).fill("黄浦区");
    await frame.getByRole("textbox", { name: "Street address *" }).fill("人民大道 100 号");
    await frame.getByRole("combobox", { name: "Category path" }).fill("美食,咖啡厅");
    await frame.getByRole("button", { name: "Add category" }).click();
    await frame.getByRole("combobox", { name: "Category path" }).fill("购物 ， 超市便利店");
    await frame.getByRole("button", { name: "Add category" }).click();
    await expect(frame.getByTestId("chosen-categories").locator("li")).toHaveText([/美食,咖啡厅/, /购物,超市便利店/]);
    await expect(frame.getByText(/GCJ-02/)).toBeVisible();
    await frame.getByRole("textbox", { name: "Paste coordinates" }).fill("121.4737，31.2304");
    await frame.getByRole("button", { name: "Fill in" }).click();
    await expect(frame.getByRole("textbox", { name: "Longitude *" })).toHaveValue("121.4737");
    await expect(frame.getByRole("textbox", { name: "Latitude *" })).toHaveValue("31.2304");
    await frame.getByRole("textbox", { name: "Photo URLs" }).fill("https://img.example.test/front.jpg");
    await frame.getByText("Show the JSON that will be sent").click();
    await expect(frame.getByTestId("shop-json")).toHaveValue(new RegExp(`base_info.*${ungrouped.sid}`));

    const before = (await stores()).length;
    await frame.getByRole("button", { name: "Create shop" }).click();
    // The platform's {error} (§7.5) names base_info.sid: it is put on that field, which takes the focus.
    await expect(sidBox).toHaveAttribute("aria-invalid", "true");
    await expect(sidBox).toBeFocused();
    await expect(frame.getByText(`shopInfoAll.business.base_info.sid ${ungrouped.sid} is already used by store ${ungrouped.id}`)).toBeVisible();
    expect((await stores()).length).toBe(before);

    await sidBox.fill(sid);
    await expect(sidBox).not.toHaveAttribute("aria-invalid", "true");
    await frame.getByRole("button", { name: "Create shop" }).click();
    await expect(frame.getByRole("heading", { level: 1, name: "Shops" })).toBeVisible();
    const created = (await stores()).find((s) => s.sid === sid)!;
    expect(created).toBeDefined();
    expect(JSON.parse(created.shopInfoAll).business.base_info).toMatchObject({ longitude: 121.4737, latitude: 31.2304, categories: ["美食,咖啡厅", "购物,超市便利店"], photo_list: [{ photo_url: "https://img.example.test/front.jpg" }] });
    await frame.getByRole("searchbox", { name: "Search" }).fill(sid);
    await expect(frame.getByTestId("shops-table").locator("tbody tr")).toHaveCount(1);
    await expect(frame.getByTestId("shops-table")).toContainText(created.id);
    await expect(frame.getByTestId("shops-table")).toContainText("Created here");

    // Edit.
    await frame.getByRole("link", { name: `Edit shop ${created.shopName}` }).click();
    const branch = frame.getByRole("textbox", { name: "Branch name *" });
    await expect(branch).toHaveValue(`测试店 ${stamp}`);
    await branch.fill(`改名店 ${stamp}`);
    await frame.getByRole("button", { name: "Save changes" }).click();
    await expect(frame.getByRole("heading", { level: 1, name: "Shops" })).toBeVisible();
    await expect.poll(async () => (await stores()).find((s) => s.id === created.id)?.branchName).toBe(`改名店 ${stamp}`);

    // Delete, after a confirmation (§4.8: `message: success` is success).
    await frame.getByRole("searchbox", { name: "Search" }).fill(sid);
    await frame.getByRole("link", { name: `Edit shop 贝果咖啡(改名店 ${stamp})` }).click();
    await frame.getByRole("button", { name: "Delete shop" }).click();
    const dialog = frame.getByRole("alertdialog");
    await expect(dialog).toContainText("cannot be undone");
    await expect(dialog.getByRole("button", { name: "Keep the shop" })).toBeFocused();
    await dialog.getByRole("button", { name: "Delete the shop" }).click();
    await expect(frame.getByRole("heading", { level: 1, name: "Shops" })).toBeVisible();
    await expect.poll(async () => (await stores()).some((s) => s.id === created.id)).toBe(false);
    await frame.getByRole("searchbox", { name: "Search" }).fill(sid);
    await expect(frame.getByTestId("shops-no-results")).toBeVisible();
    await attachScreenshot(page, "shops-after-delete");
  });

  test("create a group from the register with one shop that fails (double click: one group); the group page lists it", async ({ page }) => {
    test.setTimeout(120_000);
    const frame = await openArea(page, "Shops");
    // A shop id the platform does not have, added by hand.
    await frame.getByRole("textbox", { name: "Shop id" }).fill(bogus);
    await frame.getByRole("button", { name: "Add to register" }).click();
    await expect(frame.getByRole("searchbox", { name: "Search" })).toBeVisible();
    await frame.getByRole("combobox", { name: "Show" }).selectOption("unseen");
    await expect(frame.getByTestId("shops-table")).toContainText(bogus);

    await frame.getByRole("link", { name: "Shop groups" }).click();
    await frame.getByRole("link", { name: "New group" }).click();
    await expect(frame.getByRole("heading", { level: 1, name: "New shop group" })).toBeVisible();
    await frame.getByRole("button", { name: "Create group" }).click();
    await expect(frame.getByText("Pick at least one shop.")).toBeVisible();
    const name = `E2E 组 ${stamp}`;
    await frame.getByRole("textbox", { name: "Name *" }).fill(name);
    await frame.getByRole("textbox", { name: "Remark *" }).fill("一个成功，一个失败");
    const search = frame.getByRole("searchbox", { name: "Search the register" });
    await search.fill("S0001");
    const good = seeded.shopIds!.split(",")[0]!;
    await frame.getByRole("checkbox", { name: new RegExp(good) }).check();
    await search.fill(bogus);
    await frame.getByRole("checkbox", { name: new RegExp(bogus) }).check();
    await expect(frame.getByTestId("group-chosen")).toContainText("Shops chosen: 2");

    await frame.getByRole("button", { name: "Create group" }).dblclick();
    const result = frame.getByTestId("group-result");
    await expect(result.getByRole("heading", { name: "Added: 1", exact: true })).toBeVisible();
    await expect(result.getByRole("heading", { name: "Not added: 1", exact: true })).toBeVisible();
    await expect(result.getByTestId("group-success")).toContainText(good);
    await expect(result.getByTestId("group-success")).toContainText("贝果咖啡(");
    await expect(result.getByTestId("group-failed")).toContainText(bogus);
    const made = (await groups()).filter((g) => g.name === name);
    expect(made).toHaveLength(1);
    expect(made[0]!.shopIds).toBe(good);
    expect(await horizontalOverflow(appFrame(page))).toBeLessThanOrEqual(0);
    await attachScreenshot(page, "shop-group-result");

    await result.getByRole("link", { name: "Open the group" }).click();
    await expect(frame.getByTestId("group-count")).toContainText("Shops in this group: 1");
    await expect(frame.getByTestId("group-shops")).toContainText(good);
    await frame.getByRole("link", { name: "Shop groups" }).click();
    await expect(frame.getByTestId("groups-table")).toContainText(name);
    await expect(frame.getByTestId("groups-table")).toContainText("Created here");
    await expectAccessible(page, { include: APP_FRAME, label: "shop groups en" });
  });
});
