"use client";
import { useQuery } from "@tanstack/react-query";
import { AppLink } from "@/components/ui/app-link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { customerDetailInputs } from "@/lib/customers/customer-detail-inputs";
import { changedFields, editContact, editFormFrom, placeEditErrors, updatePlan, validateEditForm, verificationDropped, verifiedLocked, type EditFlagField, type EditForm, type EditTextField } from "@/lib/customers/customer-edit";
import { problemText, problemTexts } from "@/lib/forms/field-errors";
import { useForm } from "@/lib/forms/use-form";
import type { MessageKey } from "@/lib/i18n/messages";
import { charLength } from "@/lib/platform/limits";
import { toastStore } from "@/lib/ui/toast-store";
import { attrLabel, attrNamesFor, type AttrLabels } from "@/lib/preferences/preference-rules";
import { FormAlert } from "@/components/forms/form-alert";
import { usePreferences } from "@/components/preferences/use-preferences";
import { FormPageHeader, FormSection } from "@/components/forms/form-page";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { CheckboxField, SelectField, TextField } from "@/components/ui/field";

/** Text fields in the order of the form, grouped as the detail page reads. */
const GROUPS: { title: MessageKey; fields: EditTextField[] }[] = [
  { title: "customerEdit.section.profile", fields: ["name", "nickName", "gender", "birthday", "stage", "source", "remark"] },
  { title: "customerEdit.section.contact", fields: ["mobile", "email", "telephone", "website"] },
  { title: "customerEdit.section.work", fields: ["company", "title", "industry"] },
  { title: "customerEdit.section.address", fields: ["country", "province", "city", "county", "homeAddress", "officeAddress"] },
];
const FLAG_AFTER: Partial<Record<EditTextField, EditFlagField>> = { mobile: "mobileVerified", email: "emailVerified" };

/** Loads the customer, then the form (so that the form starts from what the platform has). */
export function CustomerEdit({ id }: { id: string }) {
  const { t } = useI18n();
  const customer = useQuery({ ...platformQuery("customers.get", customerDetailInputs(id).customer), staleTime: 0 });
  // Labels only name the attributes: the form does not wait for them, nor fail without them.
  const labels = usePreferences().data?.attrLabels ?? {};
  if (customer.isPending) return <p role="status" className="text-sm text-slate-700">{t("detail.loading")}</p>;
  if (customer.isError) return <p role="alert" className="text-sm text-red-800">{errorMessage(customer.error, t)}</p>;
  const rawAttr = (customer.data as { attr?: Record<string, unknown> | null }).attr ?? null;
  return <EditCustomerForm id={id} original={editFormFrom(customer.data)} rawAttr={rawAttr} labels={labels} />;
}

/**
 * Edit a customer (§4.1 PUT /v1/customers/{id}): only changed fields are sent; `nullAble` and
 * `forceUpdate` are explained; the verified flags follow §4.1's rule in the form; platform field
 * errors land on their fields; leaving with unsaved changes asks first.
 */
