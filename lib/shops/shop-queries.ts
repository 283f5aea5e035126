import { appKeys } from "@/lib/http/app-routes";
import { appCall, pageOpenAppId } from "@/lib/api/browser-fetch";
import type { ShopQuery } from "./shop-list-query";
import type { GroupWrite, ShopWrite } from "./shops-api";

/**
 * The browser's calls of the shop routes and their React Query keys, both from the app's route
 * table (lib/http/app-routes.ts): keys `["app", "stores" | "storeGroups", openAppId, name, input]`,
 * so a webhook about stores (or a proxy write) refreshes the register too.
 */
export const shopKeys = {
  all: appKeys.resource("stores"),
  list: (query: ShopQuery) => appKeys.call("shops.list", pageOpenAppId(), { query }),
  shop: (id: string) => appKeys.call("shops.get", pageOpenAppId(), { params: { id } }),
  groups: appKeys.resource("storeGroups"),
  group: (id: string) => appKeys.call("shopGroups.get", pageOpenAppId(), { params: { id } }),
};

export const shopsApi = {
  list: (query: ShopQuery, signal?: AbortSignal) => appCall("shops.list", { query }, { signal }),
  get: (id: string, signal?: AbortSignal) => appCall("shops.get", { params: { id } }, { signal }),
  create: (body: ShopWrite) => appCall("shops.create", { body }),
  update: (id: string, body: ShopWrite) => appCall("shops.update", { params: { id }, body }),
  remove: (id: string) => appCall("shops.delete", { params: { id } }),
  addKnown: (id: string) => appCall("shops.addKnown", { body: { id } }),
  groups: (signal?: AbortSignal) => appCall("shopGroups.list", {}, { signal }),
  createGroup: (body: GroupWrite) => appCall("shopGroups.create", { body }),
  readGroup: (id: string, signal?: AbortSignal) => appCall("shopGroups.get", { params: { id } }, { signal }),
};
