"use client";
import { useQuery } from "@tanstack/react-query";
import { clientOnly } from "@/components/ui/client-only";
import { useState } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { isBuiltInDimension } from "@/lib/tags/tag-forms";
import { dimensionsInput, moreDimensionsMax } from "@/lib/tags/tags-state";
import type { TagDimension } from "@/lib/platform/resources";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { QueryView } from "@/components/ui/query-view";
import { TimeText } from "@/components/ui/time-text";

// Loads after the page: not part of its first-load JS.
const CreateDimensionDialog = clientOnly(() => import("./create-dimension-dialog").then((m) => m.CreateDimensionDialog));

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
  const { t } = useI18n();
  const [creating, setCreating] = useState(false);
  const dimensions = useQuery(dimensionsQuery(dimensionMax));
  const rows = dimensions.data ?? [];
  const more = dimensions.data ? moreDimensionsMax({ dimensionMax }, rows.length) : undefined;
  const columns: Column<TagDimension>[] = [
    { key: "key", header: t("tags.dimensions.col.key"), className: "max-w-60 font-mono text-xs break-all", cell: (d) => d.dimensionKey },
    { key: "name", header: t("tags.dimensions.col.name"), className: "max-w-60 break-words", cell: (d) => d.name },
    {
      key: "kind",
      header: t("tags.dimensions.col.kind"),
      cell: (d) => (isBuiltInDimension(d.dimensionKey) ? <BuiltInBadge /> : <span className="text-xs text-slate-800">{t("tags.dimensions.custom")}</span>),
    },
    { key: "dateCreated", header: t("tags.col.dateCreated"), className: "whitespace-nowrap", cell: (d) => <TimeText value={d.dateCreated} /> },
    { key: "lastUpdated", header: t("tags.col.lastUpdated"), className: "whitespace-nowrap", cell: (d) => <TimeText value={d.lastUpdated} /> },
  ];
  return (
    <section aria-labelledby="dimensions-title" className="flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="dimensions-title" className="text-base font-semibold text-slate-900">{t("tags.dimensions.title")}</h2>
        <Button onClick={() => setCreating(true)}>{t("tags.dimensions.new")}</Button>
      </div>
      <p className="text-sm text-slate-800">{t("tags.dimensions.intro")}</p>
      <QueryView query={dimensions} testId="dimensions" loading={t("tags.dimensions.loading")} errorTitle={t("tags.dimensions.loadError")}>
        <DataTable rows={rows} rowKey={(d) => d.id ?? d.dimensionKey ?? ""} columns={columns} caption={t("tags.dimensions.caption")} testId="dimensions-table" scrollLabelledBy="dimensions-title" />
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-slate-800" aria-live="polite">{t("tags.dimensions.count", { count: rows.length })}</p>
          {more !== undefined && <Button onClick={() => onMore(more)}>{t("tags.dimensions.more")}</Button>}
        </div>
      </QueryView>
      <CreateDimensionDialog open={creating} knownKeys={rows.map((d) => d.dimensionKey ?? "")} onClose={() => setCreating(false)} />
    </section>
  );
}
