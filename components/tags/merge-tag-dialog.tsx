"use client";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { mergeProblem, mergeRequest } from "@/lib/console/tag-forms";
import type { Tag } from "@/lib/platform/resources";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-message";

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
  const close = () => {
    merge.reset();
    onClose();
  };
  const open = from !== undefined && to !== undefined;
  const problem = mergeProblem(from, to);
  return (
    <Dialog open={open} title={open ? t("tags.merge.title", { from: label(from), to: label(to) }) : ""} onClose={close} role="alertdialog">
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
          {problem === "same" && <p role="alert" className="text-sm text-red-700">{t("tags.merge.same")}</p>}
          {merge.error && <p role="alert" className="text-sm text-red-700">{errorMessage(merge.error, t)}</p>}
        </>
      )}
      <div className="flex justify-end gap-2">
        <Button onClick={close} autoFocus>{t("tags.cancel")}</Button>
        <Button variant="danger" disabled={merge.isPending || problem !== undefined} onClick={() => from && to && !problem && merge.mutate(mergeRequest(from, to))}>
          {merge.isPending ? t("tags.merge.running") : t("tags.merge.confirm")}
        </Button>
      </div>
    </Dialog>
  );
}
