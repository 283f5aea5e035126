"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { AppLink } from "@/components/ui/app-link";
import { platformQuery } from "@/lib/api/platform-queries";
import { formatMoney } from "@/lib/orders/money";
import { isPlatformId } from "@/lib/platform/ids";
import { orderListInput, orderListUrlState, type OrderListState } from "@/lib/orders/order-list-state";
import { useListController } from "@/lib/ui/list-controller";
import { hasNextPage, pageCount } from "@/lib/ui/list-state";
import { orderPath } from "@/lib/orders/order-path";
import { PAGE_SIZES } from "@/lib/ui/url-params";
import type { Order } from "@/lib/platform/resources";
import { PersonName, personText, usePeople, usePerson } from "@/components/people/person-name";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, buttonClass, focusRing } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { LazyCustomerPicker as CustomerPicker } from "@/components/search/lazy-customer-picker";
import { ListControls } from "@/components/ui/list-controls";
import { Pagination } from "@/components/ui/pagination";
import { QueryView, UpdatingStatus } from "@/components/ui/query-view";
import { TimeText } from "@/components/ui/time-text";
import { LiveTotal, PageHeader } from "@/components/ui/page-header";
import { listedOrderState } from "@/lib/orders/order-states";
import { orderStory, recordedBadge } from "@/lib/orders/order-story";
import { OrderState } from "./order-state";
import { orderRefundsQuery } from "./order-refunds";
import { LazySavedViews as SavedViews } from "@/components/views/lazy-saved-views";

/** The query of an orders state; the server prefetches exactly this (same key). */
export function ordersQuery(state: OrderListState) {
  return platformQuery("deals.list", orderListInput(state));
}

/**
 * Orders of the last month (§4.2 GET /v1/deals, §8), all or one customer's; paging and the sort on
 * `dateOrder` live in the URL (replace). Amounts are shown from their decimal text, states per row.
 */
