"use client";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { CUSTOM_IDENTITY_TYPE, emptyIdentity, type IdentityRow } from "@/lib/customers/customer-create";
import { addIdentityRequest, placeAddIdentityErrors, validateAddIdentity } from "@/lib/customers/identity-add";
import { problemText, problemTexts } from "@/lib/forms/field-errors";
import { useForm } from "@/lib/forms/use-form";
import { useDelayedFlag } from "@/lib/hooks/use-delayed-flag";
import { toastStore } from "@/lib/ui/toast-store";
import { FormAlert } from "@/components/forms/form-alert";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { TextField } from "@/components/ui/field";
import { IdentityTypeFields } from "./identity-type-fields";

type Existing = ReadonlyArray<{ identityType?: unknown; identityValue?: unknown }>;

/**
 * The "Add an identity" form of the detail's identities section (§4.1 POST /v1/customeridentities). Checked
 * first (§8 lengths, not one the customer has); the platform's field errors land on the fields.
 * The operation invalidates the identities, so the list above refreshes by itself.
 */
export function AddIdentityForm({ customerId, existing }: { customerId: string; existing: Existing }) {
  const { t } = useI18n();
  const text = problemText(t, "customerEdit.error");
  const form = useForm({
    initial: () => emptyIdentity("email"),
    guard: true,
    // Only what staff typed is unsaved: a type chosen alone is not.
    isDirty: (_start, row: IdentityRow) => row.value.trim() !== "" || row.name.trim() !== "" || row.customType.trim() !== "",
    validate: (row) => problemTexts(validateAddIdentity(row, existing), (p) => (p.code === "identityExists" ? t("identityAdd.error.identityExists") : text(p))),
  });
  const add = usePlatformMutation("identities.add", { meta: { silent: true } });
  const slow = useDelayedFlag(add.isPending);
  const row = form.values;
  const edit = (patch: Partial<IdentityRow>) => form.edit((r) => ({ ...r, ...patch }), ...Object.keys(patch));

  const send = (row: IdentityRow) => {
    const request = addIdentityRequest(customerId, row);
    add.mutate(request, {
      onSuccess: () => {
        toastStore.show("success", t("identityAdd.added", { type: request.body.identityType, value: request.body.identityValue }));
        form.reset(emptyIdentity(row.type === CUSTOM_IDENTITY_TYPE ? "email" : row.type));
      },
      onError: (error) => form.fail(`${t("identityAdd.failed")} ${errorMessage(error, t)}`, placeAddIdentityErrors(row, error.fieldErrors)),
    });
  };

  return (
    <form id="add-identity-form" noValidate onSubmit={(e) => form.submit(e, send)} className="mt-2 flex flex-col gap-2" aria-label={t("identityAdd.title")}>
      <IdentityTypeFields row={row} labels={{ type: t("identityAdd.type"), customType: t("identityAdd.customType") }} keys={{ type: "type", customType: "customType" }} errors={form.errors} onChange={edit} />
      <TextField label={t("identityAdd.value")} value={row.value} {...form.field("value")} onChange={(e) => edit({ value: e.target.value })} />
      <TextField label={t("identityAdd.name")} value={row.name} {...form.field("name")} onChange={(e) => edit({ name: e.target.value })} />
      <FormAlert message={form.formError} />
      <div className="flex items-center gap-3">
        <Button type="submit" variant="primary" disabled={add.isPending}>
          {t("identityAdd.submit")}
        </Button>
        <span role="status" className="text-sm text-slate-700">{slow ? t("identityAdd.adding") : ""}</span>
      </div>
    </form>
  );
}
