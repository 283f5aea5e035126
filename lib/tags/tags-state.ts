import { createParser, parseAsStringLiteral } from "@/lib/ui/url-parsers";
import { charLength, LIMITS } from "@/lib/platform/limits";
import type { InputOf } from "@/lib/platform/operations";
import { defineList, offsetFirstPage } from "@/lib/ui/list-state";
import { defineUrlState, parseAsIntegerIf, parseAsOrder, parseAsPage, parseAsPageSize } from "@/lib/ui/url-params";

/** `sidx` values offered (§4.5: `id` is the platform default; the other fields of §2.6). */
export const TAG_SORTS = ["id", "name", "dimension", "dateCreated", "lastUpdated"] as const;
export type TagSort = (typeof TAG_SORTS)[number];
/** §4.5: `max` of GET /v1/tagdimensions defaults to 20; the console asks for more, in steps. */
export const DIMENSION_MAX_STEP = 100;
/** The most dimensions one request asks for (the maximum of `max` is not shown, §8). */
export const DIMENSION_MAX_LIMIT = 1000;

/**
 * The tags page's URL: §4.5 GET /v1/tags paging (rows, page, sidx, sord), the dimension shown
 * (`dim`, a filter of the rows of the current page only: GET /v1/tags has no dimension parameter)
 * and how many dimensions GET /v1/tagdimensions is asked for (`dmax`, its `max`).
 */
export const tagsUrlState = defineList(defineUrlState(
  {
    sort: parseAsStringLiteral(TAG_SORTS).withDefault("id"),
    order: parseAsOrder("asc"),
    page: parseAsPage,
    rows: parseAsPageSize(),
    // §8: a tag's dimension is at most 255 characters; a longer value is no dimension.
    dimension: createParser({ parse: (v) => (charLength(v) <= LIMITS.tagDimension ? v : null), serialize: String }).withDefault(""),
    dimensionMax: parseAsIntegerIf((n) => n >= DIMENSION_MAX_STEP && n <= DIMENSION_MAX_LIMIT && n % DIMENSION_MAX_STEP === 0).withDefault(DIMENSION_MAX_STEP),
  },
  { sort: "sidx", order: "sord", dimension: "dim", dimensionMax: "dmax" },
), offsetFirstPage);
export type TagsState = typeof tagsUrlState.defaults;

/** §4.5 GET /v1/tags: rows, page, sidx, sord. The dimension is not sent: the endpoint has no such filter. */
export function tagsInput(state: TagsState): InputOf<"tags.list"> {
  return { query: { rows: state.rows, page: state.page, sidx: state.sort, sord: state.order } };
}

/** §4.5 GET /v1/tagdimensions with `max`. */
export function dimensionsInput(state: Pick<TagsState, "dimensionMax">): InputOf<"tagDimensions.list"> {
  return { query: { max: state.dimensionMax } };
}

/** The next `max` when every asked-for dimension came back (there may be more), else undefined. */
export function moreDimensionsMax(state: Pick<TagsState, "dimensionMax">, received: number): number | undefined {
  if (received < state.dimensionMax || state.dimensionMax >= DIMENSION_MAX_LIMIT) return undefined;
  return state.dimensionMax + DIMENSION_MAX_STEP;
}

/** The rows of one page that are in `dimension` ("" = all): the filter covers this page only. */
export function rowsInDimension<T extends { dimension?: string | null }>(rows: readonly T[], dimension: string): T[] {
  return dimension === "" ? [...rows] : rows.filter((r) => r.dimension === dimension);
}
