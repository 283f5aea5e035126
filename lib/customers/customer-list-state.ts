import { createParser, parseAsStringLiteral, type ValuesOf } from "@/lib/ui/url-parsers";
import type { InputOf } from "@/lib/platform/operations";
import type { SearchParams } from "@/lib/search/types";
import { homeInputToUtcFilter } from "@/lib/time";
import { CUSTOMER_COLUMNS, DEFAULT_COLUMNS, SORTABLE_COLUMNS, type CustomerColumn, type SortColumn } from "./customer-columns";
import { keysetQuery, nextCursor, previousCursor, type Cursor, type IdRange } from "./id-keyset";
import { defineList, offsetFirstPage } from "@/lib/ui/list-state";
import { defineUrlState, MAX_PAGE, parseAsId, parseAsOrder, parseAsPage, parseAsPageSize, parseAsText } from "@/lib/ui/url-params";
import { isPlatformId, isPlatformIdList } from "@/lib/platform/ids";

/**
 * The state of the customers list (filters of §4.1 GET /v1/customers, sort, page, page size,
 * columns) as it lives in the page URL, and the platform queries it makes. The URL is the source of
 * truth: it survives reloads and re-authorization (returnTo), and is written with replace so the
 * host page's history is not polluted (see `useUrlState`). Times in the URL are what the user
 * typed in UTC+8; they become UTC only in the query (§2).
 */

/** The export (customer-export.ts) names its columns by this type. */
export type { CustomerColumn };

/** The text filters, as typed (URL keys equal §4.1 parameter names). */
export const TEXT_FILTERS = ["stage", "source", "mobile", "email", "identityType", "identityValue", "idList", "idFrom", "idTo"] as const;
/** Time range filters: URL key → §4.1 parameter. */
export const TIME_FILTERS = {
  createdFrom: "dateCreatedFrom",
  createdTo: "dateCreatedTo",
  updatedFrom: "lastUpdatedFrom",
  updatedTo: "lastUpdatedTo",
} as const;
export type TimeFilter = keyof typeof TIME_FILTERS;

export type TriState = "" | "true" | "false";

/** The customer index's filters (lib/search): the search box and the tag; not §4.1 parameters. */
export const SEARCH_FILTERS = ["q", "tag"] as const;

export type CustomerFilters = {
  [K in (typeof TEXT_FILTERS)[number] | (typeof SEARCH_FILTERS)[number]]: string;
} & {
  [K in TimeFilter]: string;
} & {
  /** Customers with an empty stage (`stage=_empty`, §4.1). */
  stageEmpty: boolean;
  gender: "" | "0" | "1" | "2";
  hasMobile: TriState;
  hasEmail: TriState;
};

export type CustomerListState = {
  filters: CustomerFilters;
  sort: SortColumn;
  order: "asc" | "desc";
  page: number;
  rows: number;
  columns: CustomerColumn[];
  /**
   * Keyset paging (sort by id only): the page holds the rows after / before this id, and `page` is
   * the number shown. Meaningful only with `sort: "id"` and `page > 1` (see `activeCursor`).
   */
  cursor?: Cursor;
};

export const EMPTY_FILTERS: CustomerFilters = {
  q: "", tag: "",
  stage: "", source: "", mobile: "", email: "", identityType: "", identityValue: "", idList: "", idFrom: "", idTo: "",
  createdFrom: "", createdTo: "", updatedFrom: "", updatedTo: "",
  stageEmpty: false, gender: "", hasMobile: "", hasEmail: "",
};

const GENDERS = ["", "0", "1", "2"] as const;
const TRI_STATES = ["", "true", "false"] as const;
const sameColumns = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((c, i) => c === b[i]);

