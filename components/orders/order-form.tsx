"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { ApiError } from "@/lib/api/api-error";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { orderPath } from "@/lib/console/order-path";
import {
  createOrderInput,
  emptyLine,
  HEADER_TEXT_FIELDS,
  lineKey,
  nextLineId,
  orderFormDirty,
  orderFormFrom,
  orderSums,
  placeOrderErrors,
  updateOrderInput,
  validateOrderForm,
  type LineField,
  type LineForm,
  type MoneyField,
  type OrderForm,
  type OrderProblem,
} from "@/lib/console/order-form";
import { formatMoney } from "@/lib/console/money";
import { useUnsavedGuard } from "@/lib/hooks/use-unsaved-guard";
import type { MessageKey } from "@/lib/i18n/messages";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import type { Translate } from "@/lib/i18n/format";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { isNotFound } from "./order-state";
import { TextField } from "@/components/ui/field";
import { orderDetailQuery } from "./order-state";

function problemText(problem: OrderProblem, t: Translate): string {
  return t(`orders.error.${problem.code}` as MessageKey, { max: "max" in problem ? problem.max : 0 });
}

const LINE_FIELDS_SHOWN: { field: LineField; wide?: boolean; money?: boolean }[] = [
  { field: "lineId" },
  { field: "productName", wide: true },
  { field: "qty" },
  { field: "priceUnit", money: true },
  { field: "priceSubTotal", money: true },
  { field: "priceSubPaid", money: true },
  { field: "productId" },
  { field: "skuId" },
  { field: "brandName" },
  { field: "category" },
];

/** Loads the order (detail-by-order-number: lines with their custom fields), then the edit form. */
export function OrderEdit({ orderNo }: { orderNo: string }) {
  const { t } = useI18n();
  const order = useQuery({ ...orderDetailQuery(orderNo), staleTime: 0 });
  if (order.isPending) return <p role="status" className="text-sm text-slate-700">{t("orders.detail.loading")}</p>;
  if (order.isError) return <p role="alert" className="text-sm text-red-800">{isNotFound(order.error) ? t("orders.detail.notFound", { orderNo }) : errorMessage(order.error, t)}</p>;
  return <OrderFormView mode="edit" orderNo={orderNo} original={orderFormFrom(order.data as Record<string, unknown>)} />;
}

/**
 * The order form of create (§4.2 POST /v1/deals) and edit (PUT /v1/deals/{orderNo}): §4.2's
 * required fields checked before sending, money as decimal strings, `dateOrder` in UTC+8 sent in
 * UTC, the replace rule said in words, the platform's field errors on their fields, and a guard
 * against leaving with unsaved changes.
 */