function EditCustomerForm({ id, original, rawAttr, labels }: { id: string; original: EditForm; rawAttr: Record<string, unknown> | null; labels: AttrLabels }) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const router = useRouter();
  const form = useForm({
    initial: original,
    guard: true,
    isDirty: (start, values) => changedFields(start, values).length > 0,
    validate: (v) => problemTexts(validateEditForm(original, v), problemText(t, "customerEdit.error")),
  });
  const { values, errors } = form;
  const [nullAble, setNullAble] = useState(false);
  const [forceUpdate, setForceUpdate] = useState(false);
  const update = usePlatformMutation("customers.update", { meta: { silent: true } });
  const plan = updatePlan(id, original, values, { nullAble, forceUpdate }, rawAttr);
  const attrNames = attrNamesFor(rawAttr, labels);

  const save = () => {
    if (changedFields(original, values).length === 0) return form.setFormError(t("customerEdit.edit.nothing"));
    update.mutate(plan.input, {
      onSuccess: () => {
        form.reset();
        toastStore.show("success", t("customerEdit.toast.saved"));
        router.push(href(`/customers/${id}`));
      },
      onError: (error) => form.fail(errorMessage(error, t), placeEditErrors(error.fieldErrors)),
    });
  };

  const textField = (field: EditTextField) => {
    const flag = FLAG_AFTER[field];
    const onChange = (e: { target: { value: string } }) =>
      field === "mobile" || field === "email"
        ? form.edit((v) => editContact(original, v, field, e.target.value), field, flag!)
        : form.edit((v) => ({ ...v, [field]: e.target.value }), field);
    const common = { ...form.field(field), value: values[field], label: t(`field.${field}` as MessageKey), onChange };
    if (field === "gender") {
      return (
        <SelectField key={field} {...common}>
          <option value="">{t("customerEdit.notSet")}</option>
          <option value="0">{t("gender.0")}</option>
          <option value="1">{t("gender.1")}</option>
          <option value="2">{t("gender.2")}</option>
        </SelectField>
      );
    }
    const help =
      field === "homeAddress" || field === "officeAddress"
        ? t("customerEdit.help.address", { count: charLength(values[field]) })
        : field === "birthday"
          ? t("customerEdit.help.birthday")
          : field === "mobile"
            ? t("customerEdit.help.mobile")
            : field === "source"
              ? t("customerEdit.help.locked")
              : undefined;
    return <TextField key={field} help={help} className={field.endsWith("Address") || field === "remark" ? "sm:col-span-2" : ""} {...common} />;
  };

  const flagField = (flag: EditFlagField) => {
    const locked = verifiedLocked(original, values, flag);
    return (
      <CheckboxField
        key={flag}
        className="self-end"
        label={t(`field.${flag}` as MessageKey)}
        data-field={flag}
        checked={values[flag] || locked}
        disabled={locked}
        error={errors[flag]}
        help={
          locked
            ? t(flag === "mobileVerified" ? "customerEdit.verified.mobileLocked" : "customerEdit.verified.emailLocked")
            : verificationDropped(original, values, flag)
              ? t(flag === "mobileVerified" ? "customerEdit.verified.mobileDropped" : "customerEdit.verified.emailDropped")
              : t("customerEdit.verified.free")
        }
        onChange={(e) => form.edit((v) => ({ ...v, [flag]: e.target.checked }), flag)}
      />
    );
  };

  return (
    <div className="flex flex-col gap-4">
      <FormPageHeader back={href(`/customers/${id}`)} backLabel={t("customerEdit.backToCustomer")} title={t("customerEdit.edit.title", { name: original.name || original.nickName || id })} />
      <form noValidate onSubmit={(e) => form.submit(e, save)} className="flex flex-col gap-4">
        <FormAlert message={form.formError} />
        {GROUPS.map((group) => (
          <FormSection key={group.title} title={t(group.title)}>
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
              {group.fields.flatMap((field) => {
                const flag = FLAG_AFTER[field];
                return flag ? [textField(field), flagField(flag)] : [textField(field)];
              })}
            </div>
          </FormSection>
        ))}

        {attrNames.length > 0 && (
          <FormSection title={t("prefs.attrs.editTitle")}>
            <p className="mb-2 text-xs text-slate-700">{t("prefs.attrs.editHelp")}</p>
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
              {attrNames.map((name) => (
                <TextField
                  key={name}
                  {...form.field(`attr.${name}`)}
                  data-attr={name}
                  label={attrLabel(labels, name)}
                  help={labels[name] ? t("prefs.attrs.technical", { name }) : undefined}
                  value={values.attr[name] ?? ""}
                  onChange={(e) => {
                    const value = e.target.value;
                    form.edit((v) => ({ ...v, attr: { ...v.attr, [name]: value } }), `attr.${name}`);
                  }}
                />
              ))}
            </div>
          </FormSection>
        )}

        <FormSection title={t("customerEdit.section.saveOptions")}>
          <div className="flex flex-col gap-3">
            <div>
              <CheckboxField label={t("customerEdit.merge.nullAble")} help={t("customerEdit.edit.nullAbleHelp")} checked={nullAble} onChange={(e) => setNullAble(e.target.checked)} />
              {plan.kept.length > 0 && (
                <p className="ml-6 text-xs font-medium text-amber-900" data-testid="kept-fields">
                  {t("customerEdit.edit.kept", { fields: plan.kept.map((f) => t(`field.${f}` as MessageKey)).join(", ") })}
                </p>
              )}
            </div>
            <CheckboxField label={t("customerEdit.edit.forceUpdate")} help={t("customerEdit.edit.forceUpdateHelp")} checked={forceUpdate} onChange={(e) => setForceUpdate(e.target.checked)} />
          </div>
        </FormSection>

        <div className="flex items-center gap-3">
          <Button type="submit" variant="primary" disabled={update.isPending}>
            {update.isPending ? t("customerEdit.create.saving") : t("customerEdit.edit.submit")}
          </Button>
          <AppLink href={href(`/customers/${id}`)} className={`text-sm text-blue-800 underline ${focusRing}`}>
            {t("customerEdit.cancel")}
          </AppLink>
        </div>
      </form>
    </div>
  );
}
