import type { InputOf } from "@/lib/platform/operations";
import type { ListMember } from "@/lib/platform/resources";
import { homeInputToUtcFilter } from "@/lib/time";

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

export type MembersState = {
  sort: MemberSort;
  order: "asc" | "desc";
  rows: number;
  /** The keyset boundary (a 64-bit id as a string), absent on the first page. */
  since?: string;
  /** True when `since` is the first row of the page after this one (paging back). */
  back: boolean;
  /** The joined-date range of the count, as typed in UTC+8 (`datetime-local`). */
  joinedFrom: string;
  joinedTo: string;
};

export const DEFAULT_MEMBERS_STATE: MembersState = { sort: "customerId", order: "asc", rows: 20, back: false, joinedFrom: "", joinedTo: "" };

const ID = /^\d{1,19}$/;
const OURS = ["msidx", "msord", "mrows", "since", "back", "joinedFrom", "joinedTo"];

export function parseMembersState(params: URLSearchParams): MembersState {
  const sort = params.get("msidx") ?? "";
  const rows = Number(params.get("mrows"));
  const since = (params.get("since") ?? "").trim();
  const validSince = ID.test(since) && BigInt(since) <= 9223372036854775807n;
  return {
    sort: (MEMBER_SORTS as readonly string[]).includes(sort) ? (sort as MemberSort) : DEFAULT_MEMBERS_STATE.sort,
    order: params.get("msord") === "desc" ? "desc" : "asc",
    rows: (MEMBER_PAGE_SIZES as readonly number[]).includes(rows) ? rows : DEFAULT_MEMBERS_STATE.rows,
    ...(validSince ? { since } : {}),
    back: validSince && params.get("back") === "1",
    joinedFrom: (params.get("joinedFrom") ?? "").slice(0, 32),
    joinedTo: (params.get("joinedTo") ?? "").slice(0, 32),
  };
}

export function serializeMembersState(state: MembersState, keep?: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of keep ?? []) if (!OURS.includes(key)) out.append(key, value);
  if (state.sort !== DEFAULT_MEMBERS_STATE.sort) out.set("msidx", state.sort);
  if (state.order !== DEFAULT_MEMBERS_STATE.order) out.set("msord", state.order);
  if (state.rows !== DEFAULT_MEMBERS_STATE.rows) out.set("mrows", String(state.rows));
  if (state.since) {
    out.set("since", state.since);
    if (state.back) out.set("back", "1");
  }
  if (state.joinedFrom) out.set("joinedFrom", state.joinedFrom);
  if (state.joinedTo) out.set("joinedTo", state.joinedTo);
  return out;
}

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
    result.previous = firstValue ? { ...state, since: firstValue, back: true } : { ...state, since: undefined, back: false };
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
