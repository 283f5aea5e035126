"use client";
import { useRef, useState, type FormEvent } from "react";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { BUILT_IN_IDENTITY_TYPES, CUSTOM_IDENTITY_TYPE, emptyIdentity, type IdentityRow } from "@/lib/console/customer-create";
import { addIdentityRequest, placeAddIdentityErrors, validateAddIdentity, type AddIdentityProblem } from "@/lib/console/identity-add";
import { useDelayedFlag } from "@/lib/hooks/use-delayed-flag";
import { useUnsavedGuard } from "@/lib/hooks/use-unsaved-guard";
import type { MessageKey, Translate } from "@/lib/i18n/messages";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { SelectField, TextField } from "@/components/ui/field";

function problemText(p: AddIdentityProblem, t: Translate): string {
  return p.code === "identityExists" ? t("identityAdd.error.identityExists") : t(`customerEdit.error.${p.code}` as MessageKey, { max: p.max ?? 0 });
}

type Existing = ReadonlyArray<{ identityType?: unknown; identityValue?: unknown }>;

/**
 * The "Add an identity" form of the detail's identities section (§4.1 POST /v1/customeridentities). Checked
 * first (§8 lengths, not one the customer has); the platform's field errors land on the fields.
 * The operation invalidates the identities, so the list above refreshes by itself.
 */
export function AddIdentityForm({ customerId, existing }: { customerId: string; existing: Existing }) {
  const { t } = useI18n();
  const formRef = useRef<HTMLFormElement>(null);
  const [row, setRow] = useState<IdentityRow>(emptyIdentity("email"));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const dirty = row.value.trim() !== "" || row.name.trim() !== "" || row.customType.trim() !== "";
  useUnsavedGuard(dirty);
  const add = usePlatformMutation("identities.add", { meta: { silent: true } });
  const slow = useDelayedFlag(add.isPending);

  const edit = (patch: Partial<IdentityRow>) => setRow((r) => ({ ...r, ...patch }));
  const focusFirst = (keys: string[]) =>
    requestAnimationFrame(() => keys.map((k) => formRef.current?.querySelector<HTMLElement>(`[data-field="${k}"]`)).find(Boolean)?.focus());

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const problems = validateAddIdentity(row, existing);
    const texts = Object.fromEntries(Object.entries(problems).map(([k, p]) => [k, problemText(p, t)]));
    setErrors(texts);
    if (Object.keys(texts).length > 0) return focusFirst(Object.keys(texts));
    const request = addIdentityRequest(customerId, row);
    add.mutate(request, {
      onSuccess: () => {
        toastStore.show("success", t("identityAdd.added", { type: request.body.identityType, value: request.body.identityValue }));
        setRow(emptyIdentity(row.type === CUSTOM_IDENTITY_TYPE ? "email" : row.type));
        setErrors({});
      },
      onError: (error) => {
        const placed = placeAddIdentityErrors(row, error.fieldErrors);
        setErrors(placed.byField);
        setFormError([t("identityAdd.failed"), errorMessage(error, t), ...placed.unplaced].join(" "));
        focusFirst(Object.keys(placed.byField));
      },
    });
  };

  const custom = row.type === CUSTOM_IDENTITY_TYPE;
  return (
    <form id="add-identity-form" ref={formRef} noValidate onSubmit={onSubmit} className="mt-2 flex flex-col gap-2" aria-label={t("identityAdd.title")}>
      <SelectField
        label={t("identityAdd.type")}
        data-field={custom ? undefined : "type"}
        value={row.type}
        error={custom ? undefined : errors.type}
        onChange={(e) => edit({ type: e.target.value })}
      >
        {BUILT_IN_IDENTITY_TYPES.map((type) => (
          <option key={type} value={type}>{t(`customerEdit.identityType.${type}` as MessageKey)}</option>
        ))}
        <option value={CUSTOM_IDENTITY_TYPE}>{t("customerEdit.identityType.custom")}</option>
      </SelectField>
      {custom && (
        <TextField
          label={t("identityAdd.customType")}
          help={t("customerEdit.identity.customTypeHelp")}
          data-field="customType"
          value={row.customType}
          error={errors.customType}
          onChange={(e) => edit({ customType: e.target.value })}
        />
      )}
      <TextField label={t("identityAdd.value")} data-field="value" value={row.value} error={errors.value} onChange={(e) => edit({ value: e.target.value })} />
      <TextField label={t("identityAdd.name")} data-field="name" value={row.name} error={errors.name} onChange={(e) => edit({ name: e.target.value })} />
      {formError && (
        <p role="alert" className="text-sm text-red-800">
          {formError}
        </p>
      )}
      <div className="flex items-center gap-3">
        <Button type="submit" variant="primary" disabled={add.isPending}>
          {t("identityAdd.submit")}
        </Button>
        <span role="status" className="text-sm text-slate-700">{slow ? t("identityAdd.adding") : ""}</span>
      </div>
    </form>
  );
}
