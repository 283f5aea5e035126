"use client";
import type { OrderSums } from "@/lib/orders/order-form";
import { replaceLoss } from "@/lib/orders/order-lookup";
import { formatMoney } from "@/lib/orders/money";
import { DialogActions } from "@/components/forms/confirm-dialog";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Dialog } from "@/components/ui/dialog";
import { TimeText } from "@/components/ui/time-text";
import { PersonName, usePerson } from "@/components/people/person-name";
import { OrderState } from "./order-state";

type Props = {
  orderNo: string;
  /** The order of this number the platform already has (create only): replacing it discards it (§4.2). */
  existing?: Record<string, unknown>;
  /** Amounts that do not add up. */
  sums?: OrderSums;
  currency?: string;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
};

/**
 * The question before an order is saved (docs/decisions/order-number-looked-up-before-create.md): an existing order of this number
 * is shown with what replacing it loses, and the action names it ("Replace order SO…"); amounts that
 * do not add up are said in numbers. Cancel comes first and has the focus.
 */
export function SaveCheckDialog({ orderNo, existing, sums, currency, pending, onCancel, onConfirm }: Props) {
  const { t, locale } = useI18n();
  const money = (value: string | undefined, cur = currency) => formatMoney(value, locale, cur);
  const loss = existing ? replaceLoss(existing) : undefined;
  const lossCustomer = usePerson(loss?.customerId);
  return (
    <Dialog open role="alertdialog" title={loss ? t("orders.replace.title", { orderNo }) : t("orders.amounts.title")} onClose={onCancel}>
      <div className="flex flex-col gap-3 text-sm text-slate-800" data-testid="save-check">
        {loss && (
          <div data-testid="replace-existing">
            <p>{t("orders.replace.body")}</p>
            <dl className="mt-2 rounded-md border border-amber-600 bg-amber-50 p-2 text-amber-950">
              <div className="flex justify-between gap-3"><dt>{t("orders.field.customer")}</dt><dd className="text-right">{loss.customerId ? <PersonName id={String(loss.customerId)} hit={lossCustomer} copy={false} /> : "—"}</dd></div>
              <div className="flex justify-between gap-3"><dt>{t("orders.field.amountPaid")}</dt><dd>{money(loss.amountPaid, loss.currency) || "—"}</dd></div>
              <div className="flex justify-between gap-3"><dt>{t("orders.field.dateOrder")}</dt><dd><TimeText value={loss.dateOrder ?? null} /></dd></div>
              <div className="flex justify-between gap-3"><dt>{t("orders.replace.lineCount")}</dt><dd>{loss.lineCount}</dd></div>
              {loss.state && <div className="flex justify-between gap-3"><dt>{t("orders.col.state")}</dt><dd><OrderState state={loss.state} /></dd></div>}
            </dl>
            <p className="mt-2 font-medium">{t("orders.replace.lost")}</p>
          </div>
        )}
        {sums && (
          <div data-testid="amounts-warning" className="rounded-md border border-amber-600 bg-amber-50 p-2 text-amber-950">
            {loss && <p className="font-medium">{t("orders.amounts.title")}</p>}
            {sums.linesMismatch && <p>{t("orders.form.linesMismatch", { lines: money(sums.lines), expected: money(sums.expectedTotal) })}</p>}
            {sums.totalMismatch && <p>{t("orders.form.totalMismatch", { sum: money(sums.paidPlusDiscount) })}</p>}
          </div>
        )}
        <DialogActions
          cancel={loss ? t("orders.replace.back") : t("orders.amounts.back")}
          onCancel={onCancel}
          focusCancel
          variant={loss ? "danger" : "primary"}
          pending={pending}
          pendingLabel={t("orders.form.saving")}
          confirm={loss ? t("orders.replace.confirm", { orderNo }) : t("orders.amounts.confirm")}
          onConfirm={onConfirm}
        />
      </div>
    </Dialog>
  );
}
