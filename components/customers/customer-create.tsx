"use client";
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import {
  BUILT_IN_IDENTITY_TYPES,
  type CreateCustomerField,
  createOutcome,
  createRequest,
  CUSTOM_IDENTITY_TYPE,
  emptyCreateForm,
  emptyIdentity,
  foundCustomerId,
  mergeLookups,
  placeFieldErrors,
  validateCreateForm,
  type CreateForm,
  type CreateOutcome,
  type FormProblem,
  type LookupMatch,
  type MergeReason,
} from "@/lib/console/customer-create";
import { useUnsavedGuard } from "@/lib/hooks/use-unsaved-guard";
import type { MessageKey, Translate } from "@/lib/i18n/messages";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { CheckboxField, SelectField, TextField } from "@/components/ui/field";

export function problemText(problem: FormProblem, t: Translate): string {
  return t(`customerEdit.error.${problem.code}` as MessageKey, { max: problem.max ?? 0 });
}

export function reasonText(reason: MergeReason | undefined, t: Translate): string {
  if (!reason) return t("customerEdit.outcome.mergedUnknown");
  if (reason.kind === "identity") return t("customerEdit.outcome.byIdentity", { type: reason.identityType, value: reason.identityValue });
  return t(reason.kind === "email" ? "customerEdit.outcome.byEmail" : "customerEdit.outcome.byMobile", { value: reason.value });
}

/**
 * Create a customer with identities (§4.1 POST /v1/customerandidentities). The platform answers
 * with the customer either way, so just before sending the form looks up the customers §4.1's
 * rules could pick (bound identities, then email and mobile when merging by them); a returned id
 * among them means "merged into that customer", a new id means "created".
 */
