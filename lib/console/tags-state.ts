import type { InputOf } from "@/lib/platform/operations";

/**
 * The state of the tags page as it lives in the page URL (written with replace, see `useUrlState`):
 * §4.5 GET /v1/tags paging (rows, page, sidx, sord), the dimension shown (`dim`, a filter of the
 * rows of the current page only: GET /v1/tags has no dimension parameter) and how many dimensions
 * GET /v1/tagdimensions is asked for (`dmax`, its `max`). Unknown values fall back to the defaults.
 */

/** `sidx` values offered (§4.5: `id` is the platform default; the other fields of §2.6). */
export const TAG_SORTS = ["id", "name", "dimension", "dateCreated", "lastUpdated"] as const;
export type TagSort = (typeof TAG_SORTS)[number];
export const TAG_PAGE_SIZES = [20, 50, 100] as const;
export const MAX_TAG_PAGE = 1_000_000;
/** §4.5: `max` of GET /v1/tagdimensions defaults to 20; the console asks for more, in steps. */
export const DIMENSION_MAX_STEP = 100;
/** The most dimensions one request asks for (the maximum of `max` is not shown, §8). */
export const DIMENSION_MAX_LIMIT = 1000;

export type TagsState = { sort: TagSort; order: "asc" | "desc"; page: number; rows: number; dimension: string; dimensionMax: number };
export const DEFAULT_TAGS_STATE: TagsState = { sort: "id", order: "asc", page: 1, rows: 20, dimension: "", dimensionMax: DIMENSION_MAX_STEP };

const OURS = ["sidx", "sord", "page", "rows", "dim", "dmax"];

export function parseTagsState(params: URLSearchParams): TagsState {
  const sort = params.get("sidx") ?? "";
  const page = Number(params.get("page"));
  const rows = Number(params.get("rows"));
  const dmax = Number(params.get("dmax"));
  const dimension = params.get("dim") ?? "";
  return {
    sort: (TAG_SORTS as readonly string[]).includes(sort) ? (sort as TagSort) : DEFAULT_TAGS_STATE.sort,
    order: params.get("sord") === "desc" ? "desc" : "asc",
    page: Number.isInteger(page) && page >= 1 && page <= MAX_TAG_PAGE ? page : 1,
    rows: (TAG_PAGE_SIZES as readonly number[]).includes(rows) ? rows : DEFAULT_TAGS_STATE.rows,
    // §8: a dimension key is at most 255 characters; a longer value is no key.
    dimension: [...dimension].length <= 255 ? dimension : "",
    dimensionMax: Number.isInteger(dmax) && dmax >= DIMENSION_MAX_STEP && dmax <= DIMENSION_MAX_LIMIT && dmax % DIMENSION_MAX_STEP === 0 ? dmax : DIMENSION_MAX_STEP,
  };
}

/** The URL query of a state: defaults left out, other parameters (openAppId, lang, …) kept. */
export function serializeTagsState(state: TagsState, keep?: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of keep ?? []) if (!OURS.includes(key)) out.append(key, value);
  if (state.sort !== DEFAULT_TAGS_STATE.sort) out.set("sidx", state.sort);
  if (state.order !== DEFAULT_TAGS_STATE.order) out.set("sord", state.order);
  if (state.page !== 1) out.set("page", String(state.page));
  if (state.rows !== DEFAULT_TAGS_STATE.rows) out.set("rows", String(state.rows));
  if (state.dimension !== "") out.set("dim", state.dimension);
  if (state.dimensionMax !== DEFAULT_TAGS_STATE.dimensionMax) out.set("dmax", String(state.dimensionMax));
  return out;
}

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
