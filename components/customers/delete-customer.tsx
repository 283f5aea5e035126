"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { toastStore } from "@/lib/ui/toast-store";
import { ConfirmDialog } from "@/components/forms/confirm-dialog";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button } from "@/components/ui/button";

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
      <ConfirmDialog open={open} title={t("customerDetail.deleteTitle")} onClose={() => setOpen(false)} call={remove}
        cancel={t("customerEdit.cancel")} confirm={t("customerDetail.deleteConfirm")} pending={remove.isPending || remove.isSuccess} onConfirm={() => remove.mutate({ params: { id } })}>
        <p className="text-sm">{t("customerDetail.deleteBody", { name, id })}</p>
      </ConfirmDialog>
    </>
  );
}
