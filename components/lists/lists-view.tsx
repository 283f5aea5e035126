"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { LIST_PAGE_SIZES, LIST_SORTS, listsInput, type ListSort, type ListsState } from "@/lib/console/lists-state";
import { useListsState } from "@/lib/console/use-lists-state";
import { useDelayedFlag } from "@/lib/hooks/use-delayed-flag";
import type { List } from "@/lib/platform/resources";
import type { MessageKey } from "@/lib/i18n/messages";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Pagination } from "@/components/customers/pagination";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { SortableHeader } from "@/components/ui/sortable-header";
import { errorMessage } from "@/components/ui/error-message";
import { ListControls } from "@/components/ui/list-controls";
import { TimeText } from "@/components/ui/time-text";
import { CreateListDialog } from "./create-list-dialog";
import { DeleteListDialog } from "./delete-list-dialog";

/** The query of a lists state; the server prefetches exactly this (same key). */
export function listsQuery(state: ListsState) {
  return platformQuery("lists.list", listsInput(state));
}

const SORT_LABELS: Record<ListSort, MessageKey> = { id: "lists.col.id", name: "lists.col.name", dateCreated: "lists.col.dateCreated", lastUpdated: "lists.col.lastUpdated" };

/** All lists (§4.4 GET /v1/lists) with paging and sort in the URL; create and delete. */
export function ListsView() {
  const { t, locale } = useI18n();
  const href = useConsoleHref();
  const [state, setState] = useListsState();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<List | undefined>(undefined);

  const list = useQuery({ ...listsQuery(state), placeholderData: keepPreviousData });
  const showLoading = useDelayedFlag(list.isPending);
  const showUpdating = useDelayedFlag(list.isFetching && !list.isPending);

  const update = (patch: Partial<ListsState>) => setState((s) => ({ ...s, page: 1, ...patch }));
  const onSort = (column: ListSort) => update({ sort: column, order: state.sort === column && state.order === "asc" ? "desc" : "asc" });

  const rows = list.data?.rows ?? [];
  const records = list.data && !list.isPlaceholderData ? (list.data.records ?? undefined) : undefined;
  // §4.4: `total` is the number of pages.
  const pages = list.data && !list.isPlaceholderData ? Math.max(1, list.data.total ?? 1) : undefined;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-xl font-semibold text-slate-900">{t("lists.title")}</h1>
        <p className="text-sm text-slate-800" aria-live="polite">
          {records !== undefined ? t("lists.total", { count: records.toLocaleString(locale) }) : null}
        </p>
      </div>
      <p className="text-sm text-slate-800">{t("lists.intro")}</p>

      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex items-end gap-3">
          <ListControls rows={state.rows} pageSizes={LIST_PAGE_SIZES} onChange={update} />
          <span className="text-sm text-slate-700" role="status">{showUpdating ? t("list.updating") : ""}</span>
        </div>
        <Button variant="primary" onClick={() => setCreating(true)}>{t("lists.new")}</Button>
      </div>

      {list.isError && !list.data ? (
        <div role="alert" className="rounded-lg border border-red-300 bg-white p-4">
          <p className="font-medium text-slate-900">{t("lists.loadError")}</p>
          <p className="mt-1 text-sm text-slate-800">{errorMessage(list.error, t)}</p>
          <Button className="mt-3" onClick={() => void list.refetch()}>{t("error.retry")}</Button>
        </div>
      ) : list.isPending ? (
        <p className="py-8 text-center text-sm text-slate-700" role="status">{showLoading ? t("lists.loading") : ""}</p>
      ) : rows.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-400 bg-white p-8 text-center" data-testid={state.page > 1 ? "lists-no-results" : "lists-empty"}>
          {state.page > 1 ? (
            <>
              <h2 className="text-base font-semibold text-slate-900">{t("lists.pastEndTitle")}</h2>
              <Button className="mt-3" onClick={() => update({})}>{t("list.first")}</Button>
            </>
          ) : (
            <>
              <h2 className="text-base font-semibold text-slate-900">{t("lists.emptyTitle")}</h2>
              <p className="mt-1 text-sm text-slate-800">{t("lists.emptyBody")}</p>
            </>
          )}
        </div>
      ) : (
        <>
          <div className="overflow-x-auto rounded-lg border border-slate-300 bg-white" aria-busy={list.isFetching}>
            <table className="min-w-full text-left text-sm" data-testid="lists-table">
              <caption className="sr-only">{t("lists.caption", { page: state.page })}</caption>
              <thead className="border-b border-slate-300 bg-slate-100">
                <tr>
                  {LIST_SORTS.map((column) => (
                    <SortableHeader key={column} label={t(SORT_LABELS[column])} sorted={state.sort === column} order={state.order} onSort={() => onSort(column)} />
                  ))}
                  <th scope="col" className="px-3 py-2 font-semibold text-slate-900">
                    <span className="sr-only">{t("lists.actions")}</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {rows.map((row) => (
                  <tr key={row.id} className="hover:bg-slate-50">
                    <td className="px-3 py-2 font-mono text-xs text-slate-900 tabular-nums">{row.id}</td>
                    <td className="max-w-80 truncate px-3 py-2 text-slate-900">
                      <Link href={href(`/lists/${row.id}`, row.name ? { name: row.name } : undefined)} className={`rounded font-medium text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>
                        {row.name || t("lists.unnamed")}
                      </Link>
                    </td>
                    <td className="px-3 py-2 whitespace-nowrap text-slate-900"><TimeText value={row.dateCreated} /></td>
                    <td className="px-3 py-2 whitespace-nowrap text-slate-900"><TimeText value={row.lastUpdated} /></td>
                    <td className="px-3 py-2 text-right">
                      <Button variant="ghost" onClick={() => setDeleting(row)} aria-label={t("lists.deleteNamed", { name: row.name || row.id })}>
                        {t("lists.delete")}
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="flex justify-end">
            <Pagination page={state.page} pages={pages} hasNext={pages !== undefined && state.page < pages} onPage={(page) => setState((s) => ({ ...s, page }))} />
          </div>
        </>
      )}
      <CreateListDialog open={creating} onClose={() => setCreating(false)} />
      <DeleteListDialog list={deleting} onClose={() => setDeleting(undefined)} />
    </div>
  );
}
