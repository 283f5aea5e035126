"use client";
import { ApiError } from "@/lib/http/api-error";
import { platformQuery } from "@/lib/api/platform-queries";
import { orderStateView, stateMessageKeys } from "@/lib/orders/order-states";
import { useI18n } from "@/components/i18n/i18n-provider";

/** §4.2 detail-by-order-number: the read that carries `state` (the list does not, §2.4). */
export function orderDetailQuery(orderNo: string) {
  return platformQuery("deals.getByOrderNo", { query: { orderNo } });
}

export const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/** A §3 state as a translated label with its one-line meaning; an unknown state is shown raw. */
export function OrderState({ state, withMeaning = false }: { state: unknown; withMeaning?: boolean }) {
  const { t } = useI18n();
  const view = orderStateView(state);
  if (view.kind === "none") return <span className="text-slate-700">{t("orders.state.none")}</span>;
  const label = view.kind === "unknown" ? view.raw : t(stateMessageKeys(view.kind).label);
  const meaning = view.kind === "unknown" ? t("orders.state.unknown.meaning") : t(stateMessageKeys(view.kind).meaning);
  const tone =
    view.kind === "paid" ? "border-green-700 text-green-900" : view.kind === "cancelled" ? "border-slate-500 text-slate-800" : view.kind === "unknown" ? "border-amber-700 text-amber-900" : "border-blue-700 text-blue-900";
  return (
    <span className="inline-flex flex-col">
      <span className={`inline-block w-fit rounded-full border bg-white px-2 py-0.5 text-xs font-medium whitespace-nowrap ${tone}`} title={withMeaning ? view.raw : meaning} data-testid="order-state" data-state={view.raw}>
        {label}
      </span>
      {withMeaning && <span className="mt-1 text-xs text-slate-700">{meaning}</span>}
    </span>
  );
}
