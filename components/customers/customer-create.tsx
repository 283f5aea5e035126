"use client";
import { useQueryClient } from "@tanstack/react-query";
import { AppLink } from "@/components/ui/app-link";
import { useState } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { type CreateCustomerField, createOutcome, createRequest, emptyCreateForm, emptyIdentity, foundCustomerId, mergeLookups, placeFieldErrors, validateCreateForm, type CreateForm, type CreateOutcome, type IdentityRow, type LookupMatch, type MergeReason } from "@/lib/customers/customer-create";
import { problemText, problemTexts } from "@/lib/forms/field-errors";
import { useForm } from "@/lib/forms/use-form";
import type { Translate } from "@/lib/i18n/messages";
import { toastStore } from "@/lib/ui/toast-store";
import { FormAlert } from "@/components/forms/form-alert";
import { FormPageHeader, FormSection } from "@/components/forms/form-page";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { CheckboxField, SelectField, TextField } from "@/components/ui/field";
import { personText, usePerson } from "@/components/people/person-name";
import { IdentityTypeFields } from "./identity-type-fields";

function reasonText(reason: MergeReason | undefined, t: Translate): string {
  if (!reason) return t("customerEdit.outcome.mergedUnknown");
  if (reason.kind === "identity") return t("customerEdit.outcome.byIdentity", { type: reason.identityType, value: reason.identityValue });
  return t(reason.kind === "email" ? "customerEdit.outcome.byEmail" : "customerEdit.outcome.byMobile", { value: reason.value });
}

