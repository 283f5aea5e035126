/**
 * The contract of the app's shop routes (`/api/shops…`, `/api/shop-groups…`), shared by the route
 * handlers and the browser. Ids are decimal strings (64-bit, §2); times are epoch milliseconds.
 */

/** How the app learned of a shop: created or updated through it, seen in a group read, or added by id by staff. */
export type ShopSource = "created" | "updated" | "group" | "manual";

/** A shop of the tenant's register (§2.8 fields the app keeps). */
export type RegisteredShop = {
  id: string;
  sid: string | null;
  businessName: string | null;
  branchName: string | null;
  shopName: string | null;
  /** The platform's `shopStatus` and `refuseReason`, where an answer carried them. */
  shopStatus: string | null;
  refuseReason: string | null;
  shopInfoAll: string | null;
  source: ShopSource;
  /** When the platform last returned it; null: added by id and never seen. */
  seenAt: number | null;
  updatedAt: number;
};

export const SHOP_SORTS = ["updated", "name", "sid", "id"] as const;
export type ShopSort = (typeof SHOP_SORTS)[number];
/** `seen`: the platform returned it; `unseen`: added by id, never returned. */
export const SHOP_STATES = ["all", "seen", "unseen"] as const;
export type ShopState = (typeof SHOP_STATES)[number];

export const MAX_REGISTER_PAGE = 500;

/** `GET /api/shops?q=&sort=&order=&state=`: the register, at most `MAX_REGISTER_PAGE` rows, `total` of the filter. */
export type ShopListAnswer = { shops: RegisteredShop[]; total: number };

/** `POST /api/shops` / `PUT /api/shops/{id}` body: the `shopInfoAll` object (§4.8). */
/** `requestKey`: one per create dialog (8 to 64 of A-Z a-z 0-9 _ -): sent twice, it is one shop. */
export type ShopWrite = { requestKey?: string; shopInfoAll: { business: { base_info: Record<string, unknown> } } };
export type ShopAnswer = { shop: RegisteredShop };

/** `POST /api/shops/known` body: a shop id staff add to the register. */
export type AddKnownShop = { id: string };
export type AddKnownAnswer = { shop: RegisteredShop; added: boolean };

/** A group the app created or opened. */
export type RememberedGroup = {
  id: string;
  name: string | null;
  remark: string | null;
  origin: "created" | "opened";
  createdByName: string | null;
  shopCount: number | null;
  createdAt: number;
  readAt: number | null;
};

/** `POST /api/shop-groups` body (§4.8: name, remark and shops all required). */
/** `requestKey`: one per create dialog: sent twice, it is one group. */
export type GroupWrite = { requestKey?: string; name: string; remark: string; shopIds: string[] };
/** The platform's `success` and `failed` ids with the names the register knows. */
export type GroupCreateAnswer = { group: RememberedGroup; success: NamedShopId[]; failed: NamedShopId[] };
export type NamedShopId = { id: string; name: string | null };

/** `GET /api/shop-groups/{id}`: the group's shops read from the platform (now in the register too). */
export type GroupReadAnswer = { group: RememberedGroup; shops: RegisteredShop[] };
export type GroupListAnswer = { groups: RememberedGroup[] };

/** A shop's name as staff know it: the platform's `shopName`, else business and branch. */
export function shopLabel(shop: Pick<RegisteredShop, "shopName" | "businessName" | "branchName">): string | null {
  if (shop.shopName) return shop.shopName;
  const parts = [shop.businessName, shop.branchName].filter(Boolean);
  return parts.length > 0 ? parts.join(" ") : null;
}
