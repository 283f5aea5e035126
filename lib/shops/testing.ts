import { emptyShopForm, type ShopForm } from "./shop-form";

/** Test helper: a shop form with every §4.8 required field filled, `sid` its store id. */
export function sampleShopForm(sid: string, patch: Partial<ShopForm> = {}): ShopForm {
  return {
    ...emptyShopForm(),
    sid,
    businessName: "贝果咖啡",
    branchName: "人民广场店",
    telephone: "021-6000 0000",
    province: "上海",
    city: "上海市",
    district: "黄浦区",
    address: "人民大道 1 号",
    categories: ["美食,咖啡厅"],
    longitude: "121.4737",
    latitude: "31.2304",
    ...patch,
  };
}