/** The URL's keys, in the order they are written (§4.1 parameter names; `stage=_empty` for stageEmpty). */
const customerListParsers = {
  q: parseAsText(200),
  tag: parseAsText(64),
  ...(Object.fromEntries(TEXT_FILTERS.map((key) => [key, parseAsText(2000)])) as Record<(typeof TEXT_FILTERS)[number], ReturnType<typeof parseAsText>>),
  gender: parseAsStringLiteral(GENDERS).withDefault(""),
  hasMobile: parseAsStringLiteral(TRI_STATES).withDefault(""),
  hasEmail: parseAsStringLiteral(TRI_STATES).withDefault(""),
  ...(Object.fromEntries(Object.keys(TIME_FILTERS).map((key) => [key, parseAsText(32)])) as Record<TimeFilter, ReturnType<typeof parseAsText>>),
  sort: parseAsStringLiteral(SORTABLE_COLUMNS).withDefault("id"),
  order: parseAsOrder("asc"),
  page: parseAsPage,
  after: parseAsId,
  before: parseAsId,
  rows: parseAsPageSize(),
  columns: createParser({
    parse: (value) => {
      const columns = [...new Set(value.split(","))].filter((c): c is CustomerColumn => (CUSTOMER_COLUMNS as readonly string[]).includes(c));
      return columns.length ? columns : null;
    },
    serialize: (columns: readonly CustomerColumn[]) => columns.join(","),
    eq: sameColumns,
  }).withDefault([...DEFAULT_COLUMNS]),
};
type CustomerListValues = ValuesOf<typeof customerListParsers>;

function fromValues({ sort, order, page, rows, columns, after, before, stage, ...filters }: CustomerListValues): CustomerListState {
  const state: CustomerListState = { filters: { ...filters, stage: stage === "_empty" ? "" : stage, stageEmpty: stage === "_empty" }, sort, order, page, rows, columns };
  const cursor: Cursor | undefined = after ? { dir: "after", id: after } : before ? { dir: "before", id: before } : undefined;
  if (cursor && activeCursor({ ...state, cursor })) state.cursor = cursor;
  return state;
}

function toValues(state: CustomerListState): CustomerListValues {
  const { stageEmpty, ...filters } = state.filters;
  const cursor = activeCursor(state);
  return {
    ...filters,
    stage: stageEmpty ? "_empty" : filters.stage,
    sort: state.sort,
    order: state.order,
    page: state.page,
    after: cursor?.dir === "after" ? cursor.id : "",
    before: cursor?.dir === "before" ? cursor.id : "",
    rows: state.rows,
    columns: state.columns,
  };
}

/** The customers list's URL; the cursor is written only where it counts (`activeCursor`). */
export const customerListUrlState = defineList(
  defineUrlState(customerListParsers, { sort: "sidx", order: "sord", columns: "cols" }, { fromValues, toValues }),
  // Page 1 needs no cursor (`activeCursor`).
  offsetFirstPage,
);
export const DEFAULT_STATE: CustomerListState = customerListUrlState.defaults;
/** The list state of a URL (`URLSearchParams` or Next's `searchParams` object); unknown values fall back to defaults. */
export const parseListState = customerListUrlState.parse;
/** The URL query of a state, defaults left out, other parameters of the page (openAppId, lang, …) kept. */
export const serializeListState = customerListUrlState.serialize;

/** The cursor the list pages by: only when sorted by id, and never on page 1 (the first page needs none). */
export function activeCursor(state: CustomerListState): Cursor | undefined {
  return state.sort === "id" && state.page > 1 ? state.cursor : undefined;
}


/** Normalizes a typed id list: spaces dropped, empty items dropped. */
export function normalizeIdList(value: string): string {
  return value
    .split(/[\s,，]+/)
    .filter(Boolean)
    .join(",");
}

/** What is wrong with a filter value as typed, or undefined. Invalid filters are not sent. */
export function filterProblem(key: keyof CustomerFilters, value: string): "invalidTime" | "invalidIds" | "invalidId" | undefined {
  if (!value) return undefined;
  if (key in TIME_FILTERS) return homeInputToUtcFilter(value) ? undefined : "invalidTime";
  if (key === "idList") return isPlatformIdList(normalizeIdList(value)) ? undefined : "invalidIds";
  if (key === "idFrom" || key === "idTo") return isPlatformId(value) ? undefined : "invalidId";
  return undefined;
}

