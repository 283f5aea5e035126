"use client";
import { formatNumber } from "@/lib/i18n/icu";
import { useEffect, useState } from "react";
import { indexStatusSentence } from "@/lib/search/status-text";
import type { IndexStatus } from "@/lib/search/types";
import { useI18n } from "@/components/i18n/i18n-provider";

/** "Search index up to date; last change 12 s ago." / "Building the search index: 14,200 of 1,000,000 — about 2 min left." */
export function IndexStatusLine({ status, note = false }: { status: IndexStatus | undefined; note?: boolean }) {
  const { t, locale } = useI18n();
  const [now, setNow] = useState(() => Date.now());
  // "12 s ago" keeps moving between answers.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 5_000);
    return () => clearInterval(timer);
  }, []);
  if (!status) return null;
  return (
    <p className="text-xs text-slate-700" data-testid="index-status" role="status">
      {indexStatusSentence(status, Math.max(now, status.syncedAt ?? 0), t, (n) => formatNumber(n, locale))}
      {note && status.phase === "ready" ? ` ${t("search.resultsNote")}` : null}
    </p>
  );
}
