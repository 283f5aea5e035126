"use client";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { mergeProblem, mergeRequest } from "@/lib/tags/tag-forms";
import type { Tag } from "@/lib/platform/resources";
import { toastStore } from "@/lib/ui/toast-store";
import { ConfirmDialog } from "@/components/forms/confirm-dialog";
import { FormAlert } from "@/components/forms/form-alert";
import { useI18n } from "@/components/i18n/i18n-provider";

const label = (tag: Tag) => tag.name || tag.id;

/**
 * The confirmation of §4.5 POST /v1/tags/{fromId}/mergeto/{toId}, naming both tags and what will
 * happen: customers carrying `from` receive `to`, and `from` is deleted.
 */
export function MergeTagDialog({ from, to, onClose, onMerged }: { from: Tag | undefined; to: Tag | undefined; onClose: () => void; onMerged: () => void }) {
  const { t } = useI18n();
  const merge = usePlatformMutation("tags.merge", {
    meta: { silent: true },
    onSuccess: () => {
      if (from && to) toastStore.show("success", t("tags.merge.done", { from: label(from), to: label(to) }));
      merge.reset();
      onMerged();
    },
  });
  const open = from !== undefined && to !== undefined;
  const problem = mergeProblem(from, to);
  return (
    <ConfirmDialog open={open} title={open ? t("tags.merge.title", { from: label(from), to: label(to) }) : ""} onClose={onClose} call={merge}
      cancel={t("tags.cancel")} confirm={t("tags.merge.confirm")} pendingLabel={t("tags.merge.running")} disabled={problem !== undefined} onConfirm={() => from && to && !problem && merge.mutate(mergeRequest(from, to))}>
      {from && to && (
        <>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm" data-testid="merge-tags">
            <dt className="font-medium text-slate-800">{t("tags.merge.from")}</dt>
            <dd className="break-all text-slate-900">“{label(from)}” <span className="font-mono text-xs">{t("tags.merge.idDim", { id: from.id, dimension: from.dimension ?? "" })}</span></dd>
            <dt className="font-medium text-slate-800">{t("tags.merge.to")}</dt>
            <dd className="break-all text-slate-900">“{label(to)}” <span className="font-mono text-xs">{t("tags.merge.idDim", { id: to.id, dimension: to.dimension ?? "" })}</span></dd>
          </dl>
          <ul className="list-disc pl-5 text-sm text-slate-800" data-testid="merge-effects">
            <li>{t("tags.merge.effectReceive", { from: label(from), to: label(to) })}</li>
            <li>{t("tags.merge.effectDelete", { from: label(from) })}</li>
            <li>{t("tags.merge.effectBoth", { to: label(to) })}</li>
          </ul>
          {problem === "same" && <FormAlert message={t("tags.merge.same")} />}
        </>
      )}
    </ConfirmDialog>
  );
}
