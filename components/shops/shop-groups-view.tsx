"use client";
import { formatNumber } from "@/lib/i18n/icu";
import { useQuery } from "@tanstack/react-query";
import { AppLink } from "@/components/ui/app-link";
import type { MessageKey } from "@/lib/i18n/messages";
import { groupListState, type GroupSort } from "@/lib/shops/shop-list-query";
import { shopKeys, shopsApi } from "@/lib/shops/shop-queries";
import { useListController } from "@/lib/ui/list-controller";
import { sortRows } from "@/lib/ui/sort-rows";
import type { RememberedGroup } from "@/lib/shops/shops-api";
import { FormPageHeader } from "@/components/forms/form-page";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { buttonClass, focusRing } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { QueryView } from "@/components/ui/query-view";
import { TimeText } from "@/components/ui/time-text";
import { OpenGroupById } from "./shops-view";

/** The groups the app created or opened (the platform lists none, §4.8), and "open a group by id". */
export function ShopGroupsView() {
  const { t, locale } = useI18n();
  const href = useConsoleHref();
  const groups = useQuery({ queryKey: shopKeys.groups, queryFn: ({ signal }) => shopsApi.groups(signal) });
  const { state, tableSort } = useListController(groupListState);
  const rows = sortRows(groups.data?.groups ?? [], state.sort, state.order, {
    created: (g: RememberedGroup) => g.createdAt,
    id: (g) => g.id,
    name: (g) => g.name,
    count: (g) => g.shopCount,
  });
  const columns: Column<RememberedGroup, GroupSort>[] = [
    {
      key: "id",
      header: t("groups.col.id"),
      sortKey: "id",
      className: "font-mono text-xs tabular-nums",
      cell: (row) => (
        <AppLink href={href(`/shops/groups/${row.id}`)} className={`rounded text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>
          {row.id}
        </AppLink>
      ),
    },
    { key: "name", header: t("groups.col.name"), sortKey: "name", className: "max-w-72 truncate", cell: (row) => row.name ?? "—" },
    { key: "origin", header: t("groups.col.origin"), cell: (row) => t(`groups.origin.${row.origin}` as MessageKey) },
    { key: "count", header: t("groups.col.count"), sortKey: "count", align: "right", className: "tabular-nums", cell: (row) => (row.shopCount === null ? "—" : formatNumber(row.shopCount, locale)) },
    { key: "created", header: t("groups.col.created"), sortKey: "created", className: "whitespace-nowrap", cell: (row) => <TimeText value={row.createdAt} /> },
  ];
  return (
    <div className="flex flex-col gap-4">
      <FormPageHeader back={href("/shops")} backLabel={t("groups.back")} title={t("groups.title")} intro={t("groups.intro")} />
      <div>
        <AppLink href={href("/shops/groups/new")} className={buttonClass("primary")}>
          {t("groups.new")}
        </AppLink>
      </div>
      <QueryView query={groups} hasRows={rows.length > 0} testId="groups" loading={t("groups.loading")} empty={{ title: t("groups.emptyTitle"), body: t("groups.emptyBody") }}>
        <DataTable rows={rows} rowKey={(row) => row.id} columns={columns} caption={t("groups.caption")} testId="groups-table" busy={groups.isFetching} sort={tableSort} />
      </QueryView>
      <div className="md:w-1/2">
        <OpenGroupById />
      </div>
    </div>
  );
}
