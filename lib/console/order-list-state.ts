import type { InputOf } from "@/lib/platform/operations";

/**
 * The orders page state as it lives in the page URL (written with replace, see `useUrlState`):
 * §4.2 GET /v1/deals with `customerId` (optional), `rows`, `page` (from 1) and the sort on
 * `dateOrder` (the platform's default `sidx`). The console shows the newest first unless `sord=asc`.
 * Unknown values fall back to the defaults.
 */

export const ORDER_PAGE_SIZES = [20, 50, 100] as const;
export const MAX_ORDER_PAGE = 1_000_000;
export type OrderListState = { customerId: string; order: "asc" | "desc"; page: number; rows: number };
export const DEFAULT_ORDER_LIST_STATE: OrderListState = { customerId: "", order: "desc", page: 1, rows: 20 };

const OURS = ["customerId", "sord", "page", "rows"];
/** §2: ids are 64-bit integers. */
export const ID_PATTERN = /^\d{1,19}$/;

export function parseOrderListState(params: URLSearchParams): OrderListState {
  const customerId = (params.get("customerId") ?? "").trim();
  const page = Number(params.get("page"));
  const rows = Number(params.get("rows"));
  return {
    customerId: ID_PATTERN.test(customerId) ? customerId : "",
    order: params.get("sord") === "asc" ? "asc" : "desc",
    page: Number.isInteger(page) && page >= 1 && page <= MAX_ORDER_PAGE ? page : 1,
    rows: (ORDER_PAGE_SIZES as readonly number[]).includes(rows) ? rows : DEFAULT_ORDER_LIST_STATE.rows,
  };
}

/** The URL query of a state: defaults left out, other parameters (openAppId, lang, …) kept. */
export function serializeOrderListState(state: OrderListState, keep?: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of keep ?? []) if (!OURS.includes(key)) out.append(key, value);
  if (state.customerId) out.set("customerId", state.customerId);
  if (state.order !== DEFAULT_ORDER_LIST_STATE.order) out.set("sord", state.order);
  if (state.page !== 1) out.set("page", String(state.page));
  if (state.rows !== DEFAULT_ORDER_LIST_STATE.rows) out.set("rows", String(state.rows));
  return out;
}

/** §4.2 list input; `sidx` and `sord` always sent (the platform's own default order is ascending). */
export function orderListInput(state: OrderListState): InputOf<"deals.list"> {
  return { query: { ...(state.customerId ? { customerId: state.customerId } : {}), rows: state.rows, page: state.page, sidx: "dateOrder", sord: state.order } };
}

/** Pages of a §4.2 answer `{page, records, rows}` (it carries no page count). */
export function pageCount(records: number | null | undefined, rows: number): number | undefined {
  if (typeof records !== "number" || !Number.isFinite(records)) return undefined;
  return Math.max(1, Math.ceil(records / rows));
}

/** The console path of an order: its number is one path segment, encoded (it may hold `/`, `#`, `?`, `%`, spaces). */
export function orderPath(orderNo: string, suffix = ""): string {
  return `/orders/${encodeURIComponent(orderNo)}${suffix}`;
}

/** The order number of a `/orders/[orderNo]` route parameter (the segment `orderPath` encoded). */
export function orderNoFromParam(param: string): string | undefined {
  let value = param;
  // Next hands the dynamic segment over still percent-encoded (see the e2e spec's order number with `/ # ? %`).
  try {
    value = decodeURIComponent(param);
  } catch {
    return undefined;
  }
  return value.trim() === "" ? undefined : value;
}
