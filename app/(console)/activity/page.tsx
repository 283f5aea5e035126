import type { Metadata } from "next";
import Link from "next/link";
import { ActivityFilters } from "@/components/activity/activity-filters";
import { ActivityLiveRefresh } from "@/components/activity/activity-live-refresh";
import { TimeText } from "@/components/ui/time-text";
import { requirePageSession, type PageSearchParams } from "@/lib/auth/page-session";
import { requestTranslate } from "@/lib/i18n/server";
import { getStore } from "@/lib/store";
import { activityFacets, recentActivity, type ActivityEntry } from "@/lib/store/webhook-inbox";
import { homeInputToUtcFilter, parseHomeValue } from "@/lib/time";
import { activityHref, groupBursts } from "@/lib/webhooks/activity";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Activity · Engage Console" };

type Props = { searchParams: Promise<PageSearchParams> };

const MODES = new Set(["secret", "basic", "oauth2", "none"]);
const PAGE = 50;

const text = (value: string | string[] | undefined) => (typeof value === "string" ? value.trim() : "");

/** A typed UTC+8 time (either language's format) as epoch ms; undefined when empty, null when unreadable. */
function typedTime(value: string): number | undefined | null {
  if (!value) return undefined;
  const home = parseHomeValue(value);
  const utc = home ? homeInputToUtcFilter(home) : undefined;
  return utc ? Date.parse(`${utc}Z`) : null;
}

/**
 * Activity: the latest webhook deliveries (§5.5, §6) of the signed-in tenant — what changed, when,
 * and a link to it. Refreshes itself when new deliveries arrive.
 */
export default async function ActivityPage({ searchParams }: Props) {
  const params = await searchParams;
  const openAppId = typeof params.openAppId === "string" ? params.openAppId : undefined;
  const session = await requirePageSession(params, openAppId ? `/activity?${new URLSearchParams({ openAppId })}` : "/activity");

  const scope = { openAppId: session.openAppId, tenantId: session.tenantId };
  const values = { kind: text(params.kind), resource: text(params.resource), from: text(params.from), to: text(params.to) };
  const from = typedTime(values.from);
  const to = typedTime(values.to);
  const before = text(params.before);
  const store = await getStore();
  const filter = { kind: values.kind || undefined, resource: values.resource || undefined, from: from ?? undefined, to: to ?? undefined, before: before || undefined };
  const [entries, facets, newest] = await Promise.all([
    recentActivity(store, scope, PAGE, filter),
    activityFacets(store, scope),
    before ? recentActivity(store, scope, 1) : Promise.resolve(null),
  ]);
  const filtered = Boolean(values.kind || values.resource || values.from || values.to);
  // The live refresh follows the newest delivery of the tenant, whatever page is shown.
  const cursor = (newest ?? entries)[0]?.id ?? "0";
  const t = await requestTranslate();
  const pageHref = (extra: Record<string, string>) => {
    const query = new URLSearchParams({ openAppId: session.openAppId });
    for (const [key, value] of Object.entries(values)) if (value) query.set(key, value);
    for (const [key, value] of Object.entries(extra)) query.set(key, value);
    return `/activity?${query}`;
  };
  const linkClass = "text-blue-800 underline underline-offset-2 hover:text-blue-950 focus-visible:outline-2 focus-visible:outline-blue-700";
  const row = (entry: ActivityEntry) => {
    const href = activityHref(entry, session.openAppId);
    const label = entry.resource ? `${entry.resource} ${entry.resourceId ?? ""}`.trim() : (entry.resourceId ?? "—");
    return (
      <tr key={entry.id} className="border-t border-slate-200">
        <td className="px-3 py-2">
          <TimeText value={new Date(entry.receivedAt).toISOString()} />
        </td>
        <td className="px-3 py-2 font-mono text-xs">{entry.kind}</td>
        <td className="px-3 py-2">
          {href ? (
            <Link href={href} className={linkClass}>
              {label}
            </Link>
          ) : (
            <span>{label}</span>
          )}
        </td>
        <td className="px-3 py-2">{entry.occurredAt ? <TimeText value={entry.occurredAt} /> : "—"}</td>
        <td className="px-3 py-2">{MODES.has(entry.verification) ? t(`activity.mode.${entry.verification as "secret"}`) : entry.verification}</td>
      </tr>
    );
  };
  const headers = [t("activity.received"), t("activity.event"), t("activity.changed"), t("activity.occurred"), t("activity.verifiedBy")];

  return (
    <div className="mx-auto max-w-5xl">
      <h1 className="text-xl font-semibold text-slate-900">{t("activity.title")}</h1>
      <p className="mt-1 text-sm text-slate-700">{t("activity.intro")}</p>
      <ActivityLiveRefresh openAppId={session.openAppId} cursor={cursor} />
      <ActivityFilters openAppId={session.openAppId} values={values} kinds={facets.kinds} resources={facets.resources} problems={{ from: from === null, to: to === null }} />
      {entries.length === 0 ? (
        <p className="mt-6 rounded-md border border-dashed border-slate-300 bg-white p-6 text-slate-700">{filtered || before ? t("activity.noMatch") : t("activity.empty")}</p>
      ) : (
        <div className="mt-4 overflow-x-auto rounded-md border border-slate-300 bg-white">
          <table className="w-full text-left text-sm" data-testid="activity-table">
            <caption className="sr-only">{t("activity.caption")}</caption>
            <thead className="bg-slate-100 text-slate-800">
              <tr>
                {headers.map((header) => (
                  <th key={header} scope="col" className="px-3 py-2 font-semibold">{header}</th>
                ))}
              </tr>
            </thead>
            {groupBursts(entries).map((group) =>
              group.kind === "one" ? (
                <tbody key={group.entry.id}>{row(group.entry)}</tbody>
              ) : (
                <tbody key={group.entries[0]!.id} data-testid="activity-burst">
                  <tr className="border-t border-slate-200 bg-slate-50">
                    <td colSpan={headers.length} className="px-3 py-2">
                      <details>
                        <summary className="cursor-pointer text-slate-900">
                          {t("activity.burst", { count: group.entries.length, event: group.event })} · <span className="text-blue-800 underline">{t("activity.burstOpen")}</span>
                        </summary>
                        <table className="mt-2 w-full text-left text-sm">
                          <caption className="sr-only">{t("activity.burst", { count: group.entries.length, event: group.event })}</caption>
                          <thead className="text-slate-800">
                            <tr>
                              {headers.map((header) => (
                                <th key={header} scope="col" className="px-3 py-1 font-semibold">{header}</th>
                              ))}
                            </tr>
                          </thead>
                          <tbody>{group.entries.map(row)}</tbody>
                        </table>
                      </details>
                    </td>
                  </tr>
                </tbody>
              ),
            )}
          </table>
        </div>
      )}
      <nav aria-label={t("activity.paging")} className="mt-3 flex gap-4 text-sm">
        {/* Plain links: a page of the server-rendered list is a new document, as the filter form's GET is. */}
        {before && (
          <a href={pageHref({})} className={linkClass}>
            {t("activity.newest")}
          </a>
        )}
        {entries.length === PAGE && (
          <a href={pageHref({ before: entries.at(-1)!.id })} className={linkClass} data-testid="activity-older">
            {t("activity.older")}
          </a>
        )}
      </nav>
    </div>
  );
}
