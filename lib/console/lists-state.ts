import { parseAsStringLiteral } from "#nuqs";
import type { InputOf } from "@/lib/platform/operations";
import { defineUrlState, parseAsOrder, parseAsPage, parseAsPageSize } from "./url-params";

/** `sidx` values the lists page offers (§4.4: `id` is the platform default). */
export const LIST_SORTS = ["id", "name", "dateCreated", "lastUpdated"] as const;
export type ListSort = (typeof LIST_SORTS)[number];
/** §8: a list name is at most 255 characters. */
export const LIST_NAME_MAX = 255;

/** The lists page's URL (§4.4 GET /v1/lists: rows, page, sidx, sord). */
export const listsUrlState = defineUrlState(
  { sort: parseAsStringLiteral(LIST_SORTS).withDefault("id"), order: parseAsOrder("asc"), page: parseAsPage, rows: parseAsPageSize() },
  { sort: "sidx", order: "sord" },
);
export type ListsState = typeof listsUrlState.defaults;

export function listsInput(state: ListsState): InputOf<"lists.list"> {
  return { query: { rows: state.rows, page: state.page, sidx: state.sort, sord: state.order } };
}

/** What is wrong with a list name as typed (§8), or undefined. */
export function listNameProblem(name: string): "required" | "tooLong" | undefined {
  if (name.trim() === "") return "required";
  // §8 counts characters: code points, so an emoji is one.
  if ([...name].length > LIST_NAME_MAX) return "tooLong";
  return undefined;
}
