"use client";
import { useQuery } from "@tanstack/react-query";
import { AppLink } from "@/components/ui/app-link";
import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { formatMoney } from "@/lib/orders/money";
import { orderPath } from "@/lib/orders/order-path";
import { canCancel, orderStateView } from "@/lib/orders/order-states";
import { standingRefunds, type RefundRecord } from "@/lib/orders/refund-record";
import { orderStory, recordedBadge, storySentence } from "@/lib/orders/order-story";
import { useDelayedFlag } from "@/lib/hooks/use-delayed-flag";
import type { MessageKey } from "@/lib/i18n/messages";
import type { Order } from "@/lib/platform/resources";
import { PersonName, personText, usePeople } from "@/components/people/person-name";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, buttonClass, focusRing } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { isNotFound } from "./order-state";
import { TimeText } from "@/components/ui/time-text";
import { clientOnly } from "@/components/ui/client-only";
import { useOrderRefunds } from "./order-refunds";
import { orderDetailQuery, OrderState } from "./order-state";

/** §2.4 custom line fields, returned by detail-by-order-number. */
const CUSTOM_LINE_FIELDS = ["lNum1", "lNum2", "lNum3", "lNum4", "lDate1", "lDate2", "lDate3", "lDate4", "lAttr1", "lAttr2", "lAttr3", "lAttr4", "lAttr5", "lAttr6"];
const TEXT_FIELDS = ["currency", "paymentTerm", "paymentNo", "type", "store", "salesChannel", "couponCode", "remark"] as const;

// The dialogs load when one is opened: they are not needed to read an order (first-load budget).
const CancelOrderDialog = clientOnly(() => import("./order-dialogs").then((m) => m.CancelOrderDialog));
const RefundDialog = clientOnly(() => import("./order-dialogs").then((m) => m.RefundDialog));
const DeleteRefundDialog = clientOnly(() => import("./order-dialogs").then((m) => m.DeleteRefundDialog));
const DeleteOrderDialog = clientOnly(() => import("./order-dialogs").then((m) => m.DeleteOrderDialog));

function DetailSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-300 bg-white p-4">
      <h2 id={id} className="text-base font-semibold text-slate-900">{title}</h2>
      <div className="mt-2">{children}</div>
    </section>
  );
}

type Dialog = "cancel" | "refund" | "deleteRefund" | "delete" | undefined;

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-3 border-b border-slate-100 py-1.5 text-sm">
      <dt className="text-slate-700">{label}</dt>
      <dd className="text-right break-all text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * One order by its number (§4.2 getDealByOrderNo: state, customerIdStr, lines with custom fields),
 * the refund this session made (no read of refunds exists), and the order's actions, each behind
 * a confirmation and applied only from the platform's answer.
 */
