"use client";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import type { Tag } from "@/lib/platform/resources";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-message";

/** Deletes a tag after confirmation (§4.5 DELETE /v1/tags/{id}): customers lose the tag, they are kept. */
export function DeleteTagDialog({ tag, onClose }: { tag: Tag | undefined; onClose: () => void }) {
  const { t } = useI18n();
  const name = tag?.name || tag?.id || "";
  const remove = usePlatformMutation("tags.delete", {
    meta: { silent: true },
    onSuccess: () => {
      toastStore.show("success", t("tags.deleted", { name }));
      close();
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Dialog open={tag !== undefined} title={t("tags.deleteTitle", { name })} onClose={close} role="alertdialog">
      <p className="text-sm text-slate-800">{t("tags.deleteBody", { name })}</p>
      {remove.error && <p role="alert" className="text-sm text-red-700">{errorMessage(remove.error, t)}</p>}
      <div className="flex justify-end gap-2">
        <Button onClick={close} autoFocus>{t("tags.cancel")}</Button>
        <Button variant="danger" disabled={remove.isPending} onClick={() => tag && remove.mutate({ params: { id: tag.id } })}>
          {remove.isPending ? t("tags.deleting") : t("tags.deleteConfirm")}
        </Button>
      </div>
    </Dialog>
  );
}
