"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useState } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { isBuiltInDimension } from "@/lib/console/tag-forms";
import { rowsInDimension, TAG_PAGE_SIZES, TAG_SORTS, tagsInput, type TagSort, type TagsState } from "@/lib/console/tags-state";
import { useTagsState } from "@/lib/console/use-tags-state";
import { useDelayedFlag } from "@/lib/hooks/use-delayed-flag";
import type { MessageKey } from "@/lib/i18n/messages";
import type { Tag, TagDimension } from "@/lib/platform/resources";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Pagination } from "@/components/customers/pagination";
import { Button } from "@/components/ui/button";
import { SortableHeader } from "@/components/ui/sortable-header";
import { errorMessage } from "@/components/ui/error-message";
import { SelectField } from "@/components/ui/field";
import { ListControls } from "@/components/ui/list-controls";
import { TimeText } from "@/components/ui/time-text";
import { BuiltInBadge, DimensionsSection, dimensionsQuery } from "./dimensions-section";

// The dialogs load after the page (not in its first-load JS, budget 180 kB); they stay mounted so a
// closed <dialog> gives focus back to the button that opened it.
const DeleteTagDialog = dynamic(() => import("./delete-tag-dialog").then((m) => m.DeleteTagDialog), { ssr: false });
const ImportExternalDialog = dynamic(() => import("./import-external-dialog").then((m) => m.ImportExternalDialog), { ssr: false });
const MergeTagDialog = dynamic(() => import("./merge-tag-dialog").then((m) => m.MergeTagDialog), { ssr: false });
const TagCustomersDialog = dynamic(() => import("./tag-customers-dialog").then((m) => m.TagCustomersDialog), { ssr: false });
const TagFormDialog = dynamic(() => import("./tag-form-dialog").then((m) => m.TagFormDialog), { ssr: false });

/** The query of a tags state; the server prefetches exactly this (same key). */
export function tagsQuery(state: TagsState) {
  return platformQuery("tags.list", tagsInput(state));
}

