import { createParser, parseAsStringLiteral, type ValuesOf } from "@/lib/ui/url-parsers";
import type { InputOf } from "@/lib/platform/operations";
import type { ListMember } from "@/lib/platform/resources";
import { homeInputToUtcFilter } from "@/lib/time";
import { defineList } from "@/lib/ui/list-state";
import { defineUrlState, parseAsId, parseAsOrder, parseAsPageSize, parseAsText } from "@/lib/ui/url-params";

/**
 * The members view of one list (§4.4 GET /v1/listMembers) as it lives in the URL: keyset paging
 * through `sinceId`, which bounds the `sidx` field — a lower bound in ascending order, an upper
 * bound in descending order. Going forward sends the last row's value with the chosen order;
 * going back sends the first row's value with the order reversed, and the answer is reversed again
 * for display. The count's joined-date range is typed in UTC+8 and sent in UTC (§2).
 */

/** §4.4 `sidx` values; the platform default is `customerId`. */
export const MEMBER_SORTS = ["customerId", "id", "listId"] as const;
export type MemberSort = (typeof MEMBER_SORTS)[number];
/**
 * Within one list every member has the same `listId`, so sorting by it pages nothing: the page
 * offers `customerId` and `id` only (the pure functions accept all three).
 */
export const MEMBER_SORTS_IN_LIST: readonly MemberSort[] = ["customerId", "id"];
export const MEMBER_PAGE_SIZES = [20, 50, 100, 500] as const;
/** §4.4, §8: at most 10000 rows per query. */
export const MAX_MEMBER_ROWS = 10_000;

const membersParsers = {
  sort: parseAsStringLiteral(MEMBER_SORTS).withDefault("customerId"),
  order: parseAsOrder("asc"),
  rows: parseAsPageSize(MEMBER_PAGE_SIZES),
  /** The keyset boundary (a 64-bit id as a string), "" on the first page. */
  since: parseAsId,
  /** True when `since` is the first row of the page after this one (paging back). */
  back: createParser({ parse: (v): boolean | null => (v === "1" ? true : null), serialize: () => "1" }).withDefault(false),
  /** One customer looked for in the list ("search inside": §4.4 filters members by `customerId`), "" for all. */
  member: parseAsId,
  /** The joined-date range of the count, as typed in UTC+8 (DateTimeField). */
  joinedFrom: parseAsText(32),
  joinedTo: parseAsText(32),
};
type MembersValues = ValuesOf<typeof membersParsers>;
// `back` means something only with a boundary.
const withBack = (v: MembersValues): MembersValues => ({ ...v, back: v.back && v.since !== "" });

/** The members view of one list in the URL (`m`-prefixed keys: the list page has other state). */
export const membersUrlState = defineList(
  defineUrlState(membersParsers, { sort: "msidx", order: "msord", rows: "mrows", member: "mcust" }, { fromValues: withBack, toValues: withBack }),
  // The first page has no boundary: a boundary belongs to one sort.
  (state) => ({ ...state, since: "", back: false }),
);
export type MembersState = MembersValues;

const flip = (order: "asc" | "desc") => (order === "asc" ? "desc" : "asc");

/** The query of one page: paging back asks in the reversed order from the first row shown. */
export function membersInput(listId: string, state: MembersState): InputOf<"listMembers.list"> {
  return {
    query: {
      listId,
      rows: state.rows,
      sidx: state.sort,
      sord: state.back ? flip(state.order) : state.order,
      ...(state.since ? { sinceId: state.since } : {}),
      ...(state.member ? { customerId: state.member } : {}),
    },
  };
}

/** The rows of an answer in display order (a back page came in reverse). */
export function displayRows(state: MembersState, items: readonly ListMember[]): ListMember[] {
  return state.back ? [...items].reverse() : [...items];
}

/** The value of the sort field of a member: the keyset boundary it gives. */
export function boundaryOf(member: ListMember, sort: MemberSort): string | undefined {
  return member[sort] ?? undefined;
}

/**
 * The states of the next and previous pages of what is shown, or undefined where there is none
 * known: forward is offered when a full page came (or when we came back from it), back when this
 * is not the first page.
 */
export function neighbours(state: MembersState, shown: readonly ListMember[]): { next?: MembersState; previous?: MembersState } {
  const first = shown[0];
  const last = shown[shown.length - 1];
  const full = shown.length >= state.rows;
  const result: { next?: MembersState; previous?: MembersState } = {};
  const lastValue = last && boundaryOf(last, state.sort);
  const firstValue = first && boundaryOf(first, state.sort);
  // Forward: after a back step there is always a page ahead (the one we came from).
  if (lastValue && (full || state.back)) result.next = { ...state, since: lastValue, back: false };
  // Back: a first page (no boundary) has nothing before it; a short back page reached the start.
  if (state.since && !(state.back && !full)) {
    result.previous = firstValue ? { ...state, since: firstValue, back: true } : { ...state, since: "", back: false };
  }
  return result;
}

export type JoinedRangeProblem = "invalidFrom" | "invalidTo" | "reversed";

/** What is wrong with the joined-date range as typed, or undefined. */
export function joinedRangeProblem(state: Pick<MembersState, "joinedFrom" | "joinedTo">): JoinedRangeProblem | undefined {
  const from = state.joinedFrom ? homeInputToUtcFilter(state.joinedFrom) : "";
  const to = state.joinedTo ? homeInputToUtcFilter(state.joinedTo) : "";
  if (from === undefined) return "invalidFrom";
  if (to === undefined) return "invalidTo";
  if (from && to && from > to) return "reversed";
  return undefined;
}

/** The member count of the whole list, or of the joined-date range when one is set and valid (§4.4, UTC sent). */
export function countInput(listId: string, state: Pick<MembersState, "joinedFrom" | "joinedTo">): InputOf<"listMembers.count"> {
  const ranged = !joinedRangeProblem(state);
  const since = ranged ? homeInputToUtcFilter(state.joinedFrom) : undefined;
  const to = ranged ? homeInputToUtcFilter(state.joinedTo) : undefined;
  return { query: { listId, ...(since ? { joinListDateSince: since } : {}), ...(to ? { joinListDateTo: to } : {}) } };
}