export function OrderDetail({ orderNo }: { orderNo: string }) {
  const { t, locale } = useI18n();
  const href = useConsoleHref();
  const router = useRouter();
  const order = useQuery(orderDetailQuery(orderNo));
  const showLoading = useDelayedFlag(order.isPending);
  const [dialog, setDialog] = useState<Dialog>();
  const refunds = useOrderRefunds(orderNo);
  const orderCustomer = order.data ? String(order.data.customerIdStr ?? order.data.customerId ?? "") : "";
  const names = usePeople(orderCustomer ? [orderCustomer] : []);

  const back = (
    <AppLink href={href("/orders")} className={`w-fit text-sm text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>
      ← {t("orders.back")}
    </AppLink>
  );
  if (order.isPending) {
    return (
      <div className="flex flex-col gap-4">
        {back}
        <p role="status" className="text-sm text-slate-700">{showLoading ? t("orders.detail.loading") : ""}</p>
      </div>
    );
  }
  if (order.isError) {
    return (
      <div className="flex flex-col gap-4">
        {back}
        <h1 className="text-xl font-semibold break-all text-slate-900">{t("orders.detail.title", { orderNo })}</h1>
        <div role="alert" className="rounded-lg border border-red-300 bg-white p-4 text-sm text-slate-900">
          {isNotFound(order.error) ? t("orders.detail.notFound", { orderNo }) : errorMessage(order.error, t)}
          {!isNotFound(order.error) && <Button className="ml-3" onClick={() => void order.refetch()}>{t("error.retry")}</Button>}
        </div>
      </div>
    );
  }

  const data: Order = order.data;
  const o = data as Record<string, unknown>;
  const currency = data.currency ?? undefined;
  const customerId = data.customerIdStr ?? data.customerId ?? undefined;
  const lines = (data.lines ?? []) as Record<string, unknown>[];
  const money = (value: unknown) => formatMoney(value, locale, currency);
  const records = refunds.data ?? [];
  const lineName = (lineId: string) => {
    const line = lines.find((l) => String(l.lineId) === lineId);
    return line && line.productName ? `${lineId} ${String(line.productName)}` : lineId;
  };
  const standing = standingRefunds(records);
  const platformRefunded = ["refundFull", "refundPartial"].includes(orderStateView(data.state).kind);
  // "Delete refund" only where a refund is known: recorded here, or in the platform's own state.
  const refundKnown = standing.length > 0 || platformRefunded;
  const story = orderStory(data.state, records);

  return (
    <div className="flex flex-col gap-4">
      {back}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h1 className="text-xl font-semibold break-all text-slate-900">{t("orders.detail.title", { orderNo })}</h1>
          {story.recorded ? (
            <div className="flex flex-col gap-1" data-testid="order-state-refunded">
              <div className="flex flex-wrap items-center gap-2">
                <OrderState state={data.state} />
                <span className="inline-block w-fit rounded-full border border-amber-700 bg-white px-2 py-0.5 text-xs font-medium text-amber-900" data-testid="order-refunded">
                  {recordedBadge(story, t)}
                </span>
              </div>
              <span className="text-xs text-slate-700" data-testid="order-state-sentence">{storySentence(story, t, money)}</span>
            </div>
          ) : (
            <OrderState state={data.state} withMeaning />
          )}
        </div>
        <div className="flex flex-wrap gap-2" aria-busy={order.isFetching}>
          <AppLink href={href(orderPath(orderNo, "/edit"))} className={buttonClass("secondary")}>{t("orders.action.edit")}</AppLink>
          {canCancel(data.state) && <Button onClick={() => setDialog("cancel")}>{t("orders.action.cancel")}</Button>}
          <Button onClick={() => setDialog("refund")}>{t("orders.action.refund")}</Button>
          {refundKnown && <Button onClick={() => setDialog("deleteRefund")}>{t("orders.action.deleteRefund")}</Button>}
          <Button variant="danger" onClick={() => setDialog("delete")}>{t("orders.action.delete")}</Button>
        </div>
      </div>

      <div className="grid gap-4 lg:grid-cols-2">
        <DetailSection id="order-summary" title={t("orders.detail.summary")}>
          <dl data-testid="order-summary">
            <Row label={t("orders.field.amountPaid")}>{money(data.amountPaid)}</Row>
            {money(data.amountTotal) && <Row label={t("orders.field.amountTotal")}>{money(data.amountTotal)}</Row>}
            {money(data.amountDiscount) && <Row label={t("orders.field.amountDiscount")}>{money(data.amountDiscount)}</Row>}
            <Row label={t("orders.field.dateOrder")}><TimeText value={data.dateOrder} /></Row>
            {TEXT_FIELDS.map((f) => (o[f] ? <Row key={f} label={t(`orders.field.${f}` as MessageKey)}>{String(o[f])}</Row> : null))}
            {typeof o.cancelDate === "string" && <Row label={t("orders.field.cancelDate")}><TimeText value={o.cancelDate} /></Row>}
            <Row label={t("orders.field.dateCreated")}><TimeText value={data.dateCreated} /></Row>
            <Row label={t("orders.field.lastUpdated")}><TimeText value={data.lastUpdated} /></Row>
          </dl>
        </DetailSection>
        <DetailSection id="order-customer" title={t("orders.detail.customer")}>
          {customerId ? (
            <ul className="flex flex-col gap-2 text-sm">
              <li data-testid="order-customer-name">
                <PersonName id={String(customerId)} hit={names.get(String(customerId))} />
              </li>
              <li>
                <AppLink href={href(`/customers/${customerId}`)} className={`rounded font-medium text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>
                  {t("orders.detail.openCustomer", { name: personText(String(customerId), names.get(String(customerId))) })}
                </AppLink>
              </li>
              <li>
                <AppLink href={href("/orders", { customerId: String(customerId) })} className={`rounded text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>
                  {t("orders.detail.customerOrders")}
                </AppLink>
              </li>
            </ul>
          ) : (
            <p className="text-sm text-slate-700">{t("orders.state.none")}</p>
          )}
        </DetailSection>
      </div>

      <DetailSection id="order-lines" title={t("orders.detail.lines")}>
        {lines.length === 0 ? (
          <p className="text-sm text-slate-700">{t("orders.detail.noLines")}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="min-w-full text-left text-sm" data-testid="order-lines">
              <thead className="border-b border-slate-300">
                <tr>
                  {(["lineId", "productName", "skuId", "qty", "priceUnit", "priceSubTotal", "priceSubPaid"] as const).map((f) => (
                    <th key={f} scope="col" className={`px-2 py-1 font-semibold text-slate-900 ${f.startsWith("price") || f === "qty" ? "text-right" : ""}`}>{t(`orders.line.${f}` as MessageKey)}</th>
                  ))}
                  <th scope="col" className="px-2 py-1 font-semibold text-slate-900">{t("orders.detail.custom")}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {lines.map((line, i) => {
                  const custom = CUSTOM_LINE_FIELDS.filter((f) => line[f] !== null && line[f] !== undefined && line[f] !== "");
                  return (
                    <tr key={`${String(line.lineId)}:${i}`}>
                      <td className="px-2 py-1 font-mono text-xs">{String(line.lineId ?? "")}</td>
                      <td className="px-2 py-1">
                        {String(line.productName ?? "")}
                        {(line.productId || line.brandName || line.category) ? (
                          <span className="block text-xs text-slate-700">{[line.productId, line.brandName, line.category].filter(Boolean).map(String).join(" · ")}</span>
                        ) : null}
                      </td>
                      <td className="px-2 py-1 font-mono text-xs">{String(line.skuId ?? "")}</td>
                      <td className="px-2 py-1 text-right tabular-nums">{String(line.qty ?? "")}</td>
                      <td className="px-2 py-1 text-right tabular-nums whitespace-nowrap">{money(line.priceUnit)}</td>
                      <td className="px-2 py-1 text-right tabular-nums whitespace-nowrap">{money(line.priceSubTotal)}</td>
                      <td className="px-2 py-1 text-right tabular-nums whitespace-nowrap">{money(line.priceSubPaid)}</td>
                      <td className="px-2 py-1 text-xs" data-testid="line-custom">
                        {custom.length === 0 ? (
                          <span className="text-slate-700">{t("orders.detail.customNone")}</span>
                        ) : (
                          <dl>
                            {custom.map((f) => (
                              <div key={f} className="flex gap-1">
                                <dt className="font-mono text-slate-700">{f}</dt>
                                <dd>{f.startsWith("lDate") ? <TimeText value={String(line[f])} /> : String(line[f])}</dd>
                              </div>
                            ))}
                          </dl>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </DetailSection>

      <DetailSection id="order-refund" title={t("orders.detail.refund")}>
        <p className="text-xs text-slate-700">{t("orders.refunds.where")}</p>
        {refunds.isError && <p role="alert" className="mt-2 text-sm text-red-800">{errorMessage(refunds.error, t)}</p>}
        {refunds.isSuccess && records.length === 0 && <p className="mt-2 text-sm text-slate-800" data-testid="order-refund-none">{t("orders.refunds.none")}</p>}
        {records.length > 0 && (
          <ul className="mt-2 flex flex-col gap-3" data-testid="order-refund">
            {records.map((r) => <RefundEntry key={r.id} record={r} money={money} lineName={lineName} />)}
          </ul>
        )}
      </DetailSection>

      {dialog === "cancel" && <CancelOrderDialog order={data} open onClose={() => setDialog(undefined)} />}
      {dialog === "refund" && <RefundDialog order={data} open onClose={() => setDialog(undefined)} />}
      {dialog === "deleteRefund" && <DeleteRefundDialog order={data} open onClose={() => setDialog(undefined)} />}
      {dialog === "delete" && <DeleteOrderDialog
        order={data}
        open
        onClose={() => setDialog(undefined)}
        onDeleted={() => {
          setDialog(undefined);
          router.push(href("/orders", customerId ? { customerId: String(customerId) } : undefined));
        }}
      />}
    </div>
  );
}

/** One refund this console recorded: amount, kind, lines, reason, who and when; a deleted one says so. */
function RefundEntry({ record, money, lineName }: { record: RefundRecord; money: (value: unknown) => string; lineName: (lineId: string) => string }) {
  const { t } = useI18n();
  const deleted = record.status === "deleted";
  return (
    <li className={`rounded-md border p-2 ${deleted ? "border-slate-300 bg-slate-50" : "border-amber-600"}`} data-testid="refund-record" data-status={record.status}>
      <p className="text-sm font-medium text-slate-900">
        {record.refundState === "完全退单" ? t("orders.refunds.full") : t("orders.refunds.partial")} · {money(record.refundTotal) || "—"}
        {deleted && <span className="ml-2 text-slate-700">({t("orders.refunds.deleted")})</span>}
        {record.status === "sending" && <span className="ml-2 text-slate-700">({t("orders.refunds.sending")})</span>}
      </p>
      <dl>
        {record.dateRefund && <Row label={t("orders.refund.dateRefund")}><TimeText value={record.dateRefund} /></Row>}
        <Row label={t("orders.refund.lines")}>{record.lineIds.length > 0 ? record.lineIds.map(lineName).join(", ") : "—"}</Row>
        {record.reason && <Row label={t("orders.refund.reason")}>{record.reason}</Row>}
        <Row label={t("orders.refunds.recorded")}>
          {record.recordedBy ?? "—"} · <TimeText value={new Date(record.recordedAt).toISOString().slice(0, 19) + "Z"} />
        </Row>
        {deleted && record.deletedAt !== undefined && (
          <Row label={t("orders.refunds.deletedBy")}>
            {record.deletedBy ?? "—"} · <TimeText value={new Date(record.deletedAt).toISOString().slice(0, 19) + "Z"} />
          </Row>
        )}
      </dl>
    </li>
  );
}