/** §4.1's query options, with the last part of their message keys (`customerEdit.merge.<key>` and `<key>Help`). */
const MERGE_OPTIONS = { mergeByEmail: "byEmail", mergeByMobile: "byMobile", nullAble: "nullAble" } as const;

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
  const form = useForm({ initial: emptyCreateForm, guard: true, validate: (v: CreateForm) => problemTexts(validateCreateForm(v), problemText(t, "customerEdit.error")) });
  const [checking, setChecking] = useState(false);
  const [outcome, setOutcome] = useState<CreateOutcome | null>(null);
  const outcomePerson = usePerson(outcome?.customerId);
  const create = usePlatformMutation("customers.createWithIdentities", { meta: { silent: true } });
  const { values, errors } = form;

  const setCustomer = (field: CreateCustomerField, value: string) => form.edit((v) => ({ ...v, customer: { ...v.customer, [field]: value } }), field);
  const setIdentity = (index: number, patch: Partial<IdentityRow>) =>
    form.edit((v) => ({ ...v, identities: v.identities.map((row, i) => (i === index ? { ...row, ...patch } : row)) }), ...Object.keys(patch).map((k) => `identities.${index}.${k === "type" ? "customType" : k}`));
  const setIdentities = (identities: IdentityRow[]) => form.edit((v) => ({ ...v, identities }));

  const send = async (values: CreateForm) => {
    setOutcome(null);
    const request = createRequest(values);
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
      return form.fail(errorMessage(error, t));
    } finally {
      setChecking(false);
    }
    create.mutate(request, {
      onSuccess: (customer) => {
        const result = createOutcome(customer.id, matches);
        setOutcome(result);
        form.reset(emptyCreateForm());
        toastStore.show("success", result.kind === "created" ? t("customerEdit.toast.created") : t("customerEdit.toast.merged", { name: result.customerId }));
      },
      onError: (error) => form.fail(errorMessage(error, t), placeFieldErrors(values, error.fieldErrors)),
    });
  };

  const busy = checking || create.isPending;
  const fieldInput = (field: CreateCustomerField) => ({ ...form.field(field), value: values.customer[field], onChange: (e: { target: { value: string } }) => setCustomer(field, e.target.value) });

  return (
    <div className="flex flex-col gap-4">
      <FormPageHeader back={href("/customers")} backLabel={t("detail.back")} title={t("customerEdit.create.title")} />

      {outcome && (
        <div role="status" data-testid="create-outcome" data-outcome={outcome.kind} className="rounded-lg border border-green-700 bg-green-50 p-4 text-sm text-slate-900">
          <p className="font-medium">
            {outcome.kind === "created" ? t("customerEdit.outcome.created", { id: outcome.customerId }) : t("customerEdit.outcome.merged", { name: personText(outcome.customerId, outcomePerson) })}
          </p>
          {outcome.kind === "merged" && <p className="mt-1">{reasonText(outcome.reason, t)}</p>}
          <AppLink href={href(`/customers/${outcome.customerId}`)} className={`mt-2 inline-block text-blue-800 underline ${focusRing}`}>
            {t("customerEdit.outcome.open")}
          </AppLink>
        </div>
      )}

      <form noValidate onSubmit={(e) => form.submit(e, send)} className="flex flex-col gap-4" aria-describedby="create-intro">
        <p id="create-intro" className="text-sm text-slate-700">{t("customerEdit.create.intro")}</p>
        <FormAlert message={form.formError} />

        <FormSection title={t("customerEdit.section.profile")}>
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
        </FormSection>

        <FormSection title={t("customerEdit.section.identities")} intro={t("customerEdit.identities.help")}>
          <ul className="flex flex-col gap-3">
            {values.identities.map((row, i) => {
              const n = i + 1;
              const key = `identities.${i}`;
              return (
                <li key={i} className="grid grid-cols-1 items-start gap-2 border-b border-slate-100 pb-3 sm:grid-cols-[10rem_1fr_1fr_auto]" data-testid={`identity-row-${i}`}>
                  <div className="flex flex-col gap-2">
                    <IdentityTypeFields
                      row={row}
                      labels={{ type: t("customerEdit.identity.type", { n }), customType: t("customerEdit.identity.customType", { n }) }}
                      keys={{ type: `${key}.customType`, customType: `${key}.customType` }}
                      errors={errors}
                      onChange={(patch) => setIdentity(i, patch)}
                    />
                  </div>
                  {(["value", "name"] as const).map((part) => (
                    <TextField key={part} label={t(`customerEdit.identity.${part}`, { n })} autoComplete="off" value={row[part]} {...form.field(`${key}.${part}`)} onChange={(e) => setIdentity(i, { [part]: e.target.value })} />
                  ))}
                  <Button variant="ghost" className="sm:mt-6" aria-label={t("customerEdit.identity.remove", { n })} onClick={() => setIdentities(values.identities.filter((_, j) => j !== i))}>
                    {t("customerEdit.identity.removeShort")}
                  </Button>
                </li>
              );
            })}
          </ul>
          <Button className="mt-3" onClick={() => setIdentities([...values.identities, emptyIdentity("mobile")])}>
            {t("customerEdit.identity.add")}
          </Button>
        </FormSection>

        <FormSection title={t("customerEdit.section.merge")} intro={t("customerEdit.merge.intro")}>
          <div className="flex flex-col gap-3">
            {(Object.keys(MERGE_OPTIONS) as (keyof typeof MERGE_OPTIONS)[]).map((option) => (
              <CheckboxField
                key={option}
                label={t(`customerEdit.merge.${MERGE_OPTIONS[option]}`)}
                help={t(`customerEdit.merge.${MERGE_OPTIONS[option]}Help`)}
                checked={values[option]}
                onChange={(e) => form.edit((v) => ({ ...v, [option]: e.target.checked }))}
              />
            ))}
          </div>
        </FormSection>

        <div className="flex items-center gap-3">
          <Button type="submit" variant="primary" disabled={busy}>
            {busy ? t("customerEdit.create.saving") : t("customerEdit.create.submit")}
          </Button>
          <AppLink href={href("/customers")} className={`text-sm text-blue-800 underline ${focusRing}`}>
            {t("customerEdit.cancel")}
          </AppLink>
        </div>
      </form>
    </div>
  );
}
