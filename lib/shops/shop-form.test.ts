import { describe, expect, it } from "vitest";
import { emptyShopForm, normalizeCategory, parseCoordinates, placeShopErrors, shopFieldOf, shopFormFrom, shopInfoAllOf, validateShopForm, type ShopForm } from "./shop-form";
import { toggleShop, validateGroupForm } from "./group-form";
import { sampleShopForm } from "./testing";

const filled: ShopForm = sampleShopForm("S-1");

describe("the shop form (§4.8)", () => {
  it("every §4.8 required field is required; a filled form has no problem", () => {
    expect(Object.keys(validateShopForm(emptyShopForm())).sort()).toEqual(["address", "branchName", "businessName", "categories", "city", "district", "latitude", "longitude", "province", "sid", "telephone"].sort());
    expect(validateShopForm(filled)).toEqual({});
    expect(validateShopForm({ ...filled, sid: "   " })).toEqual({ sid: { code: "required" } });
  });

  it("checks shapes: coordinates in range, numbers, telephone, photo URLs, category levels, lengths", () => {
    expect(validateShopForm({ ...filled, longitude: "181", latitude: "abc" })).toEqual({ longitude: { code: "range", min: -180, max: 180 }, latitude: { code: "number" } });
    expect(validateShopForm({ ...filled, telephone: "call me" }).telephone).toEqual({ code: "telephone" });
    expect(validateShopForm({ ...filled, photos: "https://img.test/a.jpg\n\nftp://x" }).photos).toEqual({ code: "photoUrl", line: 2 });
    expect(validateShopForm({ ...filled, categories: ["美食,"] }).categories).toEqual({ code: "category", path: "美食," });
    expect(validateShopForm({ ...filled, avgPrice: "-1" }).avgPrice).toEqual({ code: "range", min: 0, max: 1e9 });
    expect(validateShopForm({ ...filled, branchName: "店".repeat(256) }).branchName).toEqual({ code: "tooLong", max: 255 });
  });

  it("becomes shopInfoAll {business: {base_info}}: numbers as numbers, empty optional fields left out, hidden fields of the shop kept", () => {
    expect(shopInfoAllOf(filled)).toEqual({
      business: {
        base_info: { sid: "S-1", telephone: "021-6000 0000", business_name: "贝果咖啡", branch_name: "人民广场店", province: "上海", city: "上海市", district: "黄浦区", address: "人民大道 1 号", categories: ["美食,咖啡厅"], longitude: 121.4737, latitude: 31.2304 },
      },
    });
    const original = JSON.stringify({ business: { base_info: { offset_type: 1, special: "旗舰", open_time: "old", sid: "old" } } });
    const info = shopInfoAllOf({ ...filled, photos: "https://img.test/a.jpg\nhttps://img.test/b.jpg", avgPrice: "35.5", openTime: "" }, original).business.base_info;
    expect(info).toMatchObject({ offset_type: 1, special: "旗舰", sid: "S-1", avg_price: 35.5, photo_list: [{ photo_url: "https://img.test/a.jpg" }, { photo_url: "https://img.test/b.jpg" }] });
    expect(info).not.toHaveProperty("open_time");
  });

  it("reads a shop's shopInfoAll back into the form (round trip), and anything unreadable as empty", () => {
    const back = shopFormFrom(JSON.stringify(shopInfoAllOf({ ...filled, photos: "https://img.test/a.jpg", avgPrice: "35" })));
    expect(back).toEqual({ ...filled, photos: "https://img.test/a.jpg", avgPrice: "35" });
    expect(shopFormFrom("{not json")).toEqual(emptyShopForm());
    expect(shopFormFrom(null)).toEqual(emptyShopForm());
  });

  it("category paths: levels trimmed, full-width commas accepted, an empty level refused", () => {
    expect(normalizeCategory(" 美食 ， 咖啡厅 ")).toBe("美食,咖啡厅");
    expect(normalizeCategory("美食,,咖啡")).toBeUndefined();
    expect(normalizeCategory("")).toBeUndefined();
  });

  it("pasted coordinates are longitude, latitude as pickers copy them", () => {
    expect(parseCoordinates("121.4737,31.2304")).toEqual({ longitude: "121.4737", latitude: "31.2304" });
    expect(parseCoordinates(" 121.4737， 31.2304 ")).toEqual({ longitude: "121.4737", latitude: "31.2304" });
    expect(parseCoordinates("121.4737 31.2304")).toEqual({ longitude: "121.4737", latitude: "31.2304" });
    expect(parseCoordinates("31.2304,121.4737")).toBeUndefined();
    expect(parseCoordinates("121.4")).toBeUndefined();
  });

  it("the platform's answers are put on their field: fieldErrors by name, an {error} message naming a base_info field", () => {
    expect(shopFieldOf("shopInfoAll.business.base_info.branch_name")).toBe("branchName");
    expect(shopFieldOf("sid")).toBe("sid");
    expect(placeShopErrors([{ field: "shopInfoAll.business.base_info.telephone", message: "is required" }], "x").byField).toEqual({ telephone: "is required" });
    const message = "shopInfoAll.business.base_info.sid S0011 is already used by store 9007199254741001";
    expect(placeShopErrors([], message)).toEqual({ byField: { sid: message }, unplaced: [] });
    expect(placeShopErrors([], "the sid is already taken").byField).toEqual({ sid: "the sid is already taken" });
    expect(placeShopErrors([], "shopInfoAll is not valid JSON").byField).toEqual({});
  });
});

describe("the shop group form (§4.8)", () => {
  it("name, remark and one shop at least are required; picks toggle in order", () => {
    expect(validateGroupForm({ name: " ", remark: "", shopIds: [] })).toEqual({ name: { code: "required" }, remark: { code: "required" }, shopIds: { code: "pickOne" } });
    expect(validateGroupForm({ name: "华东", remark: "x", shopIds: ["1"] })).toEqual({});
    expect(toggleShop(toggleShop(toggleShop([], "1"), "2"), "1")).toEqual(["2"]);
  });
});
