"use client";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { dimensionProblems, dimensionRequest, placeTagErrors, type DimensionForm } from "@/lib/tags/tag-forms";
import { onlyProblems } from "@/lib/forms/field-errors";
import { useForm } from "@/lib/forms/use-form";
import { charLength, LIMITS } from "@/lib/platform/limits";
import { toastStore } from "@/lib/ui/toast-store";
import { DialogActions } from "@/components/forms/confirm-dialog";
import { FormAlert } from "@/components/forms/form-alert";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-message";
import { TextField } from "@/components/ui/field";

const EMPTY: DimensionForm = { name: "", dimensionKey: "" };

/** Creates a tag dimension (§4.5 POST /v1/tagdimensions): name and key, each ≤ 255 (§8). */
export function CreateDimensionDialog({ open, knownKeys, onClose }: { open: boolean; knownKeys: readonly string[]; onClose: () => void }) {
  const { t } = useI18n();
  const form = useForm({
    initial: EMPTY,
    validate: (v) => {
      const p = dimensionProblems(v, knownKeys);
      return onlyProblems({
        name: p.name && t(`tags.error.${p.name}`, { max: LIMITS.dimensionName }),
        dimensionKey: p.dimensionKey && (p.dimensionKey === "taken" ? t("tags.dimensions.keyTaken") : t(`tags.error.${p.dimensionKey}`, { max: LIMITS.dimensionKey })),
      });
    },
  });
  const create = usePlatformMutation("tagDimensions.create", {
    meta: { silent: true },
    onSuccess: (d) => {
      toastStore.show("success", t("tags.dimensions.created", { name: d.name ?? d.dimensionKey ?? "" }));
      close();
    },
    onError: (error) => form.fail(errorMessage(error, t), placeTagErrors(["name", "dimensionKey"], error.fieldErrors)),
  });
  const close = () => {
    form.reset(EMPTY);
    create.reset();
    onClose();
  };
  const input = (field: keyof DimensionForm, label: string, help: string) => (
    <TextField label={label} name={field} required autoFocus={field === "name"} value={form.values[field]} help={help} {...form.field(field)} onChange={(e) => form.edit((v) => ({ ...v, [field]: e.target.value }), field)} />
  );
  return (
    <Dialog open={open} title={t("tags.dimensions.createTitle")} onClose={close}>
      <form onSubmit={(e) => form.submit(e, (v) => !create.isPending && create.mutate(dimensionRequest(v)))} noValidate className="flex flex-col gap-4">
        {input("name", t("tags.dimensions.name"), t("tags.dimensions.nameHelp", { max: LIMITS.dimensionName, count: charLength(form.values.name.trim()) }))}
        {input("dimensionKey", t("tags.dimensions.key"), t("tags.dimensions.keyHelp", { max: LIMITS.dimensionKey, count: charLength(form.values.dimensionKey.trim()) }))}
        <FormAlert message={form.formError} />
        <DialogActions cancel={t("tags.cancel")} onCancel={close} confirm={t("tags.dimensions.create")} pending={create.isPending} pendingLabel={t("tags.saving")} />
      </form>
    </Dialog>
  );
}
