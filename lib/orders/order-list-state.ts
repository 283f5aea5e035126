import type { InputOf } from "@/lib/platform/operations";
import { defineList, offsetFirstPage } from "@/lib/ui/list-state";
import { defineUrlState, parseAsId, parseAsOrder, parseAsPage, parseAsPageSize } from "@/lib/ui/url-params";

/**
 * The orders page's URL: §4.2 GET /v1/deals with `customerId` (optional), `rows`, `page` (from 1)
 * and the sort on `dateOrder` (the platform's default `sidx`). The console shows the newest first
 * unless `sord=asc`.
 */
export const orderListUrlState = defineList(
  defineUrlState({ customerId: parseAsId, order: parseAsOrder("desc"), page: parseAsPage, rows: parseAsPageSize() }, { order: "sord" }),
  offsetFirstPage,
);
export type OrderListState = typeof orderListUrlState.defaults;

/** §4.2 list input; `sidx` and `sord` always sent (the platform's own default order is ascending). */
export function orderListInput(state: OrderListState): InputOf<"deals.list"> {
  return { query: { ...(state.customerId ? { customerId: state.customerId } : {}), rows: state.rows, page: state.page, sidx: "dateOrder", sord: state.order } };
}

/** Pages of a §4.2 answer `{page, records, rows}` (it carries no page count): `pageCount` of lib/ui/list-state.ts. */
export { pageCount } from "@/lib/ui/list-state";