const SORT_LABELS: Record<TagSort, MessageKey> = { id: "tags.col.id", name: "tags.col.name", dimension: "tags.col.dimension", dateCreated: "tags.col.dateCreated", lastUpdated: "tags.col.lastUpdated" };

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
  const { t, locale } = useI18n();
  const [state, setState] = useTagsState();
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
  const showLoading = useDelayedFlag(list.isPending);
  const showUpdating = useDelayedFlag(list.isFetching && !list.isPending);

  const update = (patch: Partial<TagsState>) => setState((s) => ({ ...s, page: 1, ...patch }));
  const onSort = (column: TagSort) => update({ sort: column, order: state.sort === column && state.order === "asc" ? "desc" : "asc" });

  const pageRows = list.data?.rows ?? [];
  const rows = rowsInDimension(pageRows, state.dimension);
  const records = list.data && !list.isPlaceholderData ? (list.data.records ?? undefined) : undefined;
  // §4.5: `total` is the number of pages (as for lists, §4.4).
  const pages = list.data && !list.isPlaceholderData ? Math.max(1, list.data.total ?? 1) : undefined;
  const dimensionChoices = dimensions.filter((d) => d.dimensionKey);
  if (state.dimension && !dimensionChoices.some((d) => d.dimensionKey === state.dimension)) dimensionChoices.push({ id: null, dimensionKey: state.dimension, name: null });

  return (
    <div className="flex flex-col gap-5">
      <div>
        <h1 className="text-xl font-semibold text-slate-900">{t("tags.title")}</h1>
        <p className="mt-1 text-sm text-slate-800">{t("tags.intro")}</p>
      </div>

      <DimensionsSection dimensionMax={state.dimensionMax} onMore={(dimensionMax) => setState((s) => ({ ...s, dimensionMax }))} />

      <section aria-labelledby="tags-title" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="tags-title" className="text-base font-semibold text-slate-900">{t("tags.list.title")}</h2>
          <p className="text-sm text-slate-800" aria-live="polite">{records !== undefined ? t("tags.total", { count: records.toLocaleString(locale) }) : null}</p>
        </div>
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div className="flex flex-wrap items-end gap-3">
            <ListControls rows={state.rows} pageSizes={TAG_PAGE_SIZES} onChange={update} />
            <SelectField label={t("tags.filter.dimension")} value={state.dimension} onChange={(e) => setState((s) => ({ ...s, dimension: e.target.value }))} className="w-56">
              <option value="">{t("tags.filter.all")}</option>
              {dimensionChoices.map((d) => (
                <option key={d.dimensionKey!} value={d.dimensionKey!}>{d.name ? `${d.name} (${d.dimensionKey})` : d.dimensionKey}</option>
              ))}
            </SelectField>
            <span className="text-sm text-slate-700" role="status">{showUpdating ? t("list.updating") : ""}</span>
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

        {list.isError && !list.data ? (
          <div role="alert" className="rounded-lg border border-red-300 bg-white p-4">
            <p className="font-medium text-slate-900">{t("tags.loadError")}</p>
            <p className="mt-1 text-sm text-slate-800">{errorMessage(list.error, t)}</p>
            <Button className="mt-3" onClick={() => void list.refetch()}>{t("error.retry")}</Button>
          </div>
        ) : list.isPending ? (
          <p className="py-8 text-center text-sm text-slate-700" role="status">{showLoading ? t("tags.loading") : ""}</p>
        ) : rows.length === 0 ? (
          <div className="rounded-lg border border-dashed border-slate-400 bg-white p-8 text-center" data-testid={pageRows.length > 0 || state.page > 1 ? "tags-no-results" : "tags-empty"}>
            {pageRows.length > 0 ? (
              <>
                <h3 className="text-base font-semibold text-slate-900">{t("tags.filter.noneOnPage")}</h3>
                <Button className="mt-3" onClick={() => setState((s) => ({ ...s, dimension: "" }))}>{t("tags.filter.clear")}</Button>
              </>
            ) : state.page > 1 ? (
              <>
                <h3 className="text-base font-semibold text-slate-900">{t("tags.pastEndTitle")}</h3>
                <Button className="mt-3" onClick={() => update({})}>{t("list.first")}</Button>
              </>
            ) : (
              <>
                <h3 className="text-base font-semibold text-slate-900">{t("tags.emptyTitle")}</h3>
                <p className="mt-1 text-sm text-slate-800">{t("tags.emptyBody")}</p>
              </>
            )}
          </div>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-slate-300 bg-white" aria-busy={list.isFetching}>
            <table className="min-w-full text-left text-sm" data-testid="tags-table">
              <caption className="sr-only">{t("tags.caption", { page: state.page })}</caption>
              <thead className="border-b border-slate-300 bg-slate-100">
                <tr>
                  {TAG_SORTS.map((column) => (
                    <SortableHeader key={column} label={t(SORT_LABELS[column])} sorted={state.sort === column} order={state.order} onSort={() => onSort(column)} />
                  ))}
                  <th scope="col" className="px-3 py-2 font-semibold text-slate-900"><span className="sr-only">{t("tags.actions")}</span></th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {rows.map((row) => {
                  const name = row.name || row.id;
                  return (
                    <tr key={row.id} className={mergeFrom?.id === row.id ? "bg-blue-50" : "hover:bg-slate-50"}>
                      <td className="px-3 py-2 font-mono text-xs text-slate-900 tabular-nums">{row.id}</td>
                      <td className="max-w-56 px-3 py-2 font-medium break-words text-slate-900">{row.name || t("tags.unnamed")}</td>
                      <td className="max-w-56 px-3 py-2 text-slate-900"><DimensionCell dimensionKey={row.dimension} dimensions={dimensions} /></td>
                      <td className="px-3 py-2 whitespace-nowrap text-slate-900"><TimeText value={row.dateCreated} /></td>
                      <td className="px-3 py-2 whitespace-nowrap text-slate-900"><TimeText value={row.lastUpdated} /></td>
                      <td className="px-3 py-2">
                        {mergeFrom ? (
                          mergeFrom.id === row.id ? (
                            <span className="text-xs text-slate-800">{t("tags.merge.thisOne")}</span>
                          ) : (
                            <Button variant="primary" onClick={() => setMergeTo(row)} aria-label={t("tags.merge.intoNamed", { from: mergeFrom.name || mergeFrom.id, to: name })}>{t("tags.merge.into")}</Button>
                          )
                        ) : (
                          <div className="flex flex-wrap justify-end gap-1">
                            <Button variant="ghost" onClick={() => setTagging(row)} aria-label={t("tags.customersNamed", { name })}>{t("tags.customersAction")}</Button>
                            <Button variant="ghost" onClick={() => setEditing(row)} aria-label={t("tags.editNamed", { name })}>{t("tags.edit")}</Button>
                            <Button variant="ghost" onClick={() => setMergeFrom(row)} aria-label={t("tags.mergeNamed", { name })}>{t("tags.mergeAction")}</Button>
                            <Button variant="ghost" onClick={() => setDeleting(row)} aria-label={t("tags.deleteNamed", { name })}>{t("tags.delete")}</Button>
                          </div>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {!list.isPending && (pageRows.length > 0 || state.page > 1) && (
          <div className="flex justify-end">
            <Pagination page={state.page} pages={pages} hasNext={pages !== undefined && state.page < pages} onPage={(page) => setState((s) => ({ ...s, page }))} />
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
