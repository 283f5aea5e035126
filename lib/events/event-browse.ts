import { parseAsStringLiteral } from "@/lib/ui/url-parsers";
import { isPlatformId } from "@/lib/platform/ids";
import type { InputOf } from "@/lib/platform/operations";
import { homeInputToUtcFilter } from "@/lib/time";
import { defineList } from "@/lib/ui/list-state";
import { defineUrlState, parseAsId, parseAsIntegerIf, parseAsOrder, parseAsText } from "@/lib/ui/url-params";
import { eventIdProblem, type EventProblem } from "./event-fields";

/**
 * The Events page's browser: §4.3 GET /v1/customerevents by customer, event
 * types (comma-separated), a window on `lastUpdated` (when the event entered the system, UTC
 * `YYYY-MM-DDTHH:MM:SSZ`), `max` (default 20, at most 1000, §8) and a sort. The state lives in the URL
 * (times as typed in UTC+8); only the last month is ever returned (§4.3).
 */

/** §8: `max` at most 1000; the page offers these. */
export const EVENT_MAX_CHOICES = [20, 50, 100, 200, 500, 1000] as const;
export const EVENT_SORTS = ["lastUpdated", "date", "id"] as const;
export type EventSort = (typeof EVENT_SORTS)[number];
/** At most this many type ids in the filter (each ≤ 32 characters, §8). */
export const MAX_EVENT_TYPES = 20;

/** Shown whole (up to `max`): no page to go back to. */
export const eventBrowseUrlState = defineList(defineUrlState({
  customerId: parseAsId,
  types: parseAsText(MAX_EVENT_TYPES * 33),
  from: parseAsText(19),
  to: parseAsText(19),
  max: parseAsIntegerIf((n) => (EVENT_MAX_CHOICES as readonly number[]).includes(n)).withDefault(20),
  sort: parseAsStringLiteral(EVENT_SORTS).withDefault("lastUpdated"),
  order: parseAsOrder("desc"),
}, { order: "sord" }));
export type EventBrowseState = typeof eventBrowseUrlState.defaults;

/** The type ids of the filter text: split on commas (and Chinese commas, spaces), deduplicated. */
export function eventTypesOf(text: string): string[] {
  return [...new Set(text.split(/[,，\s]+/).map((s) => s.trim()).filter(Boolean))];
}

export type BrowseProblem = EventProblem | { code: "customerId" } | { code: "tooManyTypes"; max: number } | { code: "window" };

/** What keeps the filter from being sent, by field (`customerId`, `types`, `from`, `to`). */
export function browseProblems(draft: { customerId: string; types: string; from: string; to: string }): Record<string, BrowseProblem> {
  const problems: Record<string, BrowseProblem> = {};
  const id = draft.customerId.trim();
  if (id !== "" && !isPlatformId(id)) problems.customerId = { code: "customerId" };
  const types = eventTypesOf(draft.types);
  if (types.length > MAX_EVENT_TYPES) problems.types = { code: "tooManyTypes", max: MAX_EVENT_TYPES };
  else {
    const bad = types.map(eventIdProblem).find(Boolean);
    if (bad) problems.types = bad;
  }
  const from = draft.from.trim() === "" ? undefined : homeInputToUtcFilter(draft.from);
  const to = draft.to.trim() === "" ? undefined : homeInputToUtcFilter(draft.to);
  if (draft.from.trim() !== "" && !from) problems.from = { code: "date" };
  if (draft.to.trim() !== "" && !to) problems.to = { code: "date" };
  if (from && to && from > to) problems.to = { code: "window" };
  return problems;
}

/** §4.3 query of a state; a malformed part of the URL (typed by hand) is left out. */
export function eventBrowseInput(state: EventBrowseState): InputOf<"events.list"> {
  const query: Record<string, unknown> = { max: state.max, sidx: state.sort, sord: state.order };
  if (state.customerId) query.customerId = state.customerId;
  const types = eventTypesOf(state.types).filter((t) => !eventIdProblem(t)).slice(0, MAX_EVENT_TYPES);
  if (types.length > 0) query.event = types.join(",");
  const from = homeInputToUtcFilter(state.from);
  const to = homeInputToUtcFilter(state.to);
  // §4.3 writes these two with the Z: `YYYY-MM-DDTHH:MM:SSZ`.
  if (from) query.lastUpdatedFrom = `${from}Z`;
  if (to && (!from || from <= to)) query.lastUpdatedTo = `${to}Z`;
  return { query } as InputOf<"events.list">;
}

/** True when the answer may have been cut at `max` (there may be more than shown). */
export const mayHaveMore = (count: number, state: EventBrowseState) => count >= state.max;
