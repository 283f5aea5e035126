import { appGet, appRequest } from "@/lib/api/browser-fetch";
import type { ShopQuery } from "./shop-list-query";
import type { AddKnownAnswer, GroupCreateAnswer, GroupListAnswer, GroupReadAnswer, GroupWrite, ShopAnswer, ShopListAnswer, ShopWrite } from "./shops-api";

/**
 * The browser's calls of the shop routes (contract: shops-api.ts) and their React Query keys,
 * under `["console", …]` (app data, not the platform proxy's keys).
 */
export const shopKeys = {
  all: ["console", "shops"] as const,
  list: (query: ShopQuery) => ["console", "shops", "list", query] as const,
  shop: (id: string) => ["console", "shops", "shop", id] as const,
  groups: ["console", "shop-groups"] as const,
  group: (id: string) => ["console", "shop-groups", "read", id] as const,
};

const listPath = (query: ShopQuery) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, String(value));
  const text = params.toString();
  return text ? `/api/shops?${text}` : "/api/shops";
};

export const shopsApi = {
  list: (query: ShopQuery, signal?: AbortSignal) => appGet<ShopListAnswer>(listPath(query), { signal }),
  get: (id: string, signal?: AbortSignal) => appGet<ShopAnswer>(`/api/shops/${id}`, { signal }),
  create: (body: ShopWrite) => appRequest<ShopAnswer>("POST", "/api/shops", body),
  update: (id: string, body: ShopWrite) => appRequest<ShopAnswer>("PUT", `/api/shops/${id}`, body),
  remove: (id: string) => appRequest<{ deleted: string }>("DELETE", `/api/shops/${id}`),
  addKnown: (id: string) => appRequest<AddKnownAnswer>("POST", "/api/shops/known", { id }),
  groups: (signal?: AbortSignal) => appGet<GroupListAnswer>("/api/shop-groups", { signal }),
  createGroup: (body: GroupWrite) => appRequest<GroupCreateAnswer>("POST", "/api/shop-groups", body),
  readGroup: (id: string, signal?: AbortSignal) => appGet<GroupReadAnswer>(`/api/shop-groups/${id}`, { signal }),
};
