"use client";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";

/** Who leaves the list: one membership (by its id), or the selected customers. */
export type RemoveMembers = { kind: "one"; memberId: string; customerId: string } | { kind: "many"; customerIds: string[] };

/**
 * The confirmation before members leave a list: one by membership id (DELETE /v1/listMembers/{id}),
 * many with their customer ids (`removeFromList`, §4.4). Cancel has the focus; the customers stay.
 */
export function RemoveMembersDialog({ listId, confirm, onClose, onRemoved }: { listId: string; confirm: RemoveMembers | undefined; onClose: () => void; onRemoved: () => void }) {
  const { t } = useI18n();
  const done = () => {
    onRemoved();
    onClose();
  };
  const removeOne = usePlatformMutation("listMembers.delete", { onSuccess: () => { toastStore.show("success", t("lists.removedOne")); done(); } });
  const removeMany = usePlatformMutation("listMembers.removeFromList", { onSuccess: (_r, input) => { toastStore.show("success", t("lists.removedMany", { count: input.query.customerIds.split(",").length })); done(); } });
  const pending = removeOne.isPending || removeMany.isPending;
  return (
    <Dialog open={confirm !== undefined} title={confirm?.kind === "many" ? t("lists.removeManyTitle", { count: confirm.customerIds.length }) : t("lists.removeOneTitle", { id: confirm?.kind === "one" ? confirm.customerId : "" })} onClose={onClose} role="alertdialog">
      <p className="text-sm text-slate-800">{t("lists.removeBody")}</p>
      <div className="flex justify-end gap-2">
        <Button onClick={onClose} autoFocus>{t("lists.cancel")}</Button>
        <Button
          variant="danger"
          disabled={pending}
          onClick={() => {
            if (confirm?.kind === "one") removeOne.mutate({ params: { id: confirm.memberId } });
            else if (confirm?.kind === "many") removeMany.mutate({ query: { customerIds: confirm.customerIds.join(","), listId } });
          }}
        >
          {t("lists.removeConfirm")}
        </Button>
      </div>
    </Dialog>
  );
}