export function OrderFormView({ mode, orderNo, original }: { mode: "create" | "edit"; orderNo?: string; original: OrderForm }) {
  const { t, locale } = useI18n();
  const href = useConsoleHref();
  const router = useRouter();
  const [form, setForm] = useState<OrderForm>(original);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const dirty = !saved && orderFormDirty(original, form);
  useUnsavedGuard(dirty);
  const create = usePlatformMutation("deals.create", { meta: { silent: true } });
  const update = usePlatformMutation("deals.update", { meta: { silent: true } });
  const pending = create.isPending || update.isPending;
  const sums = orderSums(form);
  const back = mode === "edit" && orderNo ? href(orderPath(orderNo)) : href("/orders", original.customerId ? { customerId: original.customerId } : undefined);

  const focusFirst = (keys: string[]) =>
    requestAnimationFrame(() => keys.map((k) => document.querySelector<HTMLElement>(`[data-field="${k}"]`)).find(Boolean)?.focus());

  // A field's error goes as soon as the field is changed.
  const clearErrors = (keys: string[]) => setErrors((e) => (keys.some((k) => k in e) ? Object.fromEntries(Object.entries(e).filter(([k]) => !keys.includes(k))) : e));
  const set = (patch: Partial<OrderForm>) => {
    clearErrors(Object.keys(patch));
    setForm((f) => ({ ...f, ...patch }));
  };
  const setLine = (index: number, patch: Partial<LineForm>) => {
    clearErrors(Object.keys(patch).map((k) => `lines.${index}.${k}`));
    setForm((f) => ({ ...f, lines: f.lines.map((l, i) => (i === index ? { ...l, ...patch } : l)) }));
  };

  const onError = (error: ApiError) => {
    const placed = placeOrderErrors(error.fieldErrors);
    setErrors(placed.byField);
    setFormError([errorMessage(error, t), ...placed.unplaced].join(" "));
    focusFirst(Object.keys(placed.byField));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const problems = validateOrderForm(form, mode);
    if (Object.keys(problems).length > 0) {
      setErrors(Object.fromEntries(Object.entries(problems).map(([k, p]) => [k, problemText(p, t)])));
      setFormError(t("orders.form.problems"));
      focusFirst(Object.keys(problems));
      return;
    }
    setErrors({});
    if (mode === "create") {
      create.mutate(createOrderInput(form), {
        onSuccess: (order) => {
          setSaved(true);
          const no = String(order.orderNo ?? form.orderNo.trim());
          toastStore.show("success", t("orders.form.created", { orderNo: no }));
          router.push(href(orderPath(no)));
        },
        onError,
      });
      return;
    }
    const input = updateOrderInput(orderNo!, original, form);
    if (!input) {
      setFormError(t("orders.form.nothing"));
      return;
    }
    update.mutate(input, {
      onSuccess: () => {
        setSaved(true);
        toastStore.show("success", t("orders.form.updated", { orderNo: orderNo! }));
        router.push(href(orderPath(orderNo!)));
      },
      onError,
    });
  };

  const moneyField = (field: MoneyField, required = false) => (
    <TextField
      key={field}
      data-field={field}
      label={`${t(`orders.field.${field}` as MessageKey)}${required ? " *" : ""}`}
      help={t("orders.form.moneyHelp")}
      inputMode="decimal"
      required={required}
      aria-required={required || undefined}
      value={form[field]}
      error={errors[field]}
      onChange={(e) => set({ [field]: e.target.value } as Partial<OrderForm>)}
    />
  );

  const title = mode === "create" ? t("orders.form.newTitle") : t("orders.form.editTitle", { orderNo: orderNo ?? "" });

  return (
    <div className="flex flex-col gap-4">
      <Link href={back} className={`w-fit text-sm text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>
        ← {mode === "edit" ? t("orders.detail.title", { orderNo: orderNo ?? "" }) : t("orders.back")}
      </Link>
      <h1 className="text-xl font-semibold break-all text-slate-900">{title}</h1>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-busy={pending}>
        {formError && (
          <div role="alert" className="rounded-md border border-red-300 bg-white p-3 text-sm text-red-800" data-testid="form-error">
            {formError}
          </div>
        )}

        <fieldset className="rounded-lg border border-slate-300 bg-white p-4">
          <legend className="px-1 text-base font-semibold text-slate-900">{t("orders.form.section.order")}</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="flex flex-col gap-2">
              <TextField
                data-field="orderNo"
                label={`${t("orders.field.orderNo")} *`}
                required
                aria-required
                readOnly={mode === "edit"}
                help={mode === "edit" ? t("orders.form.orderNoFixed") : undefined}
                value={form.orderNo}
                error={errors.orderNo}
                onChange={(e) => set({ orderNo: e.target.value })}
              />
              {mode === "create" && (
                <p className="rounded-md border border-amber-600 bg-amber-50 p-2 text-xs text-amber-950" data-testid="replace-warning">
                  {t("orders.form.replaceWarning")}
                </p>
              )}
            </div>
            <TextField
              data-field="dateOrder"
              type="datetime-local"
              step={1}
              label={`${t("orders.field.dateOrder")} *`}
              required
              aria-required
              help={t("orders.form.dateHelp")}
              value={form.dateOrder}
              error={errors.dateOrder}
              onChange={(e) => set({ dateOrder: e.target.value })}
            />
          </div>
        </fieldset>

        <fieldset className="rounded-lg border border-slate-300 bg-white p-4">
          <legend className="px-1 text-base font-semibold text-slate-900">{t("orders.form.section.customer")}</legend>
          {mode === "create" && (
            <div role="radiogroup" aria-label={t("orders.form.customerBy")} className="mb-3 flex flex-wrap gap-4">
              {(["id", "identity"] as const).map((by) => (
                <label key={by} className="flex items-center gap-2 text-sm text-slate-800">
                  <input type="radio" name="customerBy" value={by} checked={form.customerBy === by} onChange={() => set({ customerBy: by })} className={`h-4 w-4 accent-blue-700 ${focusRing}`} />
                  {by === "id" ? t("orders.form.byId") : t("orders.form.byIdentity")}
                </label>
              ))}
            </div>
          )}
          {form.customerBy === "id" || mode === "edit" ? (
            <TextField data-field="customerId" label={`${t("orders.field.customerId")} *`} required aria-required inputMode="numeric" value={form.customerId} error={errors.customerId} onChange={(e) => set({ customerId: e.target.value })} className="max-w-md" />
          ) : (
            <div className="grid gap-3 sm:grid-cols-2">
              <TextField data-field="identityType" label={`${t("orders.form.identityType")} *`} required aria-required help={t("orders.form.identityTypeHelp")} value={form.identityType} error={errors.identityType} onChange={(e) => set({ identityType: e.target.value })} />
              <TextField data-field="identityValue" label={`${t("orders.form.identityValue")} *`} required aria-required help={t("orders.form.identityHelp")} value={form.identityValue} error={errors.identityValue} onChange={(e) => set({ identityValue: e.target.value })} />
            </div>
          )}
        </fieldset>

        <fieldset className="rounded-lg border border-slate-300 bg-white p-4">
          <legend className="px-1 text-base font-semibold text-slate-900">{t("orders.form.section.amounts")}</legend>
          <div className="grid gap-3 sm:grid-cols-3">
            {moneyField("amountPaid", true)}
            {moneyField("amountDiscount")}
            {moneyField("amountTotal")}
          </div>
          <div className="mt-2 text-sm text-slate-800" aria-live="polite" data-testid="order-sums">
            {sums.lines !== undefined && <p>{t("orders.form.linesSum", { sum: formatMoney(sums.lines, locale, form.currency || undefined) })}</p>}
            {sums.paidPlusDiscount !== undefined && form.amountDiscount.trim() !== "" && <p>{t("orders.form.paidPlusDiscount", { sum: formatMoney(sums.paidPlusDiscount, locale, form.currency || undefined) })}</p>}
            {sums.totalMismatch && <p className="font-medium text-amber-900">{t("orders.form.totalMismatch", { sum: formatMoney(sums.paidPlusDiscount, locale, form.currency || undefined) })}</p>}
          </div>
        </fieldset>

        <fieldset className="rounded-lg border border-slate-300 bg-white p-4">
          <legend className="px-1 text-base font-semibold text-slate-900">{t("orders.form.section.lines")}</legend>
          {form.lines.length === 0 && <p className="text-sm text-slate-700">{t("orders.form.noLines")}</p>}
          <ol className="flex flex-col gap-3">
            {form.lines.map((line, index) => {
              const kept = Object.keys(line.extra);
              return (
                <li key={line.key} className="rounded-md border border-slate-200 p-3" data-testid="order-line">
                  <fieldset>
                    <legend className="text-sm font-semibold text-slate-900">{t("orders.form.lineTitle", { n: index + 1 })}</legend>
                    <div className="mt-2 grid gap-3 sm:grid-cols-3 lg:grid-cols-5">
                      {LINE_FIELDS_SHOWN.map(({ field, wide, money }) => {
                        const required = field === "lineId" || field === "productName" || field === "qty";
                        return (
                          <TextField
                            key={field}
                            data-field={lineKey(index, field)}
                            label={`${t(`orders.line.${field}` as MessageKey)}${required ? " *" : ""}`}
                            required={required}
                            aria-required={required || undefined}
                            inputMode={field === "qty" ? "numeric" : money ? "decimal" : undefined}
                            help={field === "priceSubTotal" ? t("orders.form.subtotalHelp") : undefined}
                            className={wide ? "sm:col-span-2" : ""}
                            value={line[field]}
                            error={errors[lineKey(index, field)]}
                            onChange={(e) => setLine(index, { [field]: e.target.value } as Partial<LineForm>)}
                          />
                        );
                      })}
                    </div>
                    {kept.length > 0 && <p className="mt-2 text-xs text-slate-700">{t("orders.form.keptFields", { names: kept.join(", ") })}</p>}
                    <Button variant="ghost" className="mt-2" onClick={() => set({ lines: form.lines.filter((_, i) => i !== index) })}>
                      {t("orders.form.removeLine", { n: index + 1 })}
                    </Button>
                  </fieldset>
                </li>
              );
            })}
          </ol>
          <Button className="mt-3" onClick={() => set({ lines: [...form.lines, emptyLine(nextLineId(form.lines))] })}>
            {t("orders.form.addLine")}
          </Button>
        </fieldset>

        <fieldset className="rounded-lg border border-slate-300 bg-white p-4">
          <legend className="px-1 text-base font-semibold text-slate-900">{t("orders.form.section.more")}</legend>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            {HEADER_TEXT_FIELDS.map((field) => (
              <TextField
                key={field}
                data-field={field}
                label={t(`orders.field.${field}` as MessageKey)}
                className={field === "remark" ? "sm:col-span-2" : ""}
                value={form[field]}
                error={errors[field]}
                onChange={(e) => set({ [field]: e.target.value } as Partial<OrderForm>)}
              />
            ))}
          </div>
        </fieldset>

        <div className="flex flex-wrap justify-end gap-2">
          <Link href={back} className={`rounded-md px-3 py-1.5 text-sm font-medium text-blue-800 hover:bg-blue-50 ${focusRing}`}>
            {t("orders.form.discard")}
          </Link>
          <Button type="submit" variant="primary" disabled={pending}>
            {pending ? t("orders.form.saving") : mode === "create" ? t("orders.form.create") : t("orders.form.save")}
          </Button>
        </div>
      </form>
    </div>
  );
}
