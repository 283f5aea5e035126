import type { ActivityEntry } from "@/lib/store/webhook-inbox";

/**
 * What a delivery means for the console: the page of what it touched, and the query caches it makes
 * stale. Pure functions, used by the Activity page (server) and the live refresh (browser).
 */

/** Console pages per webhook resource (sender's `resource`, sandbox/webhooks/sender.ts); others get no link. */
const PAGES: Record<string, string> = {
  customer: "/customers",
  order: "/orders",
  refund: "/orders",
  list: "/lists",
};

/** Actions after which the resource no longer exists, so there is nothing to link to. */
const GONE = new Set(["deleted", "merged", "removed"]);

/** The console link of the resource a delivery touched (keeps `openAppId`, §5.4.4), or undefined. */
export function activityHref(entry: Pick<ActivityEntry, "resource" | "resourceId" | "action">, openAppId: string): string | undefined {
  const base = entry.resource ? PAGES[entry.resource] : undefined;
  if (!base || !entry.resourceId || (entry.action && GONE.has(entry.action))) return undefined;
  const query = new URLSearchParams({ openAppId }).toString();
  return `${base}/${encodeURIComponent(entry.resourceId)}?${query}`;
}

/**
 * The console's cached resources (the `Resource` names of `platformKeys.resource` in
 * lib/platform/operations.ts: query keys `["platform", <resource>]`) that a change makes stale.
 */
const STALE: Record<string, readonly string[]> = {
  customer: ["customers", "identities", "customerTags", "listMembers", "events", "deals"],
  event: ["events"],
  order: ["deals"],
  refund: ["deals"],
  list: ["lists", "listMembers"],
  listMember: ["listMembers", "lists"],
  tagDimension: ["tagDimensions", "tags"],
  tag: ["tags", "customerTags"],
  customerTag: ["customerTags", "customers"],
  store: ["stores", "storeGroups"],
};

/** Query keys (`["platform", resource]`) to invalidate after these deliveries; everything for an unknown kind. */
export function staleQueryKeys(entries: ReadonlyArray<Pick<ActivityEntry, "resource">>): Array<readonly [string, ...string[]]> {
  const resources = new Set<string>();
  for (const entry of entries) {
    const stale = entry.resource ? STALE[entry.resource] : undefined;
    if (!stale) return [["platform"]];
    stale.forEach((r) => resources.add(r));
  }
  return [...resources].sort().map((r) => ["platform", r] as const);
}

/** One row of the Activity table: a delivery, or a burst of the same event (an import) that opens. */
export type ActivityRow = { kind: "one"; entry: ActivityEntry } | { kind: "burst"; event: string; entries: ActivityEntry[] };

/** A burst: at least this many deliveries of one event kind in a row, each within BURST_GAP_MS of the next. */
export const BURST_MIN = 10;
export const BURST_GAP_MS = 30_000;

/**
 * Groups bulk bursts (newest first, as listed): a run of at least BURST_MIN consecutive deliveries of
 * the same event kind, each received within BURST_GAP_MS of its neighbour, becomes one row, so a
 * 313-row import does not push every other change out of view.
 */
export function groupBursts(entries: readonly ActivityEntry[]): ActivityRow[] {
  const rows: ActivityRow[] = [];
  let run: ActivityEntry[] = [];
  const flush = () => {
    if (run.length >= BURST_MIN) rows.push({ kind: "burst", event: run[0]!.kind, entries: run });
    else for (const entry of run) rows.push({ kind: "one", entry });
    run = [];
  };
  for (const entry of entries) {
    const last = run.at(-1);
    if (last && (last.kind !== entry.kind || Math.abs(last.receivedAt - entry.receivedAt) > BURST_GAP_MS)) flush();
    run.push(entry);
  }
  flush();
  return rows;
}
