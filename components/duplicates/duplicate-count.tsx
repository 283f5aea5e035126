"use client";
import { useQuery } from "@tanstack/react-query";
import { AppLink } from "@/components/ui/app-link";
import { appQuery } from "@/lib/api/app-queries";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { focusRing } from "@/components/ui/button";

/** How many clusters wait for review, cached a minute (the navigation shows it on every page). */
export function useDuplicateCounts(enabled = true) {
  return useQuery({ ...appQuery("duplicates.counts", {}), staleTime: 60_000, enabled });
}

/**
 * The navigation's badge beside "Duplicates": the number, with its meaning for screen readers. Asked
 * only on a page of an installation (`openAppId`): on the chooser page of a plain tab there is no
 * sign-in to ask with, and the refusal would start a re-authorization under the staff's eyes.
 */
export function DuplicateNavBadge({ openAppId }: { openAppId: string | undefined }) {
  const { t } = useI18n();
  const count = useDuplicateCounts(openAppId !== undefined).data?.clusters ?? 0;
  if (count === 0) return null;
  return (
    <span className="ml-2 rounded-full bg-amber-100 px-2 text-xs font-semibold text-amber-900" data-testid="nav-duplicates-count">
      <span aria-hidden="true">{count}</span>
      <span className="sr-only">{t("duplicates.navCount", { count })}</span>
    </span>
  );
}

/** The overview's line: the count and a link to the queue. */
export function DuplicateOverviewLine() {
  const { t } = useI18n();
  const href = useConsoleHref();
  const counts = useDuplicateCounts();
  if (!counts.data) return null;
  return (
    <p className="rounded-md border border-slate-300 bg-white p-3 text-sm text-slate-900" data-testid="overview-duplicates">
      {t("duplicates.overview", { count: counts.data.clusters })}{" "}
      <AppLink href={href("/duplicates")} className={`text-blue-800 underline ${focusRing}`}>{t("duplicates.overviewLink")}</AppLink>
    </p>
  );
}
