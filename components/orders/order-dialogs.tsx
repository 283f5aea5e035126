"use client";
import { useState } from "react";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { cancelInput, defaultRefundAmount, lineRefundMinor, orderLines, placeRefundErrors, refundInput, validateRefund, type RefundChoice, type RefundProblem } from "@/lib/orders/order-actions";
import { formatMinor, formatMoney, minorOf } from "@/lib/orders/money";
import { onlyProblems } from "@/lib/forms/field-errors";
import { useForm } from "@/lib/forms/use-form";
import type { MessageKey } from "@/lib/i18n/messages";
import type { Order } from "@/lib/platform/resources";
import { toastStore } from "@/lib/ui/toast-store";
import { homeValueNow } from "@/lib/time";
import { useDeleteRefundMutation, useRefundMutation } from "./order-refunds";
import { ConfirmDialog, DialogActions } from "@/components/forms/confirm-dialog";
import { FormAlert } from "@/components/forms/form-alert";
import { useI18n } from "@/components/i18n/i18n-provider";
import { focusRing } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-message";
import { TextField } from "@/components/ui/field";
import { DateTimeField } from "@/components/ui/date-time-field";

type DialogProps = { order: Order; open: boolean; onClose: () => void };

/**
 * §4.2 dealService/cancel behind a confirmation. The cancel date (UTC+8) starts at now: left empty,
 * the platform stamps the order's last update time (§3), which is earlier than the cancel.
 */
export function CancelOrderDialog({ order, open, onClose }: DialogProps) {
  const { t } = useI18n();
  const orderNo = String(order.orderNo);
  // Now: §3's own default (the last update) is earlier than the cancel.
  const [initial] = useState(() => homeValueNow());
  const form = useForm({ initial, validate: (date) => onlyProblems({ date: cancelInput(orderNo, date).problem && t("orders.error.dateOrder") }) });
  const cancel = usePlatformMutation("deals.cancel", {
    meta: { silent: true },
    onSuccess: () => {
      toastStore.show("success", t("orders.cancel.done", { orderNo }));
      close();
    },
  });
  const close = () => {
    cancel.reset();
    form.reset(initial);
    onClose();
  };
  return (
    <Dialog open={open} title={t("orders.cancel.title", { orderNo })} onClose={close} role="alertdialog">
      <form onSubmit={(e) => form.submit(e, (date) => cancel.mutate(cancelInput(orderNo, date).input!))} noValidate className="flex flex-col gap-4">
        <p className="text-sm text-slate-800">{t("orders.cancel.body")}</p>
        <DateTimeField withNow label={t("orders.cancel.date")} help={t("orders.cancel.dateHelp")} value={form.values} {...form.field("date")} onChange={(date) => form.edit(date)} />
        <FormAlert error={cancel.error} />
        <DialogActions cancel={t("orders.dialog.back")} onCancel={close} focusCancel variant="danger" pending={cancel.isPending} pendingLabel={t("orders.cancel.pending")} confirm={t("orders.cancel.confirm")} />
      </form>
    </Dialog>
  );
}

type RefundForm = Omit<RefundChoice, "amount"> & { amount: string | undefined };
const NEW_REFUND: RefundForm = { kind: "partial", lineIds: [], amount: undefined, reason: "" };

/**
 * §4.2 dealService/refund behind a confirmation: full (完全退单, every line) or partial (部分退单,
 * chosen lines); the amount proposed from the lines (until staff type one), never above what was
 * paid; a reason.
 */
