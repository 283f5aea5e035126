"use client";
import { useQuery } from "@tanstack/react-query";
import { AppLink } from "@/components/ui/app-link";
import { shopKeys, shopsApi } from "@/lib/shops/shop-queries";
import { shopLabel, type RegisteredShop } from "@/lib/shops/shops-api";
import { FormPageHeader } from "@/components/forms/form-page";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { focusRing } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { errorMessage } from "@/components/ui/error-message";
import { ShopStatus } from "./shop-status";

/** A group's shops read from the platform (§4.8 GET /v1/storesGroups/{groupId}); the read refreshes the register. */
export function GroupDetail({ id }: { id: string }) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const group = useQuery({ queryKey: shopKeys.group(id), queryFn: ({ signal }) => shopsApi.readGroup(id, signal), staleTime: 0 });
  const columns: Column<RegisteredShop>[] = [
    {
      key: "id",
      header: t("shops.col.id"),
      className: "font-mono text-xs tabular-nums",
      cell: (row) => (
        <AppLink href={href(`/shops/${row.id}/edit`)} className={`rounded text-blue-800 underline-offset-2 hover:underline ${focusRing}`} aria-label={t("shops.editNamed", { name: shopLabel(row) ?? row.id })}>
          {row.id}
        </AppLink>
      ),
    },
    { key: "sid", header: t("shops.col.sid"), className: "font-mono text-xs", cell: (row) => row.sid ?? "—" },
    { key: "name", header: t("shops.col.name"), className: "max-w-72 truncate", cell: (row) => shopLabel(row) ?? t("shops.unnamed") },
    { key: "status", header: t("shops.col.status"), cell: (row) => <ShopStatus shop={row} /> },
  ];
  const name = group.data?.group.name;
  return (
    <div className="flex flex-col gap-4">
      <FormPageHeader back={href("/shops/groups")} backLabel={t("groups.title")} title={name ? `${name} · ${t("groups.detail.title", { id })}` : t("groups.detail.title", { id })} intro={group.data?.group.remark ?? undefined} />
      {group.isPending && <p role="status" className="text-sm text-slate-700">{t("groups.detail.loading")}</p>}
      {group.isError && (
        <p role="alert" className="text-sm text-red-800" data-testid="group-error">
          {errorMessage(group.error, t)}
        </p>
      )}
      {group.data && (
        <>
          <p className="text-sm text-slate-800" data-testid="group-count">
            {t("groups.detail.count", { count: group.data.shops.length })} · {t("groups.detail.refreshed")}
          </p>
          {group.data.shops.length === 0 ? (
            <p className="text-sm text-slate-700">{t("groups.detail.empty")}</p>
          ) : (
            <DataTable rows={group.data.shops} rowKey={(row) => row.id} columns={columns} caption={t("groups.detail.caption", { id })} testId="group-shops" busy={group.isFetching} />
          )}
        </>
      )}
    </div>
  );
}
