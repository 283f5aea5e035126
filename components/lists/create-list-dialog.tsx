"use client";
import { useState, type FormEvent } from "react";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { LIST_NAME_MAX, listNameProblem } from "@/lib/console/lists-state";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-message";
import { TextField } from "@/components/ui/field";

/** Creates a list (§4.4 POST /v1/lists): name required, at most 255 characters (§8), not unique. */
export function CreateListDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useI18n();
  const [name, setName] = useState("");
  const [touched, setTouched] = useState(false);
  const create = usePlatformMutation("lists.create", {
    meta: { silent: true },
    onSuccess: (list) => {
      toastStore.show("success", t("lists.created", { name: list.name ?? "" }));
      close();
    },
  });
  const close = () => {
    setName("");
    setTouched(false);
    create.reset();
    onClose();
  };
  const problem = listNameProblem(name);
  const platformFieldError = create.error?.fieldErrors.find((f) => f.field === "name" || f.field.endsWith(".name"))?.message;
  const fieldError = touched && problem ? t(problem === "required" ? "lists.nameRequired" : "lists.nameTooLong", { max: LIST_NAME_MAX }) : platformFieldError;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem || create.isPending) return;
    create.mutate({ body: { name } });
  };
  return (
    <Dialog open={open} title={t("lists.createTitle")} onClose={close}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <TextField
          label={t("lists.name")}
          help={t("lists.nameHelp", { max: LIST_NAME_MAX, count: [...name].length })}
          error={fieldError}
          value={name}
          required
          autoFocus
          onChange={(e) => {
            setName(e.target.value);
            if (create.error) create.reset();
          }}
          name="name"
        />
        {create.error && !platformFieldError && (
          <p role="alert" className="text-sm text-red-700">
            {errorMessage(create.error, t)}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button onClick={close}>{t("lists.cancel")}</Button>
          <Button type="submit" variant="primary" disabled={create.isPending}>
            {create.isPending ? t("lists.creating") : t("lists.create")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
