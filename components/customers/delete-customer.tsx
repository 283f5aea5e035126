"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-message";

/** Delete a customer (§4.1 DELETE, HTTP 204) after a confirmation; then the list, with a toast. */
export function DeleteCustomer({ id, name }: { id: string; name: string }) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const remove = usePlatformMutation("customers.delete", {
    meta: { silent: true },
    onSuccess: () => {
      toastStore.show("success", t("customerEdit.toast.deleted", { id }));
      router.push(href("/customers"));
    },
  });
  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        {t("customerDetail.delete")}
      </Button>
      <Dialog open={open} role="alertdialog" title={t("customerDetail.deleteTitle")} onClose={() => setOpen(false)}>
        <p className="text-sm">{t("customerDetail.deleteBody", { name, id })}</p>
        {remove.isError && (
          <p role="alert" className="text-sm text-red-800">
            {errorMessage(remove.error, t)}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button onClick={() => setOpen(false)}>{t("customerEdit.cancel")}</Button>
          <Button variant="danger" disabled={remove.isPending || remove.isSuccess} onClick={() => remove.mutate({ params: { id } })}>
            {t("customerDetail.deleteConfirm")}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
