"use client";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import type { List } from "@/lib/platform/resources";
import { toastStore } from "@/lib/ui/toast-store";
import { ConfirmDialog } from "@/components/forms/confirm-dialog";
import { useI18n } from "@/components/i18n/i18n-provider";

/** Deletes a list after confirmation (§4.4 DELETE /v1/lists/{id}); the customers stay, and the dialog says so. */
export function DeleteListDialog({ list, onClose, onDeleted }: { list: List | undefined; onClose: () => void; onDeleted?: () => void }) {
  const { t } = useI18n();
  const remove = usePlatformMutation("lists.delete", {
    meta: { silent: true },
    onSuccess: () => {
      toastStore.show("success", t("lists.deleted", { name: list?.name ?? list?.id ?? "" }));
      onClose();
      onDeleted?.();
    },
  });
  return (
    <ConfirmDialog open={list !== undefined} title={t("lists.deleteTitle", { name: list?.name || list?.id || "" })} onClose={onClose} call={remove}
      cancel={t("lists.cancel")} confirm={t("lists.deleteConfirm")} pendingLabel={t("lists.deleting")} onConfirm={() => list && remove.mutate({ params: { id: list.id } })}>
      <p className="text-sm text-slate-800">{t("lists.deleteBody")}</p>
    </ConfirmDialog>
  );
}
