import type { Translate } from "@/lib/i18n/messages";
import type { IndexStatus } from "./types";

/**
 * The sentence that tells staff how fresh the index is: "Building the search index: 14,200 of
 * 1,000,000 — about 2 min left." while the backfill runs, "Search index up to date; last change
 * 12 s ago." afterwards. Pure: the translator, the clock and the number format are passed in.
 */
export function indexStatusSentence(status: IndexStatus, now: number, t: Translate, formatNumber: (n: number) => string): string {
  if (status.error && status.phase !== "ready") return t("search.failed", { error: status.error });
  if (!status.enabled && status.phase !== "ready") return t("search.off");
  if (status.phase === "none" || (status.phase === "backfill" && status.total === null)) return t("search.buildingStart");
  if (status.phase === "backfill") {
    const values = { indexed: formatNumber(status.indexed), total: formatNumber(status.total ?? 0) };
    if (status.secondsLeft === null) return t("search.building", values);
    const left = status.secondsLeft < 60 ? t("search.secondsLeft", { count: status.secondsLeft }) : t("search.minutesLeft", { count: Math.ceil(status.secondsLeft / 60) });
    return t("search.buildingEta", { ...values, left });
  }
  if (status.lastChangeAt === null) return t("search.freshNoChange");
  const seconds = Math.max(0, Math.round((now - status.lastChangeAt) / 1000));
  const ago =
    seconds < 60
      ? t("search.secondsAgo", { count: seconds })
      : seconds < 3600
        ? t("search.minutesAgo", { count: Math.floor(seconds / 60) })
        : t("search.hoursAgo", { count: Math.floor(seconds / 3600) });
  return t("search.fresh", { ago });
}
