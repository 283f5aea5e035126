"use client";
import { AppLink } from "@/components/ui/app-link";
import { useSearchParams } from "next/navigation";
import { activityFiltered, activityList, ACTIVITY_PAGE, type ActivityListState } from "@/lib/activity/activity-list";
import type { MessageKey } from "@/lib/i18n/messages";
import type { ActivityEntry } from "@/lib/store/webhook-inbox";
import { useListController } from "@/lib/ui/list-controller";
import { activityHref, groupBursts, type ActivityRow } from "@/lib/webhooks/activity";
import { useI18n } from "@/components/i18n/i18n-provider";
import { focusRing } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { TimeText } from "@/components/ui/time-text";
import { PageHeader } from "@/components/ui/page-header";
import { PersonName, usePeople } from "@/components/people/person-name";
import { ActivityFilters } from "./activity-filters";
import { ActivityLiveRefresh } from "./activity-live-refresh";

const MODES = new Set(["secret", "basic", "oauth2", "none"]);
const linkClass = `rounded text-blue-800 underline underline-offset-2 hover:text-blue-950 ${focusRing}`;

type Props = {
  openAppId: string;
  /** The page the server read for the URL's state (newest first). */
  entries: ActivityEntry[];
  facets: { kinds: string[]; resources: string[] };
  /** Typed times that do not read (left out of the filter). */
  problems: { from: boolean; to: boolean };
  /** The newest delivery of the tenant: where the live refresh starts. */
  cursor: string;
};

/**
 * The Activity list: webhook deliveries (§5.5, §6) in the console's table, bursts folded into one row
 * that opens. Its filters and its page (`before`) live in the URL through the list controller; the
 * server page reads the store for them, so a write renders the page again (not shallow).
 */
export function ActivityView({ openAppId, entries, facets, problems, cursor }: Props) {
  const { t } = useI18n();
  const { state, update } = useListController(activityList, { shallow: false });
  const search = useSearchParams();
  // A page's link keeps the page's other parameters (openAppId, lang).
  const hrefOf = (next: ActivityListState) => `?${activityList.serialize(next, new URLSearchParams(search.toString()))}`;
  const filtered = activityFiltered(state);
  // A customer's delivery names the person (one lookup for the page), not the bare id.
  const people = usePeople(entries.map((entry) => (entry.resource === "customer" ? entry.resourceId : undefined)));

  const columns: Column<ActivityEntry>[] = [
    { key: "received", header: t("activity.received"), className: "whitespace-nowrap", cell: (entry) => <TimeText value={entry.receivedAt} /> },
    { key: "event", header: t("activity.event"), className: "font-mono text-xs", cell: (entry) => entry.kind },
    {
      key: "changed",
      header: t("activity.changed"),
      cell: (entry) => {
        const href = activityHref(entry, openAppId);
        const person = entry.resource === "customer" && entry.resourceId ? people.get(entry.resourceId) : undefined;
        if (person) return <PersonName id={entry.resourceId!} hit={person} href={href} />;
        const label = entry.resource ? `${entry.resource} ${entry.resourceId ?? ""}`.trim() : (entry.resourceId ?? "—");
        return href ? <AppLink href={href} className={linkClass}>{label}</AppLink> : <span>{label}</span>;
      },
    },
    { key: "occurred", header: t("activity.occurred"), className: "whitespace-nowrap", cell: (entry) => (entry.occurredAt ? <TimeText value={entry.occurredAt} /> : "—") },
    { key: "verifiedBy", header: t("activity.verifiedBy"), cell: (entry) => (MODES.has(entry.verification) ? t(`activity.mode.${entry.verification}` as MessageKey) : entry.verification) },
  ];
  const groups = groupBursts(entries);
  const entryOf = (row: ActivityRow) => (row.kind === "one" ? row.entry : row.entries[0]!);
  const burst = (row: ActivityRow) => {
    if (row.kind === "one") return undefined;
    const title = t("activity.burst", { count: row.entries.length, event: row.event });
    return {
      testId: "activity-burst",
      content: (
        <details>
          <summary className="cursor-pointer text-slate-900">
            {title} · <span className="text-blue-800 underline">{t("activity.burstOpen")}</span>
          </summary>
          <div className="mt-2">
            <DataTable rows={row.entries} rowKey={(entry) => entry.id} columns={columns} caption={title} />
          </div>
        </details>
      ),
    };
  };
  const newest: ActivityListState = { ...state, before: "" };

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-4">
      <PageHeader title={t("activity.title")} intro={t("activity.intro")} />
      <ActivityLiveRefresh openAppId={openAppId} cursor={cursor} />
      <ActivityFilters
        values={state}
        kinds={facets.kinds}
        resources={facets.resources}
        problems={problems}
        onApply={(values) => update(values)}
        onClear={() => update({ kind: "", resource: "", from: "", to: "" })}
      />
      {entries.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 bg-white p-6 text-slate-700" data-testid="activity-empty">
          {filtered || state.before ? t("activity.noMatch") : t("activity.empty")}
        </p>
      ) : (
        <DataTable rows={groups} rowKey={(row) => entryOf(row).id} columns={columns.map((c) => ({ ...c, cell: (row: ActivityRow, i: number) => c.cell(entryOf(row), i) }))} caption={t("activity.caption")} testId="activity-table" fullRow={burst} />
      )}
      <nav aria-label={t("activity.paging")} className="flex gap-4 text-sm">
        {/* Links a reader can open or share; following one replaces the history entry (the admin's iframe). */}
        {state.before && (
          <AppLink href={hrefOf(newest)} replace className={linkClass}>
            {t("activity.newest")}
          </AppLink>
        )}
        {entries.length === ACTIVITY_PAGE && (
          <AppLink href={hrefOf({ ...state, before: entries.at(-1)!.id })} replace className={linkClass} data-testid="activity-older">
            {t("activity.older")}
          </AppLink>
        )}
      </nav>
    </div>
  );
}
