"use client";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { listNameProblem } from "@/lib/lists/lists-state";
import { onlyProblems, placeErrors } from "@/lib/forms/field-errors";
import { useForm } from "@/lib/forms/use-form";
import { charLength, LIMITS } from "@/lib/platform/limits";
import { toastStore } from "@/lib/ui/toast-store";
import { DialogActions } from "@/components/forms/confirm-dialog";
import { FormAlert } from "@/components/forms/form-alert";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-message";
import { TextField } from "@/components/ui/field";

/** Creates a list (§4.4 POST /v1/lists): name required, at most 255 characters (§8), not unique. */
export function CreateListDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useI18n();
  const max = LIMITS.listName;
  const form = useForm({
    initial: "",
    validate: (name) => {
      const problem = listNameProblem(name);
      return onlyProblems({ name: problem && t(problem === "required" ? "lists.nameRequired" : "lists.nameTooLong", { max }) });
    },
  });
  const create = usePlatformMutation("lists.create", {
    meta: { silent: true },
    onSuccess: (list) => {
      toastStore.show("success", t("lists.created", { name: list.name ?? "" }));
      close();
    },
    onError: (error) => form.fail(errorMessage(error, t), placeErrors(error.fieldErrors, (field) => (field.split(".").pop() === "name" ? "name" : undefined))),
  });
  const close = () => {
    form.reset("");
    create.reset();
    onClose();
  };
  return (
    <Dialog open={open} title={t("lists.createTitle")} onClose={close}>
      <form onSubmit={(e) => form.submit(e, (name) => !create.isPending && create.mutate({ body: { name } }))} noValidate className="flex flex-col gap-4">
        <TextField
          label={t("lists.name")}
          help={t("lists.nameHelp", { max, count: charLength(form.values) })}
          value={form.values}
          required
          autoFocus
          {...form.field("name")}
          onChange={(e) => form.edit(e.target.value, "name")}
          name="name"
        />
        <FormAlert message={form.formError} />
        <DialogActions cancel={t("lists.cancel")} onCancel={close} confirm={t("lists.create")} pending={create.isPending} pendingLabel={t("lists.creating")} />
      </form>
    </Dialog>
  );
}
