import { createParser } from "@/lib/ui/url-parsers";
import { homeInputToUtcFilter, parseHomeValue } from "@/lib/time";
import { defineList } from "@/lib/ui/list-state";
import { defineUrlState, parseAsText } from "@/lib/ui/url-params";

/** Deliveries on one page of the Activity list (newest first; `before` pages further back). */
export const ACTIVITY_PAGE = 50;

/**
 * The Activity page's list in its URL: the event kind, the resource, the received-time range as
 * typed in UTC+8, and the keyset boundary `before` (an inbox id: the page holds older deliveries).
 * The server page parses it before reading the store; the browser writes it through the list
 * controller, and a new filter starts again from the newest deliveries.
 */
export const activityList = defineList(
  defineUrlState({
    kind: parseAsText(200),
    resource: parseAsText(200),
    from: parseAsText(32),
    to: parseAsText(32),
    before: createParser({ parse: (v) => (/^\d{1,19}$/.test(v.trim()) ? v.trim() : null), serialize: String }).withDefault(""),
  }),
  (state) => ({ ...state, before: "" }),
);
export type ActivityListState = typeof activityList.defaults;

/** A typed UTC+8 time (either language's format) as epoch ms; undefined when empty, null when unreadable. */
export function typedTime(value: string): number | undefined | null {
  if (!value) return undefined;
  const home = parseHomeValue(value);
  const utc = home ? homeInputToUtcFilter(home) : undefined;
  return utc ? Date.parse(`${utc}Z`) : null;
}

/** The store's filter of a state (an unreadable time is left out, and said so on its field). */
export function activityFilterOf(state: ActivityListState) {
  const from = typedTime(state.from);
  const to = typedTime(state.to);
  return {
    filter: { kind: state.kind || undefined, resource: state.resource || undefined, from: from ?? undefined, to: to ?? undefined, before: state.before || undefined },
    problems: { from: from === null, to: to === null },
  };
}

/** Whether a filter (not the page) narrows the list. */
export const activityFiltered = (state: ActivityListState) => Boolean(state.kind || state.resource || state.from || state.to);