export function hasActiveFilters(filters: CustomerFilters): boolean {
  return (Object.keys(EMPTY_FILTERS) as (keyof CustomerFilters)[]).some((key) => filters[key] !== EMPTY_FILTERS[key]);
}

type ListQuery = NonNullable<InputOf<"customers.list">["query"]>;
type CountQuery = NonNullable<InputOf<"customers.count">["query"]>;

/** The filters of §4.1 that both the query and the count take. */
function sharedFilters(f: CustomerFilters): CountQuery {
  const q: CountQuery = {};
  if (f.stageEmpty) q.stage = "_empty";
  else if (f.stage) q.stage = f.stage;
  if (f.source) q.source = f.source;
  if (f.mobile) q.mobile = f.mobile;
  if (f.gender) q.gender = Number(f.gender);
  if (f.idList && !filterProblem("idList", f.idList)) q.idList = normalizeIdList(f.idList);
  for (const [key, param] of Object.entries(TIME_FILTERS) as [TimeFilter, (typeof TIME_FILTERS)[TimeFilter]][]) {
    const utc = homeInputToUtcFilter(f[key]); // §2: UTC+8 typed, UTC sent
    if (utc) q[param] = utc;
  }
  return q;
}

/** Filters §4.1 takes for the query but not for the count. */
function queryOnlyFilters(f: CustomerFilters): Partial<ListQuery> {
  const q: Partial<ListQuery> = {};
  if (f.email) q.email = f.email;
  if (f.hasMobile) q.hasMobile = f.hasMobile === "true";
  if (f.hasEmail) q.hasEmail = f.hasEmail === "true";
  // An identity filter needs both halves; one alone is not sent (the form says so).
  if (f.identityType && f.identityValue) {
    q.identityType = f.identityType;
    q.identityValue = f.identityValue;
  }
  if (f.idFrom && !filterProblem("idFrom", f.idFrom)) q.idFrom = f.idFrom;
  if (f.idTo && !filterProblem("idTo", f.idTo)) q.idTo = f.idTo;
  return q;
}

/** `select` for the chosen columns; `id` is always fetched (rows link to the customer). */
export function selectOf(columns: readonly CustomerColumn[]): string {
  return [...new Set<string>(["id", ...columns])].join(",");
}

/** The user's own id range filter (valid ends only, as the list sends them). */
export function userIdRange(f: CustomerFilters): IdRange {
  const range: IdRange = {};
  if (f.idFrom && !filterProblem("idFrom", f.idFrom)) range.from = f.idFrom;
  if (f.idTo && !filterProblem("idTo", f.idTo)) range.to = f.idTo;
  return range;
}

/** Every §4.1 filter of a state, without paging, sort or select (the export walks these). */
export function filterQuery(filters: CustomerFilters): Omit<ListQuery, "rows" | "page" | "sidx" | "sord" | "select"> {
  return { ...sharedFilters(filters), ...queryOnlyFilters(filters) };
}

/** The id range and order of a keyset query, as §4.1 parameters (an open end is left out). */
export function keysetParams(order: "asc" | "desc", cursor: Cursor | undefined, user: IdRange): { idFrom?: string; idTo?: string; sord: "asc" | "desc" } {
  const { range, sord } = keysetQuery(order, cursor, user);
  return { ...(range.from !== undefined ? { idFrom: range.from } : {}), ...(range.to !== undefined ? { idTo: range.to } : {}), sord };
}

/**
 * The input of `customers.list` for a state. Sorted by id with a cursor, the page is a keyset
 * query (`page=1` of the id range after / before the cursor, intersected with the user's range);
 * otherwise an offset page.
 */
export function listInput(state: CustomerListState): InputOf<"customers.list"> {
  const { idFrom, idTo, ...filters } = filterQuery(state.filters);
  const cursor = activeCursor(state);
  // Sorted by id, the id range is the keyset's (the user's range intersected with the cursor's).
  const ids = state.sort === "id" ? keysetParams(state.order, cursor, userIdRange(state.filters)) : { ...(idFrom ? { idFrom } : {}), ...(idTo ? { idTo } : {}), sord: state.order };
  return {
    query: {
      ...filters,
      ...ids,
      select: selectOf(state.columns),
      rows: state.rows,
      page: cursor ? 1 : state.page,
      sidx: state.sort,
    },
  };
}

