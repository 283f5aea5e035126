"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { customerDetailInputs } from "@/lib/console/customer-detail-inputs";
import {
  changedFields,
  editFormFrom,
  placeEditErrors,
  updatePlan,
  validateEditForm,
  verifiedLocked,
  type EditFlagField,
  type EditForm,
  type EditProblem,
  type EditTextField,
} from "@/lib/console/customer-edit";
import { useUnsavedGuard } from "@/lib/hooks/use-unsaved-guard";
import type { MessageKey, Translate } from "@/lib/i18n/messages";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { CheckboxField, SelectField, TextField } from "@/components/ui/field";

function editProblemText(problem: EditProblem, t: Translate): string {
  return t(`customerEdit.error.${problem.code}` as MessageKey, { max: problem.max ?? 0 });
}

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
  if (customer.isPending) return <p role="status" className="text-sm text-slate-700">{t("detail.loading")}</p>;
  if (customer.isError) return <p role="alert" className="text-sm text-red-800">{errorMessage(customer.error, t)}</p>;
  return <EditCustomerForm id={id} original={editFormFrom(customer.data)} />;
}

/**
 * Edit a customer (§4.1 PUT /v1/customers/{id}): only changed fields are sent; `nullAble` and
 * `forceUpdate` are explained; the verified flags follow §4.1's rule in the form; platform field
 * errors land on their fields; leaving with unsaved changes asks first.
 */
function EditCustomerForm({ id, original }: { id: string; original: EditForm }) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const router = useRouter();
  const [form, setForm] = useState<EditForm>(original);
  const [nullAble, setNullAble] = useState(false);
  const [forceUpdate, setForceUpdate] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const dirty = !saved && changedFields(original, form).length > 0;
  useUnsavedGuard(dirty);
  const update = usePlatformMutation("customers.update", { meta: { silent: true } });
  const plan = updatePlan(id, original, form, { nullAble, forceUpdate });

  const focusFirst = (keys: string[]) =>
    requestAnimationFrame(() => keys.map((k) => document.querySelector<HTMLElement>(`[data-field="${k}"]`)).find(Boolean)?.focus());

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const problems = validateEditForm(original, form);
    if (Object.keys(problems).length > 0) {
      setErrors(Object.fromEntries(Object.entries(problems).map(([k, p]) => [k, editProblemText(p, t)])));
      focusFirst(Object.keys(problems));
      return;
    }
    setErrors({});
    if (changedFields(original, form).length === 0) {
      setFormError(t("customerEdit.edit.nothing"));
      return;
    }
    update.mutate(plan.input, {
      onSuccess: () => {
        setSaved(true);
        toastStore.show("success", t("customerEdit.toast.saved"));
        router.push(href(`/customers/${id}`));
      },
      onError: (error) => {
        const placed = placeEditErrors(error.fieldErrors);
        setErrors(placed.byField);
        setFormError([errorMessage(error, t), ...placed.unplaced].join(" "));
        focusFirst(Object.keys(placed.byField));
      },
    });
  };

  const textField = (field: EditTextField) => {
    const common = {
      "data-field": field,
      value: form[field],
      error: errors[field],
      label: t(`field.${field}` as MessageKey),
      onChange: (e: { target: { value: string } }) => setForm({ ...form, [field]: e.target.value }),
    };
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
        ? t("customerEdit.help.address", { count: form[field].length })
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
    const locked = verifiedLocked(original, form, flag);
    const helpId = `${flag}-help`;
    return (
      <div key={flag} className="flex flex-col gap-1 self-end">
        <CheckboxField
          label={t(`field.${flag}` as MessageKey)}
          data-field={flag}
          checked={form[flag] || locked}
          disabled={locked}
          aria-describedby={helpId}
          aria-invalid={errors[flag] ? true : undefined}
          onChange={(e) => setForm({ ...form, [flag]: e.target.checked })}
        />
        <p id={helpId} className={`ml-6 text-xs ${errors[flag] ? "font-medium text-red-700" : "text-slate-700"}`}>
          {errors[flag] ?? (locked ? t(flag === "mobileVerified" ? "customerEdit.verified.mobileLocked" : "customerEdit.verified.emailLocked") : t("customerEdit.verified.free"))}
        </p>
      </div>
    );
  };

  return (
    <div className="flex flex-col gap-4">
      <Link href={href(`/customers/${id}`)} className={`text-sm text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>
        ← {t("customerEdit.backToCustomer")}
      </Link>
      <h1 className="text-xl font-semibold text-slate-900">{t("customerEdit.edit.title", { name: original.name || original.nickName || id })}</h1>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        {formError && (
          <div role="alert" className="rounded-md border border-red-300 bg-white p-3 text-sm text-red-800">
            {formError}
          </div>
        )}
        {GROUPS.map((group) => (
          <fieldset key={group.title} className="rounded-lg border border-slate-300 bg-white p-4">
            <legend className="px-1 text-base font-semibold text-slate-900">{t(group.title)}</legend>
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
              {group.fields.flatMap((field) => {
                const flag = FLAG_AFTER[field];
                return flag ? [textField(field), flagField(flag)] : [textField(field)];
              })}
            </div>
          </fieldset>
        ))}

        <fieldset className="rounded-lg border border-slate-300 bg-white p-4">
          <legend className="px-1 text-base font-semibold text-slate-900">{t("customerEdit.section.saveOptions")}</legend>
          <div className="flex flex-col gap-3">
            <div>
              <CheckboxField label={t("customerEdit.merge.nullAble")} aria-describedby="edit-nullable-help" checked={nullAble} onChange={(e) => setNullAble(e.target.checked)} />
              <p id="edit-nullable-help" className="ml-6 text-xs text-slate-700">{t("customerEdit.edit.nullAbleHelp")}</p>
              {plan.kept.length > 0 && (
                <p className="ml-6 text-xs font-medium text-amber-900" data-testid="kept-fields">
                  {t("customerEdit.edit.kept", { fields: plan.kept.map((f) => t(`field.${f}` as MessageKey)).join(", ") })}
                </p>
              )}
            </div>
            <div>
              <CheckboxField label={t("customerEdit.edit.forceUpdate")} aria-describedby="edit-force-help" checked={forceUpdate} onChange={(e) => setForceUpdate(e.target.checked)} />
              <p id="edit-force-help" className="ml-6 text-xs text-slate-700">{t("customerEdit.edit.forceUpdateHelp")}</p>
            </div>
          </div>
        </fieldset>

        <div className="flex items-center gap-3">
          <Button type="submit" variant="primary" disabled={update.isPending}>
            {update.isPending ? t("customerEdit.create.saving") : t("customerEdit.edit.submit")}
          </Button>
          <Link href={href(`/customers/${id}`)} className={`text-sm text-blue-800 underline ${focusRing}`}>
            {t("customerEdit.cancel")}
          </Link>
        </div>
      </form>
    </div>
  );
}
