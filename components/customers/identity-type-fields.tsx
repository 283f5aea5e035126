"use client";
import { BUILT_IN_IDENTITY_TYPES, CUSTOM_IDENTITY_TYPE, type IdentityRow } from "@/lib/customers/customer-create";
import type { FieldErrors } from "@/lib/forms/field-errors";
import type { MessageKey } from "@/lib/i18n/messages";
import { useI18n } from "@/components/i18n/i18n-provider";
import { SelectField, TextField } from "@/components/ui/field";

type Props = {
  row: IdentityRow;
  labels: { type: string; customType: string };
  /** Form field keys of the select and of the custom type's name (a type error goes on the one shown). */
  keys: { type: string; customType: string };
  errors: FieldErrors;
  onChange: (patch: Partial<IdentityRow>) => void;
};

/** An identity's type: a built-in one (§2.2), or "Custom type…" and its name. */
export function IdentityTypeFields({ row, labels, keys, errors, onChange }: Props) {
  const { t } = useI18n();
  const custom = row.type === CUSTOM_IDENTITY_TYPE;
  return (
    <>
      <SelectField label={labels.type} data-field={custom ? undefined : keys.type} value={row.type} error={custom ? undefined : errors[keys.type]} onChange={(e) => onChange({ type: e.target.value })}>
        {BUILT_IN_IDENTITY_TYPES.map((type) => (
          <option key={type} value={type}>{t(`customerEdit.identityType.${type}` as MessageKey)}</option>
        ))}
        <option value={CUSTOM_IDENTITY_TYPE}>{t("customerEdit.identityType.custom")}</option>
      </SelectField>
      {custom && (
        <TextField label={labels.customType} help={t("customerEdit.identity.customTypeHelp")} data-field={keys.customType} value={row.customType} error={errors[keys.customType]} onChange={(e) => onChange({ customType: e.target.value })} />
      )}
    </>
  );
}
