"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { cancelInput, defaultRefundAmount, lineRefundMinor, orderLines, placeRefundErrors, refundInput, validateRefund, type RefundKind } from "@/lib/console/order-actions";
import { formatMinor, formatMoney, minorOf } from "@/lib/console/money";
import type { MessageKey } from "@/lib/i18n/messages";
import type { Order } from "@/lib/platform/resources";
import { toastStore } from "@/lib/ui/toast-store";
import { refundMemoKey, type RefundMemo } from "./refund-memo";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button, focusRing } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-message";
import { TextField } from "@/components/ui/field";

type DialogProps = { order: Order; open: boolean; onClose: () => void };

function Actions({ onClose, confirm, pending, pendingLabel, confirmLabel, variant = "danger" }: { onClose: () => void; confirm?: () => void; pending: boolean; pendingLabel: string; confirmLabel: string; variant?: "danger" | "primary" }) {
  const { t } = useI18n();
  return (
    <div className="flex justify-end gap-2">
      <Button onClick={onClose} autoFocus disabled={pending}>{t("orders.dialog.back")}</Button>
      <Button type={confirm ? "button" : "submit"} variant={variant} disabled={pending} onClick={confirm} aria-busy={pending}>
        {pending ? pendingLabel : confirmLabel}
      </Button>
    </div>
  );
}

