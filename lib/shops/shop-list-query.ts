import { parseAsStringLiteral } from "@/lib/ui/url-parsers";
import { defineList } from "@/lib/ui/list-state";
import { defineUrlState, parseAsOrder, parseAsText } from "@/lib/ui/url-params";
import { SHOP_SORTS, SHOP_STATES, type ShopSort, type ShopState } from "./shops-api";

/** The register list's query (`GET /api/shops`); defaults stay out of the request. */
export type ShopQuery = { q?: string; sort?: ShopSort; order?: "asc" | "desc"; state?: ShopState };

/**
 * The Shops page's list in its URL: the search (at most 200 characters, as the route takes), the
 * sort and what to show. The register answers at most `MAX_REGISTER_PAGE` rows of a filter, whole:
 * there is no page to go back to.
 */
export const shopListState = defineList(
  defineUrlState({
    q: parseAsText(200),
    sort: parseAsStringLiteral(SHOP_SORTS).withDefault("updated"),
    order: parseAsOrder("desc"),
    state: parseAsStringLiteral(SHOP_STATES).withDefault("all"),
  }),
);
export type ShopListState = typeof shopListState.defaults;
export const DEFAULT_SHOP_QUERY: ShopListState = shopListState.defaults;

export function shopQueryOf(state: ShopListState): ShopQuery {
  const query: ShopQuery = {};
  if (state.q.trim()) query.q = state.q.trim();
  if (state.sort !== DEFAULT_SHOP_QUERY.sort) query.sort = state.sort;
  if (state.order !== DEFAULT_SHOP_QUERY.order) query.order = state.order;
  if (state.state !== DEFAULT_SHOP_QUERY.state) query.state = state.state;
  return query;
}

/** Sort keys of the shop groups page (the app's groups, answered whole). */
export const GROUP_SORTS = ["created", "id", "name", "count"] as const;
export type GroupSort = (typeof GROUP_SORTS)[number];

/** The shop groups page's sort in its URL (newest first by default). */
export const groupListState = defineList(
  defineUrlState({ sort: parseAsStringLiteral(GROUP_SORTS).withDefault("created"), order: parseAsOrder("desc") }, { sort: "sidx", order: "sord" }),
);