/**
 * The index search of a state (the search box or a tag set), or undefined: then the list is the
 * platform's own query. The index applies the filters it holds; the platform applies all of them
 * again on the ids found (`searchListInput`), so what is shown is the live record.
 */
export function searchParamsOf(state: CustomerListState): SearchParams | undefined {
  const f = state.filters;
  const q = f.q.trim();
  if (!q && !f.tag) return undefined;
  return {
    ...(q ? { q } : {}),
    ...(f.tag ? { tag: f.tag } : {}),
    ...(f.stageEmpty ? { stageEmpty: true } : f.stage ? { stage: f.stage } : {}),
    ...(f.source ? { source: f.source } : {}),
    ...(f.gender ? { gender: f.gender } : {}),
    ...(f.hasMobile ? { hasMobile: f.hasMobile } : {}),
    ...(f.hasEmail ? { hasEmail: f.hasEmail } : {}),
    limit: state.rows,
    offset: (state.page - 1) * state.rows,
  };
}

/**
 * The live rows of the ids a search found, with every filter of the state (one page, sorted as
 * chosen; the user's own id list narrows the ids). Undefined when no id is left.
 */
export function searchListInput(state: CustomerListState, ids: readonly string[]): InputOf<"customers.list"> | undefined {
  const { idFrom, idTo, idList: _own, ...filters } = filterQuery(state.filters);
  const own = state.filters.idList && !filterProblem("idList", state.filters.idList) ? new Set(normalizeIdList(state.filters.idList).split(",")) : undefined;
  if (own) ids = ids.filter((id) => own.has(id));
  if (ids.length === 0) return undefined;
  return {
    query: {
      ...filters,
      ...(idFrom ? { idFrom } : {}),
      ...(idTo ? { idTo } : {}),
      idList: ids.join(","),
      select: selectOf(state.columns),
      rows: Math.max(1, ids.length),
      page: 1,
      sidx: state.sort,
      sord: state.order,
    },
  };
}

/** The rows of a list answer in display order (a `before` page is fetched in reverse). */
export function pageRows<T>(state: CustomerListState, rows: readonly T[]): T[] {
  return activeCursor(state)?.dir === "before" ? [...rows].reverse() : [...rows];
}

/**
 * The state of page `target`, from a page showing `shown` (display order). One step forward or
 * back, sorted by id, is a keyset move from the first / last id on screen; Previous keeps no stack
 * of cursors, it seeks backwards from the first id shown (so any page, also one reached by
 * offset, can step either way, and the URL stays one cursor long). Page 1 needs no cursor; any
 * other jump (last page) is an offset page.
 */
export function movePage(state: CustomerListState, target: number, shown: ReadonlyArray<{ id: string }>): CustomerListState {
  const page = Math.min(Math.max(1, Math.trunc(target)), MAX_PAGE);
  const { cursor: _drop, ...rest } = state;
  if (page === 1 || state.sort !== "id") return { ...rest, page };
  const cursor = page === state.page + 1 ? nextCursor(shown) : page === state.page - 1 ? previousCursor(shown) : undefined;
  return cursor ? { ...rest, page, cursor } : { ...rest, page };
}

/** The tenant's tags offered by the tag filter (§4.5 GET /v1/tags, the 1,000 a page allows): read with the page's HTML. */
export const TAG_FILTER_INPUT: InputOf<"tags.list"> = { query: { rows: 1000, page: 1 } };

/**
 * The input of `customers.count` for a state, or undefined when a filter is active that §4.1's
 * count does not take (email, hasMobile, hasEmail, identity, id range): a count without it would
 * be a wrong total.
 */
export function countInput(state: CustomerListState): InputOf<"customers.count"> | undefined {
  if (Object.keys(queryOnlyFilters(state.filters)).length > 0) return undefined;
  return { query: sharedFilters(state.filters) };
}
