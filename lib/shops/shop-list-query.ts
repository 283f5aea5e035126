import type { ShopSort, ShopState } from "./shops-api";

/** The register list's query (`GET /api/shops`); defaults stay out of the request. */
export type ShopQuery = { q?: string; sort?: ShopSort; order?: "asc" | "desc"; state?: ShopState };

export const DEFAULT_SHOP_QUERY = { q: "", sort: "updated", order: "desc", state: "all" } as const satisfies Required<ShopQuery>;

export function shopQueryOf(state: Required<ShopQuery>): ShopQuery {
  const query: ShopQuery = {};
  if (state.q.trim()) query.q = state.q.trim();
  if (state.sort !== DEFAULT_SHOP_QUERY.sort) query.sort = state.sort;
  if (state.order !== DEFAULT_SHOP_QUERY.order) query.order = state.order;
  if (state.state !== DEFAULT_SHOP_QUERY.state) query.state = state.state;
  return query;
}
