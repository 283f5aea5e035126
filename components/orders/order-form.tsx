"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { AppLink } from "@/components/ui/app-link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import type { ApiError } from "@/lib/http/api-error";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { orderPath } from "@/lib/orders/order-path";
import { computedSubtotal, createOrderInput, emptyLine, HEADER_TEXT_FIELDS, lineKey, nextLineId, orderFormDirty, paidFollowsLines, withPaidFromLines, orderFormFrom, orderSums, placeOrderErrors, sumsNeedConfirmation, updateOrderInput, validateOrderForm, type LineField, type LineForm, type MoneyField, type OrderForm, type OrderSums } from "@/lib/orders/order-form";
import { createSaveIntent } from "@/lib/orders/save-intent";
import { formatMoney } from "@/lib/orders/money";
import { problemText, problemTexts } from "@/lib/forms/field-errors";
import { useForm } from "@/lib/forms/use-form";
import type { MessageKey } from "@/lib/i18n/messages";
import { toastStore } from "@/lib/ui/toast-store";
import { FormAlert } from "@/components/forms/form-alert";
import { FormPageHeader, FormSection } from "@/components/forms/form-page";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { LazyCustomerPicker as CustomerPicker } from "@/components/search/lazy-customer-picker";
import { TextField } from "@/components/ui/field";
import { isNotFound, orderDetailQuery } from "./order-state";
import { DateTimeField } from "@/components/ui/date-time-field";
import { clientOnly } from "@/components/ui/client-only";

// Asked only once a save needs a word from staff (a replaced order, sums that do not add up); loaded
// after the form, as the customer picker is (the order pages' first-load target).
const SaveCheckDialog = clientOnly(() => import("./save-check-dialog").then((m) => m.SaveCheckDialog));

