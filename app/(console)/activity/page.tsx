import type { Metadata } from "next";
import { ActivityView } from "@/components/activity/activity-view";
import { activityFilterOf, activityList, ACTIVITY_PAGE } from "@/lib/activity/activity-list";
import { requirePageSession, type PageSearchParams } from "@/lib/auth/page-session";
import { getStore } from "@/lib/store";
import { activityFacets, recentActivity } from "@/lib/store/webhook-inbox";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Activity · Engage Console" };

type Props = { searchParams: Promise<PageSearchParams> };

/**
 * Activity: the latest webhook deliveries (§5.5, §6) of the signed-in tenant — what changed, when,
 * and a link to it. The list's state is the URL's (`activityList`, the same definition the browser's
 * list controller writes); the store is read here, and the view refreshes itself when new
 * deliveries arrive.
 */
export default async function ActivityPage({ searchParams }: Props) {
  const params = await searchParams;
  const openAppId = typeof params.openAppId === "string" ? params.openAppId : undefined;
  const session = await requirePageSession(params, openAppId ? `/activity?${new URLSearchParams({ openAppId })}` : "/activity");

  const scope = { openAppId: session.openAppId, tenantId: session.tenantId };
  const state = activityList.parse(params);
  const { filter, problems } = activityFilterOf(state);
  const store = await getStore();
  const [entries, facets, newest] = await Promise.all([
    recentActivity(store, scope, ACTIVITY_PAGE, filter),
    activityFacets(store, scope),
    state.before ? recentActivity(store, scope, 1) : Promise.resolve(null),
  ]);
  // The live refresh follows the newest delivery of the tenant, whatever page is shown.
  const cursor = (newest ?? entries)[0]?.id ?? "0";
  return <ActivityView openAppId={session.openAppId} entries={entries} facets={facets} problems={problems} cursor={cursor} />;
}
