"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { AppLink } from "@/components/ui/app-link";
import { clientOnly } from "@/components/ui/client-only";
import { useState } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { isBuiltInDimension } from "@/lib/tags/tag-forms";
import { rowsInDimension, tagsInput, tagsUrlState, type TagSort, type TagsState } from "@/lib/tags/tags-state";
import { PAGE_SIZES } from "@/lib/ui/url-params";
import { tagCountsQuery } from "@/lib/search/search-queries";
import { useListController } from "@/lib/ui/list-controller";
import type { Tag, TagDimension } from "@/lib/platform/resources";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button, focusRing } from "@/components/ui/button";
import { useConsoleHref } from "@/components/shell/console-href";
import { DataTable, type Column } from "@/components/ui/data-table";
import { SelectField } from "@/components/ui/field";
import { ListControls } from "@/components/ui/list-controls";
import { Pagination } from "@/components/ui/pagination";
import { QueryView, UpdatingStatus } from "@/components/ui/query-view";
import { TimeText } from "@/components/ui/time-text";
import { PageHeader } from "@/components/ui/page-header";
import { BuiltInBadge, DimensionsSection, dimensionsQuery } from "./dimensions-section";

// The dialogs load after the page (not in its first-load JS, target 170 kB); they stay mounted so a
// closed <dialog> gives focus back to the button that opened it.
const DeleteTagDialog = clientOnly(() => import("./delete-tag-dialog").then((m) => m.DeleteTagDialog));
const ImportExternalDialog = clientOnly(() => import("./import-external-dialog").then((m) => m.ImportExternalDialog));
const MergeTagDialog = clientOnly(() => import("./merge-tag-dialog").then((m) => m.MergeTagDialog));
const TagCustomersDialog = clientOnly(() => import("./tag-customers-dialog").then((m) => m.TagCustomersDialog));
const TagFormDialog = clientOnly(() => import("./tag-form-dialog").then((m) => m.TagFormDialog));

/** The query of a tags state; the server prefetches exactly this (same key). */
export function tagsQuery(state: TagsState) {
  return platformQuery("tags.list", tagsInput(state));
}

function DimensionCell({ dimensionKey, dimensions }: { dimensionKey: string | null | undefined; dimensions: readonly TagDimension[] }) {
  const d = dimensions.find((x) => x.dimensionKey === dimensionKey);
  return (
    <span className="flex flex-wrap items-center gap-1">
      {d?.name && <span>{d.name}</span>}
      <span className="font-mono text-xs break-all text-slate-800">{dimensionKey}</span>
      {isBuiltInDimension(dimensionKey) && <BuiltInBadge />}
    </span>
  );
}

/**
 * Tag dimensions and tags (§2.6, §4.5): dimensions listed and created; tags paged and sorted by the
 * platform (state in the URL), filtered by dimension within the page, created, renamed, moved,
 * deleted, merged, put on or taken off many customers; external tags imported.
 */
