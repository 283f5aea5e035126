import type { Metadata } from "next";
import Link from "next/link";
import { ActivityLiveRefresh } from "@/components/activity/activity-live-refresh";
import { TimeText } from "@/components/ui/time-text";
import { requirePageSession, type PageSearchParams } from "@/lib/auth/page-session";
import { requestTranslate } from "@/lib/i18n/server";
import { getStore } from "@/lib/store";
import { recentActivity } from "@/lib/store/webhook-inbox";
import { activityHref } from "@/lib/webhooks/activity";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Activity · Engage Console" };

type Props = { searchParams: Promise<PageSearchParams> };

const MODES = new Set(["secret", "basic", "oauth2", "none"]);

/**
 * Activity: the latest webhook deliveries (§5.5, §6) of the signed-in tenant — what changed, when,
 * and a link to it. Refreshes itself when new deliveries arrive.
 */
export default async function ActivityPage({ searchParams }: Props) {
  const params = await searchParams;
  const openAppId = typeof params.openAppId === "string" ? params.openAppId : undefined;
  const session = await requirePageSession(params, openAppId ? `/activity?${new URLSearchParams({ openAppId })}` : "/activity");

  const entries = await recentActivity(await getStore(), { openAppId: session.openAppId, tenantId: session.tenantId }, 50);
  const cursor = entries[0]?.id ?? "0";
  const t = await requestTranslate();
  const headers = [t("activity.received"), t("activity.event"), t("activity.changed"), t("activity.occurred"), t("activity.verifiedBy")];

  return (
    <div className="mx-auto max-w-5xl">
      <h1 className="text-xl font-semibold text-slate-900">{t("activity.title")}</h1>
      <p className="mt-1 text-sm text-slate-700">{t("activity.intro")}</p>
      <ActivityLiveRefresh openAppId={session.openAppId} cursor={cursor} />
      {entries.length === 0 ? (
        <p className="mt-6 rounded-md border border-dashed border-slate-300 bg-white p-6 text-slate-700">{t("activity.empty")}</p>
      ) : (
        <div className="mt-4 overflow-x-auto rounded-md border border-slate-300 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t("activity.caption")}</caption>
            <thead className="bg-slate-100 text-slate-800">
              <tr>
                {headers.map((header) => (
                  <th key={header} scope="col" className="px-3 py-2 font-semibold">{header}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => {
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
                        <Link href={href} className="text-blue-800 underline underline-offset-2 hover:text-blue-950 focus-visible:outline-2 focus-visible:outline-blue-700">
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
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
