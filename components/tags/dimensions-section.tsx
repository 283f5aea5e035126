"use client";
import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useState } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { isBuiltInDimension } from "@/lib/console/tag-forms";
import { dimensionsInput, moreDimensionsMax } from "@/lib/console/tags-state";
import { useDelayedFlag } from "@/lib/hooks/use-delayed-flag";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { TimeText } from "@/components/ui/time-text";

// Loads after the page: not part of its first-load JS.
const CreateDimensionDialog = dynamic(() => import("./create-dimension-dialog").then((m) => m.CreateDimensionDialog), { ssr: false });

/** The dimensions query of a `max`; the server prefetches exactly this (same key). */
export function dimensionsQuery(dimensionMax: number) {
  return platformQuery("tagDimensions.list", dimensionsInput({ dimensionMax }));
}

export function BuiltInBadge() {
  const { t } = useI18n();
  return <span className="rounded bg-slate-200 px-1.5 py-0.5 text-xs font-medium text-slate-900">{t("tags.dimensions.builtIn")}</span>;
}

/**
 * §4.5 GET /v1/tagdimensions with `max` (more on request) and POST to create one. §4.5 has no
 * update or delete of a dimension, so no row offers either; the built-in ones (§2.6) carry a badge.
 */
export function DimensionsSection({ dimensionMax, onMore }: { dimensionMax: number; onMore: (max: number) => void }) {
  const { t, locale } = useI18n();
  const [creating, setCreating] = useState(false);
  const dimensions = useQuery(dimensionsQuery(dimensionMax));
  const showLoading = useDelayedFlag(dimensions.isPending);
  const rows = dimensions.data ?? [];
  const more = dimensions.data ? moreDimensionsMax({ dimensionMax }, rows.length) : undefined;
  return (
    <section aria-labelledby="dimensions-title" className="flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="dimensions-title" className="text-base font-semibold text-slate-900">{t("tags.dimensions.title")}</h2>
        <Button onClick={() => setCreating(true)}>{t("tags.dimensions.new")}</Button>
      </div>
      <p className="text-sm text-slate-800">{t("tags.dimensions.intro")}</p>
      {dimensions.isError && !dimensions.data ? (
        <div role="alert">
          <p className="text-sm font-medium text-slate-900">{t("tags.dimensions.loadError")}</p>
          <p className="text-sm text-slate-800">{errorMessage(dimensions.error, t)}</p>
          <Button className="mt-2" onClick={() => void dimensions.refetch()}>{t("error.retry")}</Button>
        </div>
      ) : dimensions.isPending ? (
        <p className="text-sm text-slate-700" role="status">{showLoading ? t("tags.dimensions.loading") : ""}</p>
      ) : (
        <>
          <div className="max-h-72 overflow-auto rounded border border-slate-200" tabIndex={0} aria-labelledby="dimensions-title">
            <table className="min-w-full text-left text-sm" data-testid="dimensions-table">
              <caption className="sr-only">{t("tags.dimensions.caption")}</caption>
              <thead className="sticky top-0 border-b border-slate-300 bg-slate-100">
                <tr>
                  <th scope="col" className="px-3 py-2 font-semibold text-slate-900">{t("tags.dimensions.col.key")}</th>
                  <th scope="col" className="px-3 py-2 font-semibold text-slate-900">{t("tags.dimensions.col.name")}</th>
                  <th scope="col" className="px-3 py-2 font-semibold text-slate-900">{t("tags.dimensions.col.kind")}</th>
                  <th scope="col" className="px-3 py-2 font-semibold text-slate-900">{t("tags.col.dateCreated")}</th>
                  <th scope="col" className="px-3 py-2 font-semibold text-slate-900">{t("tags.col.lastUpdated")}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {rows.map((d) => (
                  <tr key={d.id ?? d.dimensionKey}>
                    <td className="max-w-60 px-3 py-1.5 font-mono text-xs break-all text-slate-900">{d.dimensionKey}</td>
                    <td className="max-w-60 px-3 py-1.5 break-words text-slate-900">{d.name}</td>
                    <td className="px-3 py-1.5">{isBuiltInDimension(d.dimensionKey) ? <BuiltInBadge /> : <span className="text-xs text-slate-800">{t("tags.dimensions.custom")}</span>}</td>
                    <td className="px-3 py-1.5 whitespace-nowrap text-slate-900"><TimeText value={d.dateCreated} /></td>
                    <td className="px-3 py-1.5 whitespace-nowrap text-slate-900"><TimeText value={d.lastUpdated} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm text-slate-800" aria-live="polite">{t("tags.dimensions.count", { count: rows.length.toLocaleString(locale) })}</p>
            {more !== undefined && <Button onClick={() => onMore(more)}>{t("tags.dimensions.more")}</Button>}
          </div>
        </>
      )}
      <CreateDimensionDialog open={creating} knownKeys={rows.map((d) => d.dimensionKey ?? "")} onClose={() => setCreating(false)} />
    </section>
  );
}
