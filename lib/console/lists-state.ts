import { textProblem } from "@/lib/forms/field-errors";
import { LIMITS } from "@/lib/platform/limits";
import type { InputOf } from "@/lib/platform/operations";

/**
 * The state of the lists page (§4.4 GET /v1/lists: rows, page, sidx, sord) as it lives in the page
 * URL (written with replace, see `useUrlState`). Unknown values fall back to the defaults.
 */

/** `sidx` values the lists page offers (§4.4: `id` is the platform default). */
export const LIST_SORTS = ["id", "name", "dateCreated", "lastUpdated"] as const;
export type ListSort = (typeof LIST_SORTS)[number];
export const LIST_PAGE_SIZES = [20, 50, 100] as const;
export const MAX_LIST_PAGE = 1_000_000;

export type ListsState = { sort: ListSort; order: "asc" | "desc"; page: number; rows: number };
export const DEFAULT_LISTS_STATE: ListsState = { sort: "id", order: "asc", page: 1, rows: 20 };

const OURS = ["sidx", "sord", "page", "rows"];

export function parseListsState(params: URLSearchParams): ListsState {
  const sort = params.get("sidx") ?? "";
  const page = Number(params.get("page"));
  const rows = Number(params.get("rows"));
  return {
    sort: (LIST_SORTS as readonly string[]).includes(sort) ? (sort as ListSort) : DEFAULT_LISTS_STATE.sort,
    order: params.get("sord") === "desc" ? "desc" : "asc",
    page: Number.isInteger(page) && page >= 1 && page <= MAX_LIST_PAGE ? page : 1,
    rows: (LIST_PAGE_SIZES as readonly number[]).includes(rows) ? rows : DEFAULT_LISTS_STATE.rows,
  };
}

/** The URL query of a state: defaults left out, other parameters (openAppId, lang, …) kept. */
export function serializeListsState(state: ListsState, keep?: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of keep ?? []) if (!OURS.includes(key)) out.append(key, value);
  if (state.sort !== DEFAULT_LISTS_STATE.sort) out.set("sidx", state.sort);
  if (state.order !== DEFAULT_LISTS_STATE.order) out.set("sord", state.order);
  if (state.page !== 1) out.set("page", String(state.page));
  if (state.rows !== DEFAULT_LISTS_STATE.rows) out.set("rows", String(state.rows));
  return out;
}

export function listsInput(state: ListsState): InputOf<"lists.list"> {
  return { query: { rows: state.rows, page: state.page, sidx: state.sort, sord: state.order } };
}

/** What is wrong with a list name as typed (§8), or undefined. */
export function listNameProblem(name: string): "required" | "tooLong" | undefined {
  return textProblem(name.trim() === "" ? "" : name, LIMITS.listName)?.code;
}
