"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { formatMoney } from "@/lib/console/money";
import { ID_PATTERN, ORDER_PAGE_SIZES, orderListInput, orderPath, pageCount, parseOrderListState, serializeOrderListState, type OrderListState } from "@/lib/console/order-list-state";
import { useDelayedFlag } from "@/lib/hooks/use-delayed-flag";
import { useUrlState } from "@/lib/hooks/use-url-state";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Pagination } from "@/components/customers/pagination";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, buttonClass, focusRing } from "@/components/ui/button";
import { SortableHeader } from "@/components/ui/sortable-header";
import { errorMessage } from "@/components/ui/error-message";
import { TextField } from "@/components/ui/field";
import { ListControls } from "@/components/ui/list-controls";
import { TimeText } from "@/components/ui/time-text";
import { ListedOrderState } from "./order-state";

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
  const [state, setState] = useUrlState(parseOrderListState, serializeOrderListState);
  const [draft, setDraft] = useState(state.customerId);
  const [draftError, setDraftError] = useState<string | undefined>();
  // The filter box follows the URL when it changes elsewhere (Show all orders, a link).
  const [shownFor, setShownFor] = useState(state.customerId);
  if (shownFor !== state.customerId) {
    setShownFor(state.customerId);
    setDraft(state.customerId);
  }

  const list = useQuery({ ...ordersQuery(state), placeholderData: keepPreviousData });
  const showLoading = useDelayedFlag(list.isPending);
  const showUpdating = useDelayedFlag(list.isFetching && !list.isPending);
  const update = (patch: Partial<OrderListState>) => setState((s) => ({ ...s, page: 1, ...patch }));

  const rows = list.data?.rows ?? [];
  const records = list.data && !list.isPlaceholderData ? (list.data.records ?? undefined) : undefined;
  const pages = list.data && !list.isPlaceholderData ? pageCount(list.data.records, state.rows) : undefined;
  const dateLabel = t("orders.col.dateOrder");

  const onFilter = (event: FormEvent) => {
    event.preventDefault();
    const id = draft.trim();
    if (id !== "" && !ID_PATTERN.test(id)) {
      setDraftError(t("orders.error.customerId"));
      return;
    }
    setDraftError(undefined);
    update({ customerId: id });
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-xl font-semibold text-slate-900">{state.customerId ? t("orders.titleForCustomer", { id: state.customerId }) : t("orders.title")}</h1>
        <p className="text-sm text-slate-800" aria-live="polite">
          {records !== undefined ? t("orders.total", { count: records.toLocaleString(locale) }) : null}
        </p>
      </div>
      <p className="text-sm text-slate-800">{t("orders.intro")}</p>

      <div className="flex flex-wrap items-end justify-between gap-3">
        <form onSubmit={onFilter} noValidate className="flex flex-wrap items-end gap-3">
          <TextField label={t("orders.filter.customerId")} help={t("orders.filter.customerIdHelp")} error={draftError} inputMode="numeric" value={draft} onChange={(e) => setDraft(e.target.value)} className="w-64" />
          <Button type="submit" className="mb-5">{t("orders.filter.apply")}</Button>
          {state.customerId && (
            <Button className="mb-5" onClick={() => update({ customerId: "" })}>{t("orders.showAll")}</Button>
          )}
        </form>
        <div className="flex items-end gap-3">
          <ListControls rows={state.rows} pageSizes={ORDER_PAGE_SIZES} onChange={(c) => update({ ...(c.rows ? { rows: c.rows } : {}) })} />
          <span className="text-sm text-slate-700" role="status">{showUpdating ? t("list.updating") : ""}</span>
          <Link href={href("/orders/new", state.customerId ? { customerId: state.customerId } : undefined)} className={buttonClass("primary")}>{t("orders.new")}</Link>
        </div>
      </div>

      {list.isError && !list.data ? (
        <div role="alert" className="rounded-lg border border-red-300 bg-white p-4">
          <p className="font-medium text-slate-900">{t("orders.loadError")}</p>
          <p className="mt-1 text-sm text-slate-800">{errorMessage(list.error, t)}</p>
          <Button className="mt-3" onClick={() => void list.refetch()}>{t("error.retry")}</Button>
        </div>
      ) : list.isPending ? (
        <p className="py-8 text-center text-sm text-slate-700" role="status">{showLoading ? t("orders.loading") : ""}</p>
      ) : rows.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-400 bg-white p-8 text-center" data-testid={state.page > 1 || state.customerId ? "orders-no-results" : "orders-empty"}>
          {state.page > 1 ? (
            <>
              <h2 className="text-base font-semibold text-slate-900">{t("orders.pastEndTitle")}</h2>
              <Button className="mt-3" onClick={() => update({})}>{t("list.first")}</Button>
            </>
          ) : state.customerId ? (
            <>
              <h2 className="text-base font-semibold text-slate-900">{t("orders.noResultsTitle")}</h2>
              <Button className="mt-3" onClick={() => update({ customerId: "" })}>{t("orders.showAll")}</Button>
            </>
          ) : (
            <>
              <h2 className="text-base font-semibold text-slate-900">{t("orders.emptyTitle")}</h2>
              <p className="mt-1 text-sm text-slate-800">{t("orders.emptyBody")}</p>
            </>
          )}
        </div>
      ) : (
        <>
          <div className="overflow-x-auto rounded-lg border border-slate-300 bg-white" aria-busy={list.isFetching}>
            <table className="min-w-full text-left text-sm" data-testid="orders-table">
              <caption className="sr-only">{t("orders.caption", { page: state.page })}</caption>
              <thead className="border-b border-slate-300 bg-slate-100">
                <tr>
                  <th scope="col" className="px-3 py-2 font-semibold text-slate-900">{t("orders.col.orderNo")}</th>
                  <SortableHeader label={dateLabel} sorted order={state.order} onSort={() => update({ order: state.order === "asc" ? "desc" : "asc" })} />
                  {!state.customerId && <th scope="col" className="px-3 py-2 font-semibold text-slate-900">{t("orders.col.customer")}</th>}
                  <th scope="col" className="px-3 py-2 text-right font-semibold text-slate-900">{t("orders.col.amountPaid")}</th>
                  <th scope="col" className="px-3 py-2 text-right font-semibold text-slate-900">{t("orders.col.amountTotal")}</th>
                  <th scope="col" className="px-3 py-2 text-right font-semibold text-slate-900">{t("orders.col.lines")}</th>
                  <th scope="col" className="px-3 py-2 font-semibold text-slate-900">{t("orders.col.state")}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {rows.map((row, i) => {
                  const orderNo = String(row.orderNo ?? "");
                  const currency = typeof row.currency === "string" ? row.currency : undefined;
                  return (
                    <tr key={`${orderNo}:${i}`} className="hover:bg-slate-50">
                      <td className="max-w-72 px-3 py-2 break-all text-slate-900">
                        <Link href={href(orderPath(orderNo))} className={`rounded font-medium text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>{orderNo}</Link>
                      </td>
                      <td className="px-3 py-2 whitespace-nowrap text-slate-900"><TimeText value={row.dateOrder} /></td>
                      {!state.customerId && (
                        <td className="px-3 py-2 font-mono text-xs text-slate-900">
                          {row.customerId ? (
                            <Link href={href(`/customers/${row.customerId}`)} className={`rounded text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>{row.customerId}</Link>
                          ) : null}
                        </td>
                      )}
                      <td className="px-3 py-2 text-right whitespace-nowrap text-slate-900 tabular-nums">{formatMoney(row.amountPaid, locale, currency)}</td>
                      <td className="px-3 py-2 text-right whitespace-nowrap text-slate-900 tabular-nums">{formatMoney(row.amountTotal, locale, currency)}</td>
                      <td className="px-3 py-2 text-right text-slate-900 tabular-nums">{Array.isArray(row.lines) ? row.lines.length : ""}</td>
                      <td className="px-3 py-2"><ListedOrderState orderNo={orderNo} state={row.state} /></td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <div className="flex justify-end">
            <Pagination page={state.page} pages={pages} hasNext={pages !== undefined ? state.page < pages : rows.length === state.rows} onPage={(page) => setState((s) => ({ ...s, page }))} />
          </div>
        </>
      )}
    </div>
  );
}
