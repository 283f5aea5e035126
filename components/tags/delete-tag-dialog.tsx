"use client";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import type { Tag } from "@/lib/platform/resources";
import { toastStore } from "@/lib/ui/toast-store";
import { ConfirmDialog } from "@/components/forms/confirm-dialog";
import { useI18n } from "@/components/i18n/i18n-provider";

/** Deletes a tag after confirmation (§4.5 DELETE /v1/tags/{id}): customers lose the tag, they are kept. */
export function DeleteTagDialog({ tag, onClose }: { tag: Tag | undefined; onClose: () => void }) {
  const { t } = useI18n();
  const name = tag?.name || tag?.id || "";
  const remove = usePlatformMutation("tags.delete", {
    meta: { silent: true },
    onSuccess: () => {
      toastStore.show("success", t("tags.deleted", { name }));
      onClose();
    },
  });
  return (
    <ConfirmDialog open={tag !== undefined} title={t("tags.deleteTitle", { name })} onClose={onClose} call={remove}
      cancel={t("tags.cancel")} confirm={t("tags.deleteConfirm")} pendingLabel={t("tags.deleting")} onConfirm={() => tag && remove.mutate({ params: { id: tag.id } })}>
      <p className="text-sm text-slate-800">{t("tags.deleteBody", { name })}</p>
    </ConfirmDialog>
  );
}
