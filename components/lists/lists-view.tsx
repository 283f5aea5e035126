"use client";
import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { AppLink } from "@/components/ui/app-link";
import { useState } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { listsInput, listsUrlState, type ListSort, type ListsState } from "@/lib/lists/lists-state";
import { countInput } from "@/lib/lists/list-members-state";
import { formatNumber } from "@/lib/i18n/icu";
import { useListController } from "@/lib/ui/list-controller";
import { PAGE_SIZES } from "@/lib/ui/url-params";
import type { List } from "@/lib/platform/resources";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { ListControls } from "@/components/ui/list-controls";
import { Pagination } from "@/components/ui/pagination";
import { QueryView, UpdatingStatus } from "@/components/ui/query-view";
import { TimeText } from "@/components/ui/time-text";
import { LiveTotal, PageHeader } from "@/components/ui/page-header";
import { CreateListDialog } from "./create-list-dialog";
import { DeleteListDialog } from "./delete-list-dialog";

/** The query of a lists state; the server prefetches exactly this (same key). */
export function listsQuery(state: ListsState) {
  return platformQuery("lists.list", listsInput(state));
}

/** All lists (§4.4 GET /v1/lists) with paging and sort in the URL; create and delete. */
export function ListsView() {
  const { t, locale } = useI18n();
  const href = useConsoleHref();
  const controller = useListController(listsUrlState);
  const { state } = controller;
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<List | undefined>(undefined);

  const list = useQuery({ ...listsQuery(state), placeholderData: keepPreviousData });

  const rows = list.data?.rows ?? [];
  // Members per list: §4.4 gives a count per list (memberCount), one call for each row of the page.
  const memberCounts = useQueries({ queries: rows.map((row) => ({ ...platformQuery("listMembers.count", countInput(String(row.id), { joinedFrom: "", joinedTo: "" })), staleTime: 30_000 })) });
  const records = list.data && !list.isPlaceholderData ? (list.data.records ?? undefined) : undefined;
  // §4.4: `total` is the number of pages.
  const pages = list.data && !list.isPlaceholderData ? Math.max(1, list.data.total ?? 1) : undefined;
  const columns: Column<List, ListSort>[] = [
    { key: "id", header: t("lists.col.id"), sortKey: "id", className: "font-mono text-xs tabular-nums", cell: (row) => row.id },
    {
      key: "name",
      header: t("lists.col.name"),
      sortKey: "name",
      className: "max-w-80 truncate",
      cell: (row) => (
        <AppLink href={href(`/lists/${row.id}`, row.name ? { name: row.name } : undefined)} className={`rounded font-medium text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>
          {row.name || t("lists.unnamed")}
        </AppLink>
      ),
    },
    {
      key: "members",
      header: t("lists.col.members"),
      align: "right",
      className: "whitespace-nowrap tabular-nums",
      cell: (row, index) => {
        const count = memberCounts[index];
        return <span data-testid="list-member-count">{count?.data !== undefined ? formatNumber(count.data, locale) : count?.isError ? "—" : "…"}</span>;
      },
    },
    { key: "dateCreated", header: t("lists.col.dateCreated"), sortKey: "dateCreated", className: "whitespace-nowrap", cell: (row) => <TimeText value={row.dateCreated} /> },
    { key: "lastUpdated", header: t("lists.col.lastUpdated"), sortKey: "lastUpdated", className: "whitespace-nowrap", cell: (row) => <TimeText value={row.lastUpdated} /> },
    {
      key: "actions",
      header: t("lists.actions"),
      hideHeader: true,
      align: "right",
      cell: (row) => (
        <Button variant="ghost" onClick={() => setDeleting(row)} aria-label={t("lists.deleteNamed", { name: row.name || row.id })}>
          {t("lists.delete")}
        </Button>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t("lists.title")} aside={<LiveTotal>{records !== undefined ? t("lists.total", { count: records }) : null}</LiveTotal>} intro={t("lists.intro")} />

      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex items-end gap-3">
          <ListControls {...controller.controls} pageSizes={PAGE_SIZES} />
          <UpdatingStatus query={list} />
        </div>
        <Button variant="primary" onClick={() => setCreating(true)}>{t("lists.new")}</Button>
      </div>

      <QueryView query={list} hasRows={rows.length > 0} testId="lists" loading={t("lists.loading")} errorTitle={t("lists.loadError")}
        empty={{ title: t("lists.emptyTitle"), body: t("lists.emptyBody") }}
        noResults={state.page > 1 ? { title: t("lists.pastEndTitle"), onFirstPage: () => controller.update({}) } : undefined}
      >
        <DataTable rows={rows} rowKey={(row) => String(row.id)} columns={columns} caption={t("lists.caption", { page: state.page })} testId="lists-table" busy={list.isFetching} sort={controller.tableSort} />
        <div className="flex justify-end">
          <Pagination {...controller.pager({ pages, hasNext: pages !== undefined && state.page < pages })} />
        </div>
      </QueryView>
      <CreateListDialog open={creating} onClose={() => setCreating(false)} />
      <DeleteListDialog list={deleting} onClose={() => setDeleting(undefined)} />
    </div>
  );
}
