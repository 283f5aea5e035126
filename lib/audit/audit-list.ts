import { createParser } from "@/lib/ui/url-parsers";
import { typedTime } from "@/lib/activity/activity-list";
import { defineList } from "@/lib/ui/list-state";
import { defineUrlState, parseAsText } from "@/lib/ui/url-params";

/** Entries on one page of the Audit page (newest first; `before` pages further back). */
export const AUDIT_PAGE = 50;

const digits = createParser({ parse: (v) => (/^\d{1,20}$/.test(v.trim()) ? v.trim() : null), serialize: String }).withDefault("");

/**
 * The Audit page's list in its URL: staff member, operation, outcome, target customer, the time
 * range as typed in UTC+8, and the keyset boundary `before` (an entry id). The server page parses it
 * before reading the store; the browser writes it through the list controller.
 */
export const auditList = defineList(
  defineUrlState({
    actor: parseAsText(128),
    operation: parseAsText(64),
    outcome: parseAsText(16),
    target: digits,
    from: parseAsText(32),
    to: parseAsText(32),
    before: digits,
  }),
  (state) => ({ ...state, before: "" }),
);
export type AuditListState = typeof auditList.defaults;

const OUTCOMES = new Set(["done", "refused", "failed"]);

/** The store's filter of a state (an unreadable time is left out, and said so on its field). */
export function auditFilterOf(state: AuditListState) {
  const from = typedTime(state.from);
  const to = typedTime(state.to);
  return {
    filter: {
      ...(state.actor ? { actorId: state.actor } : {}),
      ...(state.operation ? { operation: state.operation } : {}),
      ...(OUTCOMES.has(state.outcome) ? { outcome: state.outcome } : {}),
      ...(state.target ? { targetId: state.target } : {}),
      ...(typeof from === "number" ? { from } : {}),
      ...(typeof to === "number" ? { to } : {}),
    },
    problems: { from: from === null, to: to === null },
  };
}

/** The export's query (the API takes UTC times, §2 style). */
export function auditExportQuery(state: AuditListState): Record<string, string> {
  const { filter } = auditFilterOf(state);
  const utc = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString().slice(0, 19));
  const query: Record<string, string | undefined> = { actor: filter.actorId, operation: filter.operation, outcome: filter.outcome, target: filter.targetId, from: utc(filter.from), to: utc(filter.to) };
  return Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => Boolean(e[1])));
}