function Failure({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (!error) return null;
  return <p role="alert" className="text-sm text-red-700">{errorMessage(error, t)}</p>;
}

/** §4.2 dealService/cancel behind a confirmation; optional cancel date in UTC+8 (§3 default: last update). */
export function CancelOrderDialog({ order, open, onClose }: DialogProps) {
  const { t } = useI18n();
  const orderNo = String(order.orderNo);
  const [date, setDate] = useState("");
  const [dateError, setDateError] = useState<string>();
  const cancel = usePlatformMutation("deals.cancel", {
    meta: { silent: true },
    onSuccess: () => {
      toastStore.show("success", t("orders.cancel.done", { orderNo }));
      close();
    },
  });
  const close = () => {
    cancel.reset();
    setDate("");
    setDateError(undefined);
    onClose();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const plan = cancelInput(orderNo, date);
    if (!plan.input) {
      setDateError(t("orders.error.dateOrder"));
      return;
    }
    setDateError(undefined);
    cancel.mutate(plan.input);
  };
  return (
    <Dialog open={open} title={t("orders.cancel.title", { orderNo })} onClose={close} role="alertdialog">
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <p className="text-sm text-slate-800">{t("orders.cancel.body")}</p>
        <TextField type="datetime-local" step={1} label={t("orders.cancel.date")} help={t("orders.cancel.dateHelp")} value={date} error={dateError} onChange={(e) => setDate(e.target.value)} />
        <Failure error={cancel.error} />
        <Actions onClose={close} pending={cancel.isPending} pendingLabel={t("orders.cancel.pending")} confirmLabel={t("orders.cancel.confirm")} />
      </form>
    </Dialog>
  );
}

/**
 * §4.2 dealService/refund behind a confirmation: full (完全退单, every line) or partial (部分退单,
 * chosen lines); the amount proposed from the lines, never above what was paid; a reason.
 */
export function RefundDialog({ order, open, onClose }: DialogProps) {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const orderNo = String(order.orderNo);
  const currency = order.currency ?? undefined;
  const lines = orderLines(order);
  const [kind, setKind] = useState<RefundKind>("partial");
  const [lineIds, setLineIds] = useState<string[]>([]);
  const [amount, setAmount] = useState("");
  const [amountTouched, setAmountTouched] = useState(false);
  const [reason, setReason] = useState("");
  const [problems, setProblems] = useState<{ amount?: string; lines?: string }>({});
  const paid = minorOf(order.amountPaid);
  const proposed = amountTouched ? amount : defaultRefundAmount(order, kind, lineIds);

  const refund = usePlatformMutation("deals.refund", {
    meta: { silent: true },
    onSuccess: (answer, input) => {
      queryClient.setQueryData<RefundMemo>(refundMemoKey(orderNo), { refund: answer as Record<string, unknown>, deleted: false });
      toastStore.show("success", t("orders.refund.done", { orderNo, amount: formatMoney(input.body.refundTotal, locale, currency) }));
      close();
    },
    onError: (error) => {
      // A field error of the platform (e.g. a line that no longer exists) lands on its field.
      const placed = placeRefundErrors(error.fieldErrors);
      setProblems({ lines: placed.lines, amount: placed.amount });
    },
  });
  const close = () => {
    refund.reset();
    setKind("partial");
    setLineIds([]);
    setAmount("");
    setAmountTouched(false);
    setReason("");
    setProblems({});
    onClose();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const choice = { kind, lineIds, amount: proposed, reason };
    const checked = validateRefund(order, choice);
    const text = (p: typeof checked.amount) => (p ? t((p.code === "required" || p.code === "zero" || p.code === "overPaid" || p.code === "linesRequired" ? `orders.refund.error.${p.code}` : `orders.error.${p.code}`) as MessageKey, { paid: formatMoney(p.paid, locale, currency) }) : undefined);
    const next = { amount: text(checked.amount), lines: text(checked.lines) };
    setProblems(next);
    if (next.amount || next.lines) return;
    refund.mutate(refundInput(order, choice));
  };
  const confirmAmount = formatMoney(proposed, locale, currency) || proposed;

  return (
    <Dialog open={open} title={t("orders.refund.title", { orderNo })} onClose={close} role="alertdialog">
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">{t("orders.refund.kind")}</legend>
          {(["full", "partial"] as const).map((k) => (
            <label key={k} className="mt-1 flex items-center gap-2 text-sm text-slate-800">
              <input type="radio" name="refundKind" value={k} checked={kind === k} onChange={() => setKind(k)} className={`h-4 w-4 accent-blue-700 ${focusRing}`} />
              {t(k === "full" ? "orders.refund.full" : "orders.refund.partial")}
            </label>
          ))}
        </fieldset>
        {kind === "partial" && (
          <fieldset aria-describedby={problems.lines ? "refund-lines-error" : undefined} aria-invalid={problems.lines ? true : undefined} data-field="refundLines">
            <legend className="text-sm font-medium text-slate-800">{t("orders.refund.chooseLines")}</legend>
            {lines.map((line) => {
              const id = String(line.lineId);
              const l = line as Record<string, unknown>;
              const lineAmount = lineRefundMinor(line);
              return (
                <label key={id} className="mt-1 flex items-center gap-2 text-sm text-slate-800">
                  <input
                    type="checkbox"
                    className={`h-4 w-4 accent-blue-700 ${focusRing}`}
                    checked={lineIds.includes(id)}
                    onChange={(e) => setLineIds((ids) => (e.target.checked ? [...ids, id] : ids.filter((x) => x !== id)))}
                  />
                  {t("orders.refund.lineLabel", { lineId: id, product: String(l.productName ?? ""), amount: lineAmount === undefined ? "—" : formatMoney(formatMinor(lineAmount), locale, currency) })}
                </label>
              );
            })}
            {problems.lines && <p id="refund-lines-error" className="mt-1 text-xs font-medium text-red-700">{problems.lines}</p>}
          </fieldset>
        )}
        <TextField
          label={t("orders.refund.amount")}
          inputMode="decimal"
          help={paid === undefined ? undefined : t("orders.refund.amountHelp", { paid: formatMoney(formatMinor(paid), locale, currency) })}
          value={proposed}
          error={problems.amount}
          data-field="refundTotal"
          onChange={(e) => {
            setAmountTouched(true);
            setAmount(e.target.value);
          }}
        />
        <TextField label={t("orders.refund.reasonLabel")} value={reason} onChange={(e) => setReason(e.target.value)} />
        <Failure error={refund.error} />
        <Actions onClose={close} pending={refund.isPending} pendingLabel={t("orders.refund.pending")} confirmLabel={t("orders.refund.confirm", { amount: confirmAmount })} variant="primary" />
      </form>
    </Dialog>
  );
}

/** §4.2 dealService/deleteRefund behind a confirmation; the answer (with empty refundLines) is kept to show. */
export function DeleteRefundDialog({ order, open, onClose }: DialogProps) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const orderNo = String(order.orderNo);
  const remove = usePlatformMutation("deals.deleteRefund", {
    meta: { silent: true },
    onSuccess: (answer) => {
      queryClient.setQueryData<RefundMemo>(refundMemoKey(orderNo), { refund: answer as Record<string, unknown>, deleted: true });
      toastStore.show("success", t("orders.deleteRefund.done", { orderNo }));
      close();
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Dialog open={open} title={t("orders.deleteRefund.title", { orderNo })} onClose={close} role="alertdialog">
      <p className="text-sm text-slate-800">{t("orders.deleteRefund.body")}</p>
      <Failure error={remove.error} />
      <Actions onClose={close} confirm={() => remove.mutate({ body: { orderNo } })} pending={remove.isPending} pendingLabel={t("orders.deleteRefund.pending")} confirmLabel={t("orders.deleteRefund.confirm")} />
    </Dialog>
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
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Dialog open={open} title={t("orders.delete.title", { orderNo })} onClose={close} role="alertdialog">
      <p className="text-sm text-slate-800">{t("orders.delete.body")}</p>
      <Failure error={remove.error} />
      <Actions onClose={close} confirm={() => remove.mutate({ params: { orderNo } })} pending={remove.isPending} pendingLabel={t("orders.delete.pending")} confirmLabel={t("orders.delete.confirm")} />
    </Dialog>
  );
}
