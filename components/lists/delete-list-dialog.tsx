"use client";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import type { List } from "@/lib/platform/resources";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-message";

/** Deletes a list after confirmation (§4.4 DELETE /v1/lists/{id}); the customers stay, and the dialog says so. */
export function DeleteListDialog({ list, onClose, onDeleted }: { list: List | undefined; onClose: () => void; onDeleted?: () => void }) {
  const { t } = useI18n();
  const remove = usePlatformMutation("lists.delete", {
    meta: { silent: true },
    onSuccess: () => {
      toastStore.show("success", t("lists.deleted", { name: list?.name ?? list?.id ?? "" }));
      close();
      onDeleted?.();
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Dialog open={list !== undefined} title={t("lists.deleteTitle", { name: list?.name || list?.id || "" })} onClose={close} role="alertdialog">
      <p className="text-sm text-slate-800">{t("lists.deleteBody")}</p>
      {remove.error && (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(remove.error, t)}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button onClick={close} autoFocus>
          {t("lists.cancel")}
        </Button>
        <Button variant="danger" disabled={remove.isPending} onClick={() => list && remove.mutate({ params: { id: list.id } })}>
          {remove.isPending ? t("lists.deleting") : t("lists.deleteConfirm")}
        </Button>
      </div>
    </Dialog>
  );
}