export function RefundDialog({ order, open, onClose }: DialogProps) {
  const { t, locale } = useI18n();
  const orderNo = String(order.orderNo);
  // One key per opened dialog: sending it twice (a double click, a retry after no answer) is one refund.
  const [requestKey] = useState(() => crypto.randomUUID());
  const currency = order.currency ?? undefined;
  const lines = orderLines(order);
  const paid = minorOf(order.amountPaid);
  const choiceOf = (v: RefundForm): RefundChoice => ({ ...v, amount: v.amount ?? defaultRefundAmount(order, v.kind, v.lineIds) });
  const text = (p: RefundProblem) =>
    t((p.code === "required" || p.code === "zero" || p.code === "overPaid" || p.code === "linesRequired" ? `orders.refund.error.${p.code}` : `orders.error.${p.code}`) as MessageKey, { paid: formatMoney(p.paid, locale, currency) });
  const form = useForm({
    initial: NEW_REFUND,
    validate: (v) => {
      const checked = validateRefund(order, choiceOf(v));
      return onlyProblems({ refundLines: checked.lines && text(checked.lines), refundTotal: checked.amount && text(checked.amount) });
    },
  });
  const choice = choiceOf(form.values);

  const refund = useRefundMutation();
  const send = (v: RefundForm) => {
    if (refund.isPending) return;
    refund.mutate(
      { requestKey, refund: refundInput(order, choiceOf(v)).body },
      {
        onSuccess: (answer) => {
          toastStore.show("success", t("orders.refund.done", { orderNo, amount: formatMoney(answer.refund.refundTotal, locale, currency) }));
          close();
        },
        // A field error of the platform (e.g. a line that no longer exists) lands on its field.
        onError: (error) => form.fail(errorMessage(error, t), placeRefundErrors(error.fieldErrors)),
      },
    );
  };
  const close = () => {
    refund.reset();
    form.reset(NEW_REFUND);
    onClose();
  };
  const linesError = form.errors.refundLines;

  return (
    <Dialog open={open} title={t("orders.refund.title", { orderNo })} onClose={close} role="alertdialog">
      <form onSubmit={(e) => form.submit(e, send)} noValidate className="flex flex-col gap-4">
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">{t("orders.refund.kind")}</legend>
          {(["full", "partial"] as const).map((k) => (
            <label key={k} className="mt-1 flex items-center gap-2 text-sm text-slate-800">
              <input type="radio" name="refundKind" value={k} checked={choice.kind === k} onChange={() => form.edit((v) => ({ ...v, kind: k }), "refundLines")} className={`h-4 w-4 accent-blue-700 ${focusRing}`} />
              {t(k === "full" ? "orders.refund.full" : "orders.refund.partial")}
            </label>
          ))}
        </fieldset>
        {choice.kind === "partial" && (
          <fieldset aria-describedby={linesError ? "refund-lines-error" : undefined} aria-invalid={linesError ? true : undefined} data-field="refundLines">
            <legend className="text-sm font-medium text-slate-800">{t("orders.refund.chooseLines")}</legend>
            {lines.map((line) => {
              const id = String(line.lineId);
              const lineAmount = lineRefundMinor(line);
              return (
                <label key={id} className="mt-1 flex items-center gap-2 text-sm text-slate-800">
                  <input
                    type="checkbox"
                    className={`h-4 w-4 accent-blue-700 ${focusRing}`}
                    checked={choice.lineIds.includes(id)}
                    onChange={(e) => form.edit((v) => ({ ...v, lineIds: e.target.checked ? [...v.lineIds, id] : v.lineIds.filter((x) => x !== id) }), "refundLines")}
                  />
                  {t("orders.refund.lineLabel", { lineId: id, product: String((line as Record<string, unknown>).productName ?? ""), amount: lineAmount === undefined ? "—" : formatMoney(formatMinor(lineAmount), locale, currency) })}
                </label>
              );
            })}
            {linesError && <p id="refund-lines-error" className="mt-1 text-xs font-medium text-red-700">{linesError}</p>}
          </fieldset>
        )}
        <TextField
          label={t("orders.refund.amount")}
          inputMode="decimal"
          help={paid === undefined ? undefined : t("orders.refund.amountHelp", { paid: formatMoney(formatMinor(paid), locale, currency) })}
          value={choice.amount}
          {...form.field("refundTotal")}
          onChange={(e) => form.edit((v) => ({ ...v, amount: e.target.value }), "refundTotal")}
        />
        <TextField label={t("orders.refund.reasonLabel")} value={choice.reason} onChange={(e) => form.edit((v) => ({ ...v, reason: e.target.value }))} />
        <FormAlert message={form.formError} />
        <DialogActions cancel={t("orders.dialog.back")} onCancel={close} focusCancel pending={refund.isPending} pendingLabel={t("orders.refund.pending")} confirm={t("orders.refund.confirm", { amount: formatMoney(choice.amount, locale, currency) || choice.amount })} />
      </form>
    </Dialog>
  );
}

/** §4.2 dealService/deleteRefund behind a confirmation, through the app (the recorded refunds are marked deleted). */
export function DeleteRefundDialog({ order, open, onClose }: DialogProps) {
  const { t } = useI18n();
  const orderNo = String(order.orderNo);
  const remove = useDeleteRefundMutation();
  const confirm = () => {
    if (remove.isPending) return;
    remove.mutate(
      { orderNo },
      {
        onSuccess: () => {
          toastStore.show("success", t("orders.deleteRefund.done", { orderNo }));
          onClose();
        },
      },
    );
  };
  return (
    <ConfirmDialog open={open} title={t("orders.deleteRefund.title", { orderNo })} onClose={onClose} call={remove} cancel={t("orders.dialog.back")}
      confirm={t("orders.deleteRefund.confirm")} pendingLabel={t("orders.deleteRefund.pending")} onConfirm={confirm}>
      <p className="text-sm text-slate-800">{t("orders.deleteRefund.body")}</p>
    </ConfirmDialog>
  );
}

/** §4.2 DELETE /v1/deals/{orderNo} behind a confirmation. */
export function DeleteOrderDialog({ order, open, onClose, onDeleted }: DialogProps & { onDeleted: () => void }) {
  const { t } = useI18n();
  const orderNo = String(order.orderNo);
  const remove = usePlatformMutation("deals.delete", {
    meta: { silent: true },
    onSuccess: () => {
      toastStore.show("success", t("orders.delete.done", { orderNo }));
      remove.reset();
      onDeleted();
    },
  });
  return (
    <ConfirmDialog open={open} title={t("orders.delete.title", { orderNo })} onClose={onClose} call={remove} cancel={t("orders.dialog.back")}
      confirm={t("orders.delete.confirm")} pendingLabel={t("orders.delete.pending")} onConfirm={() => remove.mutate({ params: { orderNo } })}>
      <p className="text-sm text-slate-800">{t("orders.delete.body")}</p>
    </ConfirmDialog>
  );
}