/** What the form asks before saving: replacing an existing order (create) and amounts that do not add up. */
type SaveCheck = { values: OrderForm; existing?: Record<string, unknown>; sums?: OrderSums };

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
  const form = useForm({ initial: original, guard: true, isDirty: orderFormDirty, validate: (v) => problemTexts(validateOrderForm(v, mode), problemText(t, "orders.error")) });
  const { values } = form;
  const create = usePlatformMutation("deals.create", { meta: { silent: true } });
  const update = usePlatformMutation("deals.update", { meta: { silent: true } });
  const queryClient = useQueryClient();
  const [checking, setChecking] = useState(false);
  // One save per intent (a double click is one): the button stays disabled until it ends.
  const [intentRunning, setIntentRunning] = useState(false);
  const [intent] = useState(() => createSaveIntent(setIntentRunning));
  const [check, setCheck] = useState<SaveCheck>();
  // Left while the number was being looked up: nothing is created behind the person's back.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const pending = create.isPending || update.isPending || checking;
  const sums = orderSums(values);
  const back = mode === "edit" && orderNo ? href(orderPath(orderNo)) : href("/orders", original.customerId ? { customerId: original.customerId } : undefined);

  // Paid is the lines' sum until staff type their own (an emptied Paid follows the lines again).
  const [paidByHand, setPaidByHand] = useState(() => !paidFollowsLines(original));
  const paidFromLines = (f: OrderForm) => (paidByHand ? f : withPaidFromLines(f));
  const set = (patch: Partial<OrderForm>) => form.edit((f) => (patch.lines ? paidFromLines({ ...f, ...patch }) : { ...f, ...patch }), ...Object.keys(patch));
  const setLine = (index: number, patch: Partial<LineForm>) =>
    form.edit((f) => paidFromLines({ ...f, lines: f.lines.map((l, i) => (i === index ? { ...l, ...patch } : l)) }), ...Object.keys(patch).map((k) => `lines.${index}.${k}`));

  const saved = (no: string, message: string) => {
    form.reset();
    toastStore.show("success", message);
    router.push(href(orderPath(no)));
  };
  const onError = (error: ApiError) => form.fail(errorMessage(error, t), placeOrderErrors(error.fieldErrors));
  const settled = { onSettled: () => intent.end() };

  const send = (values: OrderForm) => {
    setCheck(undefined);
    if (mode === "create") {
      return create.mutate(createOrderInput(values), {
        onSuccess: (order) => {
          const no = String(order.orderNo ?? values.orderNo.trim());
          saved(no, t("orders.form.created", { orderNo: no }));
        },
        onError,
        ...settled,
      });
    }
    const input = updateOrderInput(orderNo!, original, values);
    if (!input) {
      intent.end();
      return form.setFormError(t("orders.form.nothing"));
    }
    update.mutate(input, { onSuccess: () => saved(orderNo!, t("orders.form.updated", { orderNo: orderNo! })), onError, ...settled });
  };

  /** Before sending: a new order's number is looked up (§4.2 create replaces), and the amounts are checked. */
  const save = async (values: OrderForm) => {
    if (create.isPending || update.isPending || !intent.begin()) return;
    const amounts = orderSums(values);
    const sumsToConfirm = sumsNeedConfirmation(amounts) ? amounts : undefined;
    let existing: Record<string, unknown> | undefined;
    if (mode === "create") {
      setChecking(true);
      const found = await intent.lookup((n) => queryClient.fetchQuery({ ...orderDetailQuery(n), staleTime: 0, retry: false }), values.orderNo.trim());
      setChecking(false);
      if (!mounted.current || found.kind === "failed") intent.end();
      if (!mounted.current) return;
      if (found.kind === "failed") return form.setFormError(t("orders.form.lookupFailed", { error: errorMessage(found.error, t) }));
      if (found.kind === "exists") existing = found.order;
    }
    // The intent goes on while the question is asked: it ends with the answer.
    if (existing || sumsToConfirm) return setCheck({ values, existing, sums: sumsToConfirm });
    send(values);
  };
  const answeredNo = () => {
    setCheck(undefined);
    intent.end();
  };

  const moneyField = (field: MoneyField, required = false) => (
    <TextField
      key={field}
      label={`${t(`orders.field.${field}` as MessageKey)}${required ? " *" : ""}`}
      help={field === "amountPaid" && !paidByHand ? t("orders.form.paidFromLines") : t("orders.form.moneyHelp")}
      inputMode="decimal"
      required={required}
      aria-required={required || undefined}
      value={values[field]}
      {...form.field(field)}
      onChange={(e) => {
        if (field === "amountPaid") setPaidByHand(e.target.value.trim() !== "");
        set({ [field]: e.target.value });
      }}
    />
  );

  const title = mode === "create" ? t("orders.form.newTitle") : t("orders.form.editTitle", { orderNo: orderNo ?? "" });

  return (
    <div className="flex flex-col gap-4">
      <FormPageHeader back={back} backLabel={mode === "edit" ? t("orders.detail.title", { orderNo: orderNo ?? "" }) : t("orders.back")} title={title} />
      <form noValidate onSubmit={(e) => form.submit(e, (v) => void save(v), () => form.setFormError(t("orders.form.problems")))} className="flex flex-col gap-4" aria-busy={pending}>
        <FormAlert message={form.formError} />

        <FormSection title={t("orders.form.section.order")}>
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="flex flex-col gap-2">
              <TextField
                label={`${t("orders.field.orderNo")} *`}
                required
                aria-required
                readOnly={mode === "edit"}
                help={mode === "edit" ? t("orders.form.orderNoFixed") : undefined}
                value={values.orderNo}
                {...form.field("orderNo")}
                onChange={(e) => set({ orderNo: e.target.value })}
              />
              {mode === "create" && (
                <p className="rounded-md border border-amber-600 bg-amber-50 p-2 text-xs text-amber-950" data-testid="replace-warning">
                  {t("orders.form.replaceWarning")}
                </p>
              )}
            </div>
            <DateTimeField
              label={`${t("orders.field.dateOrder")} *`}
              required
              help={t("orders.form.dateHelp")}
              value={values.dateOrder}
              {...form.field("dateOrder")}
              onChange={(dateOrder) => set({ dateOrder })}
            />
          </div>
        </FormSection>

        <FormSection title={t("orders.form.section.customer")}>
          {mode === "create" && (
            <div role="radiogroup" aria-label={t("orders.form.customerBy")} className="mb-3 flex flex-wrap gap-4">
              {(["id", "identity"] as const).map((by) => (
                <label key={by} className="flex items-center gap-2 text-sm text-slate-800">
                  <input type="radio" name="customerBy" value={by} checked={values.customerBy === by} onChange={() => set({ customerBy: by })} className={`h-4 w-4 accent-blue-700 ${focusRing}`} />
                  {by === "id" ? t("orders.form.byId") : t("orders.form.byIdentity")}
                </label>
              ))}
            </div>
          )}
          {values.customerBy === "id" || mode === "edit" ? (
            mode === "edit" ? (
              <TextField label={`${t("orders.field.customerId")} *`} required aria-required inputMode="numeric" value={values.customerId} {...form.field("customerId")} onChange={(e) => set({ customerId: e.target.value })} className="max-w-md" />
            ) : (
              <div className="max-w-md">
                <CustomerPicker label={`${t("orders.field.customerId")} *`} value={values.customerId} {...form.field("customerId")} onChange={(id) => set({ customerId: id })} testId="order-customer-picker" />
              </div>
            )
          ) : (
            <div className="grid gap-3 sm:grid-cols-2">
              {(["identityType", "identityValue"] as const).map((field) => (
                <TextField key={field} label={`${t(`orders.form.${field}`)} *`} required aria-required help={t(field === "identityType" ? "orders.form.identityTypeHelp" : "orders.form.identityHelp")} value={values[field]} {...form.field(field)} onChange={(e) => set({ [field]: e.target.value })} />
              ))}
            </div>
          )}
        </FormSection>

        <FormSection title={t("orders.form.section.amounts")}>
          <div className="grid gap-3 sm:grid-cols-3">
            {moneyField("amountPaid", true)}
            {moneyField("amountDiscount")}
            {moneyField("amountTotal")}
          </div>
          <div className="mt-2 text-sm text-slate-800" aria-live="polite" data-testid="order-sums">
            {sums.lines !== undefined && <p>{t("orders.form.linesSum", { sum: formatMoney(sums.lines, locale, values.currency || undefined) })}</p>}
            {sums.paidPlusDiscount !== undefined && values.amountDiscount.trim() !== "" && <p>{t("orders.form.paidPlusDiscount", { sum: formatMoney(sums.paidPlusDiscount, locale, values.currency || undefined) })}</p>}
            {sums.totalMismatch && <p className="font-medium text-amber-900">{t("orders.form.totalMismatch", { sum: formatMoney(sums.paidPlusDiscount, locale, values.currency || undefined) })}</p>}
            {sums.linesMismatch && (
              <p className="font-medium text-amber-900" data-testid="lines-mismatch">
                {t("orders.form.linesMismatch", { lines: formatMoney(sums.lines, locale, values.currency || undefined), expected: formatMoney(sums.expectedTotal, locale, values.currency || undefined) })}
              </p>
            )}
          </div>
        </FormSection>

        <FormSection title={t("orders.form.section.lines")}>
          {values.lines.length === 0 && <p className="text-sm text-slate-700">{t("orders.form.noLines")}</p>}
          <ol className="flex flex-col gap-3">
            {values.lines.map((line, index) => {
              const kept = Object.keys(line.extra);
              return (
                <li key={line.key} className="rounded-md border border-slate-200 p-3" data-testid="order-line">
                  <fieldset>
                    <legend className="text-sm font-semibold text-slate-900">{t("orders.form.lineTitle", { n: index + 1 })}</legend>
                    <div className="mt-2 grid gap-3 sm:grid-cols-3 lg:grid-cols-5">
                      {LINE_FIELDS_SHOWN.map(({ field, wide, money }) => {
                        if (field === "priceSubTotal") return <SubtotalField key={field} line={line} index={index} field={form.field(lineKey(index, field))} onChange={(patch) => setLine(index, patch)} />;
                        const required = field === "lineId" || field === "productName" || field === "qty";
                        return (
                          <TextField
                            key={field}
                            srPrefix={t("orders.form.lineTitle", { n: index + 1 })}
                            help={field === "lineId" ? t("orders.form.lineIdHelp") : undefined}
                            label={`${t(`orders.line.${field}` as MessageKey)}${required ? " *" : ""}`}
                            required={required}
                            aria-required={required || undefined}
                            inputMode={field === "qty" ? "numeric" : money ? "decimal" : undefined}
                            className={wide ? "sm:col-span-2" : ""}
                            value={line[field]}
                            {...form.field(lineKey(index, field))}
                            onChange={(e) => setLine(index, { [field]: e.target.value })}
                          />
                        );
                      })}
                    </div>
                    {kept.length > 0 && <p className="mt-2 text-xs text-slate-700">{t("orders.form.keptFields", { names: kept.join(", ") })}</p>}
                    <Button variant="ghost" className="mt-2" onClick={() => set({ lines: values.lines.filter((_, i) => i !== index) })}>
                      {t("orders.form.removeLine", { n: index + 1 })}
                    </Button>
                  </fieldset>
                </li>
              );
            })}
          </ol>
          <Button className="mt-3" onClick={() => set({ lines: [...values.lines, emptyLine(nextLineId(values.lines))] })}>
            {t("orders.form.addLine")}
          </Button>
        </FormSection>

        <FormSection title={t("orders.form.section.more")}>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            {HEADER_TEXT_FIELDS.map((field) => (
              <TextField
                key={field}
                label={t(`orders.field.${field}` as MessageKey)}
                className={field === "remark" ? "sm:col-span-2" : ""}
                value={values[field]}
                {...form.field(field)}
                onChange={(e) => set({ [field]: e.target.value })}
              />
            ))}
          </div>
        </FormSection>

        <div className="flex flex-wrap justify-end gap-2">
          <AppLink href={back} className={`rounded-md px-3 py-1.5 text-sm font-medium text-blue-800 hover:bg-blue-50 ${focusRing}`}>
            {t("orders.form.discard")}
          </AppLink>
          <Button type="submit" variant="primary" disabled={pending || intentRunning} aria-busy={pending || undefined}>
            {checking ? t("orders.form.checking") : pending ? t("orders.form.saving") : mode === "create" ? t("orders.form.create") : t("orders.form.save")}
          </Button>
        </div>
      </form>
      {check && (
        <SaveCheckDialog
          orderNo={check.values.orderNo.trim()}
          existing={check.existing}
          sums={check.sums}
          currency={check.values.currency || undefined}
          pending={create.isPending || update.isPending}
          onCancel={answeredNo}
          onConfirm={() => send(check.values)}
        />
      )}
    </div>
  );
}