export function CustomerCreate() {
  const { t } = useI18n();
  const href = useConsoleHref();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<CreateForm>(emptyCreateForm);
  const [dirty, setDirty] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [outcome, setOutcome] = useState<CreateOutcome | null>(null);
  useUnsavedGuard(dirty);

  const create = usePlatformMutation("customers.createWithIdentities", { meta: { silent: true } });

  const edit = (next: CreateForm) => {
    setForm(next);
    setDirty(true);
  };
  const setCustomer = (field: CreateCustomerField, value: string) => edit({ ...form, customer: { ...form.customer, [field]: value } });
  const setIdentity = (index: number, patch: Partial<CreateForm["identities"][number]>) =>
    edit({ ...form, identities: form.identities.map((row, i) => (i === index ? { ...row, ...patch } : row)) });

  const focusFirstError = (keys: string[]) => {
    requestAnimationFrame(() => {
      const first = keys.map((k) => document.querySelector<HTMLElement>(`[data-field="${k}"]`)).find(Boolean);
      first?.focus();
    });
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    setOutcome(null);
    const problems = validateCreateForm(form);
    if (Object.keys(problems).length > 0) {
      setErrors(Object.fromEntries(Object.entries(problems).map(([k, p]) => [k, problemText(p, t)])));
      focusFirstError(Object.keys(problems));
      return;
    }
    setErrors({});
    const request = createRequest(form);
    let matches: (LookupMatch | undefined)[];
    setChecking(true);
    try {
      matches = await Promise.all(
        mergeLookups(request).map(async (lookup) => {
          // Always fresh: a cached answer could call a new customer "merged" or the reverse.
          const result = await queryClient.fetchQuery({ ...platformQuery(lookup.operation, lookup.input as never), staleTime: 0 });
          const customerId = foundCustomerId(result);
          return customerId ? { reason: lookup.reason, customerId } : undefined;
        }),
      );
    } catch (error) {
      setFormError(errorMessage(error, t));
      setChecking(false);
      return;
    }
    setChecking(false);
    create.mutate(request, {
      onSuccess: (customer) => {
        const result = createOutcome(customer.id, matches);
        setOutcome(result);
        setDirty(false);
        setForm(emptyCreateForm());
        toastStore.show("success", result.kind === "created" ? t("customerEdit.toast.created") : t("customerEdit.toast.merged", { id: result.customerId }));
      },
      onError: (error) => {
        const placed = placeFieldErrors(form, error.fieldErrors);
        setErrors(placed.byField);
        setFormError([errorMessage(error, t), ...placed.unplaced].join(" "));
        focusFirstError(Object.keys(placed.byField));
      },
    });
  };

  const busy = checking || create.isPending;
  const fieldInput = (field: CreateCustomerField) => ({
    "data-field": field,
    value: form.customer[field],
    error: errors[field],
    onChange: (e: { target: { value: string } }) => setCustomer(field, e.target.value),
  });

  return (
    <div className="flex flex-col gap-4">
      <Link href={href("/customers")} className={`text-sm text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>
        ← {t("detail.back")}
      </Link>
      <h1 className="text-xl font-semibold text-slate-900">{t("customerEdit.create.title")}</h1>

      {outcome && (
        <div role="status" data-testid="create-outcome" data-outcome={outcome.kind} className="rounded-lg border border-green-700 bg-green-50 p-4 text-sm text-slate-900">
          <p className="font-medium">
            {outcome.kind === "created" ? t("customerEdit.outcome.created", { id: outcome.customerId }) : t("customerEdit.outcome.merged", { id: outcome.customerId })}
          </p>
          {outcome.kind === "merged" && <p className="mt-1">{reasonText(outcome.reason, t)}</p>}
          <Link href={href(`/customers/${outcome.customerId}`)} className={`mt-2 inline-block text-blue-800 underline ${focusRing}`}>
            {t("customerEdit.outcome.open")}
          </Link>
        </div>
      )}

      <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4" aria-describedby="create-intro">
        <p id="create-intro" className="text-sm text-slate-700">{t("customerEdit.create.intro")}</p>
        {formError && (
          <div role="alert" className="rounded-md border border-red-300 bg-white p-3 text-sm text-red-800">
            {formError}
          </div>
        )}

        <fieldset className="rounded-lg border border-slate-300 bg-white p-4">
          <legend className="px-1 text-base font-semibold text-slate-900">{t("customerEdit.section.profile")}</legend>
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
            <TextField label={t("field.name")} autoComplete="off" {...fieldInput("name")} />
            <TextField label={t("field.mobile")} help={t("customerEdit.help.mobile")} autoComplete="off" {...fieldInput("mobile")} />
            <TextField label={t("field.email")} type="email" autoComplete="off" {...fieldInput("email")} />
            <SelectField label={t("field.gender")} {...fieldInput("gender")}>
              <option value="">{t("customerEdit.notSet")}</option>
              <option value="0">{t("gender.0")}</option>
              <option value="1">{t("gender.1")}</option>
              <option value="2">{t("gender.2")}</option>
            </SelectField>
            <TextField label={t("field.birthday")} help={t("customerEdit.help.birthday")} placeholder="YYYY-MM-DD" {...fieldInput("birthday")} />
            <TextField label={t("field.company")} {...fieldInput("company")} />
            <TextField label={t("field.title")} {...fieldInput("title")} />
            <TextField label={t("field.stage")} {...fieldInput("stage")} />
            <TextField label={t("field.source")} {...fieldInput("source")} />
            <TextField label={t("field.remark")} className="sm:col-span-2 lg:col-span-3" {...fieldInput("remark")} />
          </div>
        </fieldset>

        <fieldset className="rounded-lg border border-slate-300 bg-white p-4">
          <legend className="px-1 text-base font-semibold text-slate-900">{t("customerEdit.section.identities")}</legend>
          <p className="mb-3 text-sm text-slate-700">{t("customerEdit.identities.help")}</p>
          <ul className="flex flex-col gap-3">
            {form.identities.map((row, i) => {
              const custom = row.type === CUSTOM_IDENTITY_TYPE;
              const n = i + 1;
              return (
                <li key={i} className="grid grid-cols-1 items-start gap-2 border-b border-slate-100 pb-3 sm:grid-cols-[10rem_1fr_1fr_auto]" data-testid={`identity-row-${i}`}>
                  <div className="flex flex-col gap-2">
                    <SelectField
                      label={t("customerEdit.identity.type", { n })}
                      data-field={custom ? undefined : `identities.${i}.customType`}
                      value={row.type}
                      error={custom ? undefined : errors[`identities.${i}.customType`]}
                      onChange={(e) => setIdentity(i, { type: e.target.value })}
                    >
                      {BUILT_IN_IDENTITY_TYPES.map((type) => (
                        <option key={type} value={type}>{t(`customerEdit.identityType.${type}` as MessageKey)}</option>
                      ))}
                      <option value={CUSTOM_IDENTITY_TYPE}>{t("customerEdit.identityType.custom")}</option>
                    </SelectField>
                    {custom && (
                      <TextField
                        label={t("customerEdit.identity.customType", { n })}
                        help={t("customerEdit.identity.customTypeHelp")}
                        data-field={`identities.${i}.customType`}
                        value={row.customType}
                        error={errors[`identities.${i}.customType`]}
                        onChange={(e) => setIdentity(i, { customType: e.target.value })}
                      />
                    )}
                  </div>
                  <TextField
                    label={t("customerEdit.identity.value", { n })}
                    data-field={`identities.${i}.value`}
                    autoComplete="off"
                    value={row.value}
                    error={errors[`identities.${i}.value`]}
                    onChange={(e) => setIdentity(i, { value: e.target.value })}
                  />
                  <TextField
                    label={t("customerEdit.identity.name", { n })}
                    data-field={`identities.${i}.name`}
                    autoComplete="off"
                    value={row.name}
                    error={errors[`identities.${i}.name`]}
                    onChange={(e) => setIdentity(i, { name: e.target.value })}
                  />
                  <Button variant="ghost" className="sm:mt-6" aria-label={t("customerEdit.identity.remove", { n })} onClick={() => edit({ ...form, identities: form.identities.filter((_, j) => j !== i) })}>
                    {t("customerEdit.identity.removeShort")}
                  </Button>
                </li>
              );
            })}
          </ul>
          <Button className="mt-3" onClick={() => edit({ ...form, identities: [...form.identities, emptyIdentity("mobile")] })}>
            {t("customerEdit.identity.add")}
          </Button>
        </fieldset>

        <fieldset className="rounded-lg border border-slate-300 bg-white p-4">
          <legend className="px-1 text-base font-semibold text-slate-900">{t("customerEdit.section.merge")}</legend>
          <p className="mb-3 text-sm text-slate-700">{t("customerEdit.merge.intro")}</p>
          <div className="flex flex-col gap-3">
            <div>
              <CheckboxField label={t("customerEdit.merge.byEmail")} aria-describedby="merge-email-help" checked={form.mergeByEmail} onChange={(e) => edit({ ...form, mergeByEmail: e.target.checked })} />
              <p id="merge-email-help" className="ml-6 text-xs text-slate-700">{t("customerEdit.merge.byEmailHelp")}</p>
            </div>
            <div>
              <CheckboxField label={t("customerEdit.merge.byMobile")} aria-describedby="merge-mobile-help" checked={form.mergeByMobile} onChange={(e) => edit({ ...form, mergeByMobile: e.target.checked })} />
              <p id="merge-mobile-help" className="ml-6 text-xs text-slate-700">{t("customerEdit.merge.byMobileHelp")}</p>
            </div>
            <div>
              <CheckboxField label={t("customerEdit.merge.nullAble")} aria-describedby="merge-nullable-help" checked={form.nullAble} onChange={(e) => edit({ ...form, nullAble: e.target.checked })} />
              <p id="merge-nullable-help" className="ml-6 text-xs text-slate-700">{t("customerEdit.merge.nullAbleHelp")}</p>
            </div>
          </div>
        </fieldset>

        <div className="flex items-center gap-3">
          <Button type="submit" variant="primary" disabled={busy}>
            {busy ? t("customerEdit.create.saving") : t("customerEdit.create.submit")}
          </Button>
          <Link href={href("/customers")} className={`text-sm text-blue-800 underline ${focusRing}`}>
            {t("customerEdit.cancel")}
          </Link>
        </div>
      </form>
    </div>
  );
}