export function TagsView() {
  const { t } = useI18n();
  const href = useConsoleHref();
  const controller = useListController(tagsUrlState);
  const { state, set: setState, update } = controller;
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [editing, setEditing] = useState<Tag | undefined>(undefined);
  const [deleting, setDeleting] = useState<Tag | undefined>(undefined);
  const [tagging, setTagging] = useState<Tag | undefined>(undefined);
  // Merge: first the tag to merge away is chosen, then (on any page) the tag it goes into.
  const [mergeFrom, setMergeFrom] = useState<Tag | undefined>(undefined);
  const [mergeTo, setMergeTo] = useState<Tag | undefined>(undefined);

  const list = useQuery({ ...tagsQuery(state), placeholderData: keepPreviousData });
  const dimensions = useQuery(dimensionsQuery(state.dimensionMax)).data ?? [];


  const pageRows = list.data?.rows ?? [];
  const rows = rowsInDimension(pageRows, state.dimension);
  // Who carries each tag of the page, counted by the people index in one request.
  const names = pageRows.flatMap((row) => (row.name ? [row.name] : []));
  const counts = useQuery({ ...tagCountsQuery(names), enabled: names.length > 0, placeholderData: keepPreviousData }).data?.counts;
  const records = list.data && !list.isPlaceholderData ? (list.data.records ?? undefined) : undefined;
  // §4.5: `total` is the number of pages (as for lists, §4.4).
  const pages = list.data && !list.isPlaceholderData ? Math.max(1, list.data.total ?? 1) : undefined;
  const dimensionChoices = dimensions.filter((d) => d.dimensionKey);
  if (state.dimension && !dimensionChoices.some((d) => d.dimensionKey === state.dimension)) dimensionChoices.push({ id: null, dimensionKey: state.dimension, name: null });
  // A row's actions; while merging, "merge into this one" instead.
  function actions(row: Tag) {
    const name = row.name || row.id;
    if (mergeFrom) {
      return mergeFrom.id === row.id ? (
        <span className="text-xs text-slate-800">{t("tags.merge.thisOne")}</span>
      ) : (
        <Button variant="primary" onClick={() => setMergeTo(row)} aria-label={t("tags.merge.intoNamed", { from: mergeFrom.name || mergeFrom.id, to: name })}>{t("tags.merge.into")}</Button>
      );
    }
    return (
      // Two by two: four actions in one line would push the table past the admin's 1024-px pane.
      <div className="grid grid-cols-2 justify-items-start gap-0.5 whitespace-nowrap">
        <Button variant="ghost" onClick={() => setTagging(row)} aria-label={t("tags.customersNamed", { name })}>{t("tags.customersAction")}</Button>
        <Button variant="ghost" onClick={() => setEditing(row)} aria-label={t("tags.editNamed", { name })}>{t("tags.edit")}</Button>
        <Button variant="ghost" onClick={() => setMergeFrom(row)} aria-label={t("tags.mergeNamed", { name })}>{t("tags.mergeAction")}</Button>
        <Button variant="ghost" onClick={() => setDeleting(row)} aria-label={t("tags.deleteNamed", { name })}>{t("tags.delete")}</Button>
      </div>
    );
  }

  const columns: Column<Tag, TagSort>[] = [
    { key: "name", header: t("tags.col.name"), sortKey: "name", className: "max-w-56 px-2! font-medium break-words", headClassName: "px-2!", cell: (row) => row.name || t("tags.unnamed") },
    {
      key: "people",
      header: t("tags.col.people"),
      align: "right",
      className: "px-2! whitespace-nowrap tabular-nums",
      headClassName: "px-2!",
      // The tag's people: the customers list filtered by the tag (paging, search inside, export).
      cell: (row) =>
        row.name ? (
          <AppLink href={href("/customers", { tag: row.name })} className={`rounded text-blue-800 underline-offset-2 hover:underline ${focusRing}`} aria-label={counts?.[row.name] !== undefined ? t("tags.peopleNamed", { name: row.name, count: counts[row.name]! }) : t("tags.peopleNamedUncounted", { name: row.name })} data-testid="tag-people">
            {counts?.[row.name] !== undefined ? t("tags.peopleCount", { count: counts[row.name]! }) : t("tags.people")}
          </AppLink>
        ) : null,
    },
    { key: "dimension", header: t("tags.col.dimension"), sortKey: "dimension", className: "max-w-32 px-2!", headClassName: "px-2!", cell: (row) => <DimensionCell dimensionKey={row.dimension} dimensions={dimensions} /> },
    { key: "dateCreated", header: t("tags.col.dateCreated"), sortKey: "dateCreated", className: "px-2! text-xs", headClassName: "px-2! whitespace-normal!", cell: (row) => <TimeText stacked value={row.dateCreated} /> },
    { key: "lastUpdated", header: t("tags.col.lastUpdated"), sortKey: "lastUpdated", className: "px-2! text-xs", headClassName: "px-2! whitespace-normal!", cell: (row) => <TimeText stacked value={row.lastUpdated} /> },
    // The id last (for copying), before the row's actions.
    { key: "id", header: t("tags.col.id"), sortKey: "id", className: "px-2! font-mono text-xs tabular-nums", headClassName: "px-2!", cell: (row) => row.id },
    { key: "actions", header: t("tags.actions"), hideHeader: true, className: "px-1!", cell: (row) => actions(row) },
  ];
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t("tags.title")} intro={t("tags.intro")} />

      <DimensionsSection dimensionMax={state.dimensionMax} onMore={(dimensionMax) => setState((s) => ({ ...s, dimensionMax }))} />

      <section aria-labelledby="tags-title" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="tags-title" className="text-base font-semibold text-slate-900">{t("tags.list.title")}</h2>
          <p className="text-sm text-slate-800" aria-live="polite">{records !== undefined ? t("tags.total", { count: records }) : null}</p>
        </div>
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div className="flex flex-wrap items-end gap-3">
            <ListControls {...controller.controls} pageSizes={PAGE_SIZES} />
            <SelectField label={t("tags.filter.dimension")} value={state.dimension} onChange={(e) => setState((s) => ({ ...s, dimension: e.target.value }))} className="w-56">
              <option value="">{t("tags.filter.all")}</option>
              {dimensionChoices.map((d) => (
                <option key={d.dimensionKey!} value={d.dimensionKey!}>{d.name ? `${d.name} (${d.dimensionKey})` : d.dimensionKey}</option>
              ))}
            </SelectField>
            <UpdatingStatus query={list} />
          </div>
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => setImporting(true)}>{t("tags.import")}</Button>
            <Button variant="primary" onClick={() => setCreating(true)}>{t("tags.new")}</Button>
          </div>
        </div>
        {state.dimension && <p className="text-xs text-slate-700" data-testid="dimension-filter-note">{t("tags.filter.pageOnly", { shown: rows.length, total: pageRows.length })}</p>}

        {mergeFrom && (
          <div role="region" aria-label={t("tags.merge.pickingLabel")} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-blue-300 bg-blue-50 p-3" data-testid="merge-picking">
            <p className="text-sm text-slate-900">{t("tags.merge.picking", { from: mergeFrom.name || mergeFrom.id })}</p>
            <Button onClick={() => setMergeFrom(undefined)}>{t("tags.merge.cancelPicking")}</Button>
          </div>
        )}

        <QueryView query={list} hasRows={rows.length > 0} testId="tags" loading={t("tags.loading")} errorTitle={t("tags.loadError")} level={3}
          empty={{ title: t("tags.emptyTitle"), body: t("tags.emptyBody") }}
          noResults={
            pageRows.length > 0
              ? { title: t("tags.filter.noneOnPage"), actions: <Button onClick={() => setState((s) => ({ ...s, dimension: "" }))}>{t("tags.filter.clear")}</Button> }
              : state.page > 1 ? { title: t("tags.pastEndTitle"), onFirstPage: () => update({}) } : undefined
          }
        >
          <DataTable
            rows={rows}
            rowKey={(row) => String(row.id)}
            columns={columns}
            caption={t("tags.caption", { page: state.page })}
            testId="tags-table"
            busy={list.isFetching}
            sort={controller.tableSort}
            rowClassName={(row) => (mergeFrom?.id === row.id ? "bg-blue-50" : undefined)}
          />
        </QueryView>
        {!list.isPending && (pageRows.length > 0 || state.page > 1) && (
          <div className="flex justify-end">
            <Pagination {...controller.pager({ pages, hasNext: pages !== undefined && state.page < pages })} />
          </div>
        )}
      </section>

      <TagFormDialog mode="create" open={creating} initialDimension={state.dimension || "basic"} dimensions={dimensions} onClose={() => setCreating(false)} />
      <TagFormDialog mode="edit" tag={editing} dimensions={dimensions} onClose={() => setEditing(undefined)} />
      <DeleteTagDialog tag={deleting} onClose={() => setDeleting(undefined)} />
      <TagCustomersDialog tag={tagging} onClose={() => setTagging(undefined)} />
      <ImportExternalDialog open={importing} onClose={() => setImporting(false)} />
      <MergeTagDialog
        from={mergeTo ? mergeFrom : undefined}
        to={mergeTo}
        onClose={() => setMergeTo(undefined)}
        onMerged={() => {
          setMergeTo(undefined);
          setMergeFrom(undefined);
        }}
      />
    </div>
  );
}