export function OrdersView() {
  const { t, locale } = useI18n();
  const href = useConsoleHref();
  const controller = useListController(orderListUrlState);
  const { state, update } = controller;
  const list = useQuery({ ...ordersQuery(state), placeholderData: keepPreviousData });

  const rows = list.data?.rows ?? [];
  // The page's states come from its rows (one platform call per page); refunds this console
  // recorded come from the app's store in one request for the whole page.
  const names = usePeople(rows.flatMap((r) => (r.customerId ? [String(r.customerId)] : [])));
  const titlePerson = usePerson(state.customerId || undefined);
  const refunds = useQuery({ ...orderRefundsQuery(rows.map((r) => String(r.orderNo ?? ""))), placeholderData: keepPreviousData });
  const records = list.data && !list.isPlaceholderData ? (list.data.records ?? undefined) : undefined;
  const pages = list.data && !list.isPlaceholderData ? pageCount(list.data.records, state.rows) : undefined;
  const money = (value: unknown, row: Order) => formatMoney(value, locale, typeof row.currency === "string" ? row.currency : undefined);
  // Tight padding and wrapping headers: the seven columns fit the admin's 1024-px pane in both languages.
  const tight = { headClassName: "px-2! whitespace-normal!" };
  const columns: Column<Order>[] = [
    {
      key: "orderNo",
      header: t("orders.col.orderNo"),
      ...tight,
      className: "px-2! max-w-32 break-all",
      cell: (row) => (
        <AppLink href={href(orderPath(String(row.orderNo ?? "")))} className={`rounded font-medium text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>{String(row.orderNo ?? "")}</AppLink>
      ),
    },
    { key: "dateOrder", header: t("orders.col.dateOrder"), sortKey: "dateOrder", ...tight, className: "px-2! text-xs", cell: (row) => <TimeText stacked value={row.dateOrder} /> },
    ...(state.customerId
      ? []
      : [
          {
            key: "customer",
            header: t("orders.col.customer"),
            ...tight,
            className: "px-2! max-w-44 break-words",
            cell: (row: Order) =>
              row.customerId ? <PersonName id={String(row.customerId)} hit={names.get(String(row.customerId))} href={href(`/customers/${row.customerId}`)} /> : null,
          },
        ]),
    { key: "amountPaid", header: t("orders.col.amountPaid"), align: "right" as const, ...tight, className: "px-2! whitespace-nowrap tabular-nums", cell: (row) => money(row.amountPaid, row) },
    { key: "amountTotal", header: t("orders.col.amountTotal"), align: "right" as const, ...tight, className: "px-2! whitespace-nowrap tabular-nums", cell: (row) => money(row.amountTotal, row) },
    { key: "lines", header: t("orders.col.lines"), align: "right" as const, ...tight, className: "px-2! tabular-nums", cell: (row) => (Array.isArray(row.lines) ? row.lines.length : "") },
    { key: "state", header: t("orders.col.state"), ...tight, className: "px-2!", cell: (row) => {
        // The same story as the order's page (lib/orders/order-story.ts): the platform's state, then a refund recorded here.
        const state = listedOrderState(row as { state?: unknown; cancelDate?: unknown });
        const story = orderStory(state, refunds.data?.refunds[String(row.orderNo ?? "")]);
        return (
          <span className="flex flex-wrap items-center gap-1">
            <OrderState state={state} />
            {story.recorded && (
              <span className="inline-block w-fit rounded-full border border-amber-700 bg-white px-2 py-0.5 text-xs font-medium whitespace-nowrap text-amber-900" data-testid="order-refunded">
                {recordedBadge(story, t)}
              </span>
            )}
          </span>
        );
      },
    },
  ];

  // A customer picked (or an id pasted) filters at once; typing a search leaves the filter as it is.
  const onCustomer = (id: string) => {
    if (id !== "" && isPlatformId(id) && id !== state.customerId) update({ customerId: id });
  };

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={state.customerId ? t("orders.titleForCustomer", { name: personText(state.customerId, titlePerson) }) : t("orders.title")}
        aside={<LiveTotal>{records !== undefined ? t("orders.total", { count: records }) : null}</LiveTotal>}
        intro={t("orders.intro")}
      />
      <SavedViews list="orders" definition={orderListUrlState} state={state} onApply={(next) => controller.set(next)} />

      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-wrap items-end gap-3" data-testid="orders-filter">
          <div className="w-80">
            <CustomerPicker label={t("orders.filter.customer")} help={t("orders.filter.customerHelp")} value={state.customerId} onChange={onCustomer} testId="orders-customer" />
          </div>
          {state.customerId && (
            <Button className="mb-5" onClick={() => update({ customerId: "" })}>{t("orders.showAll")}</Button>
          )}
        </div>
        <div className="flex items-end gap-3">
          <ListControls {...controller.controls} pageSizes={PAGE_SIZES} />
          <UpdatingStatus query={list} />
          <AppLink href={href("/orders/new", state.customerId ? { customerId: state.customerId } : undefined)} className={buttonClass("primary")}>{t("orders.new")}</AppLink>
        </div>
      </div>

      <QueryView query={list} hasRows={rows.length > 0} testId="orders" loading={t("orders.loading")} errorTitle={t("orders.loadError")}
        empty={{ title: t("orders.emptyTitle"), body: t("orders.emptyBody") }}
        noResults={
          state.page > 1
            ? { title: t("orders.pastEndTitle"), onFirstPage: () => update({}) }
            : state.customerId ? { title: t("orders.noResultsTitle"), actions: <Button onClick={() => update({ customerId: "" })}>{t("orders.showAll")}</Button> } : undefined
        }
      >
        <DataTable
          rows={rows}
          rowKey={(row, i) => `${String(row.orderNo ?? "")}:${i}`}
          columns={columns}
          caption={t("orders.caption", { page: state.page })}
          testId="orders-table"
          busy={list.isFetching}
          sort={{ value: "dateOrder", order: state.order, onChange: ({ order }) => update({ order }) }}
        />
        <div className="flex justify-end">
          <Pagination {...controller.pager({ pages, hasNext: hasNextPage(state.page, pages, rows.length, state.rows) })} />
        </div>
      </QueryView>
    </div>
  );
}