/**
 * A line's subtotal: quantity × unit price, shown as such; typing an amount sets it by hand, which
 * the field says (with the computed amount beside it) until "Use quantity × unit price" is chosen.
 */
function SubtotalField({ line, index, field, onChange }: { line: LineForm; index: number; field: { "data-field": string; error?: string }; onChange: (patch: Partial<LineForm>) => void }) {
  const { t, locale } = useI18n();
  const computed = computedSubtotal(line);
  const byHand = line.subtotalByHand || (computed === undefined && line.priceSubTotal.trim() !== "");
  const help = byHand
    ? computed === undefined
      ? t("orders.form.subtotalByHandNoPrice")
      : t("orders.form.subtotalByHandHelp", { sum: formatMoney(computed, locale) })
    : t("orders.form.subtotalHelp");
  return (
    <div className="flex flex-col gap-1" data-testid={`line-${index}-subtotal`} data-by-hand={byHand || undefined}>
      <TextField
        srPrefix={t("orders.form.lineTitle", { n: index + 1 })}
        label={`${t("orders.line.priceSubTotal")}${byHand ? ` (${t("orders.form.subtotalByHand")})` : ""}`}
        inputMode="decimal"
        help={help}
        value={byHand ? line.priceSubTotal : (computed ?? "")}
        {...field}
        onChange={(e) => {
          const typed = e.target.value;
          onChange(typed.trim() === "" ? { priceSubTotal: "", subtotalByHand: false } : { priceSubTotal: typed, subtotalByHand: true });
        }}
      />
      {byHand && computed !== undefined && (
        <Button variant="ghost" className="w-fit text-xs" onClick={() => onChange({ priceSubTotal: "", subtotalByHand: false })}>
          {t("orders.form.subtotalReset")}
        </Button>
      )}
    </div>
  );
}
