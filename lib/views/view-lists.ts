import { customerListUrlState } from "@/lib/customers/customer-list-state";
import { eventBrowseUrlState } from "@/lib/events/event-browse";
import { orderListUrlState } from "@/lib/orders/order-list-state";
import { shopListState } from "@/lib/shops/shop-list-query";
import type { ViewList } from "./view-rules";

type Normalizer = { parse(source: URLSearchParams): unknown; serialize(state: never): URLSearchParams; firstPage(state: never): unknown };

const LISTS: Record<ViewList, Normalizer> = {
  customers: customerListUrlState as unknown as Normalizer,
  orders: orderListUrlState as unknown as Normalizer,
  events: eventBrowseUrlState as unknown as Normalizer,
  shops: shopListState as unknown as Normalizer,
};

/**
 * A view's query as the list itself would write it: read by the list's own parsers (unknown keys
 * and malformed values dropped, as on the page) and written back from its first page, so a view
 * holds the filters, sort and columns, never a page or another page's parameters.
 */
export function normalizeViewQuery(list: ViewList, query: string): string {
  const definition = LISTS[list];
  const state = definition.firstPage(definition.parse(new URLSearchParams(query)) as never);
  return definition.serialize(state as never).toString();
}
