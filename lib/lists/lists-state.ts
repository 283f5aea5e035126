import { parseAsStringLiteral } from "@/lib/ui/url-parsers";
import { textProblem } from "@/lib/forms/field-errors";
import { LIMITS } from "@/lib/platform/limits";
import type { InputOf } from "@/lib/platform/operations";
import { defineList, offsetFirstPage } from "@/lib/ui/list-state";
import { defineUrlState, parseAsOrder, parseAsPage, parseAsPageSize } from "@/lib/ui/url-params";

/** `sidx` values the lists page offers (§4.4: `id` is the platform default). */
export const LIST_SORTS = ["id", "name", "dateCreated", "lastUpdated"] as const;
export type ListSort = (typeof LIST_SORTS)[number];

/** The lists page's URL (§4.4 GET /v1/lists: rows, page, sidx, sord). */
export const listsUrlState = defineList(
  defineUrlState({ sort: parseAsStringLiteral(LIST_SORTS).withDefault("id"), order: parseAsOrder("asc"), page: parseAsPage, rows: parseAsPageSize() }, { sort: "sidx", order: "sord" }),
  offsetFirstPage,
);
export type ListsState = typeof listsUrlState.defaults;

export function listsInput(state: ListsState): InputOf<"lists.list"> {
  return { query: { rows: state.rows, page: state.page, sidx: state.sort, sord: state.order } };
}

/** What is wrong with a list name as typed (§8), or undefined. */
export function listNameProblem(name: string): "required" | "tooLong" | undefined {
  return textProblem(name.trim() === "" ? "" : name, LIMITS.listName)?.code;
}
