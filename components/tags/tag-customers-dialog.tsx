"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { platformFetch } from "@/lib/api/browser-fetch";
import { invalidateAfter } from "@/lib/api/platform-queries";
import { registerUnsavedGuard } from "@/lib/api/reauth";
import { TAG_CUSTOMERS_MAX, tagCustomers, type TagCustomerResult, type TagCustomersKind } from "@/lib/tags/tag-customers";
import type { RunProgress } from "@/lib/batch/bulk-run";
import { addCustomerTagRequest, removeCustomerTagRequest } from "@/lib/tags/tag-forms";
import type { Tag } from "@/lib/platform/resources";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FailedItemsTable } from "@/components/ui/failed-items-table";
import { IdDetails } from "@/components/ui/id-details";
import { IdsInput, useIdsText } from "@/components/ui/ids-input";
import { ProgressPanel } from "@/components/ui/progress-panel";

/** Results listed on screen; the counts cover all. */
const SHOWN_RESULTS = 500;
/** 10,000 ids of 19 digits and a separator fit well within 1 MB. */
const MAX_FILE_BYTES = 1024 * 1024;

type Run = { kind: TagCustomersKind; progress: RunProgress; results?: TagCustomerResult[]; running: boolean };

/**
 * Tags many customers with one tag, or untags them, from the tag's side: ids pasted or read from a
 * file (parsed like a list's batch add), then one §4.5 addCustomerTag / removeCustomerTag per
 * customer, a few in flight at once, with progress and a result per id. The calls go through
 * `platformFetch` and the customers' tags are invalidated once at the end, not after every call.
 */
export function TagCustomersDialog({ tag, onClose }: { tag: Tag | undefined; onClose: () => void }) {
  const { t } = useI18n();
  return (
    <Dialog open={tag !== undefined} title={t("tags.customers.title", { name: tag?.name || tag?.id || "" })} onClose={onClose}>
      {tag?.name ? <TagCustomersBody key={tag.id} tagName={tag.name} onClose={onClose} /> : null}
    </Dialog>
  );
}

function TagCustomersBody({ tagName, onClose }: { tagName: string; onClose: () => void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const { text, setText, parsed } = useIdsText();
  const [run, setRun] = useState<Run | undefined>(undefined);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const tooMany = parsed.tooMany || parsed.ids.length > TAG_CUSTOMERS_MAX;
  const count = parsed.ids.length;
  const running = run?.running ?? false;
  useEffect(() => (running ? registerUnsavedGuard(() => true) : undefined), [running]);
  const abort = useRef<AbortController | null>(null);
  // Closing the dialog stops the run: the calls in flight finish, no new one starts.
  useEffect(() => () => abort.current?.abort(), []);

  const start = async (kind: TagCustomersKind) => {
    setConfirmRemove(false);
    const controller = new AbortController();
    abort.current = controller;
    const ids = parsed.ids;
    setRun({ kind, progress: { done: 0, total: ids.length, succeeded: 0, failed: 0 }, running: true });
    const send = (customerId: string) =>
      kind === "add" ? platformFetch("customerTags.add", addCustomerTagRequest(customerId, tagName)) : platformFetch("customerTags.remove", removeCustomerTagRequest(customerId, tagName));
    const results = await tagCustomers(kind, tagName, ids, send, { signal: controller.signal, onProgress: (progress) => setRun({ kind, progress, running: true }) });
    await invalidateAfter(queryClient, kind === "add" ? "customerTags.add" : "customerTags.remove");
    setRun((r) => ({ kind, progress: r?.progress ?? { done: results.length, total: ids.length, succeeded: 0, failed: 0 }, results, running: false }));
  };

  const results = run?.results ?? [];
  const failed = results.filter((r): r is Extract<TagCustomerResult, { status: "failed" }> => r.status === "failed");
  const done = results.filter((r) => r.status === "tagged" || r.status === "removed");
  const notCarried = results.filter((r) => r.status === "notCarried");
  const status = (r: Run) =>
    r.running
      ? t("tags.customers.running", { done: r.progress.done, total: r.progress.total })
      : r.kind === "add"
        ? t("tags.customers.addDone", { done: r.progress.done, total: r.progress.total, ok: done.length, failed: failed.length })
        : t("tags.customers.removeDone", { done: r.progress.done, total: r.progress.total, ok: done.length, notCarried: notCarried.length, failed: failed.length });
  const onText = (next: string) => {
    setText(next);
    setRun(undefined);
    setConfirmRemove(false);
  };
  const disabled = running || count === 0 || tooMany;

  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-slate-800">{t("tags.customers.intro", { name: tagName })}</p>
      <IdsInput text={text} parsed={parsed} onChange={onText} max={TAG_CUSTOMERS_MAX} maxFileBytes={MAX_FILE_BYTES} messages={{ fileTooLarge: "tags.customers.fileTooLarge", tooMany: "tags.customers.tooMany" }} testIdPrefix="tag-ids" disabled={running} autoFocus />

      {confirmRemove ? (
        <div role="alert" className="flex flex-col gap-2 rounded-md border border-red-300 bg-red-50 p-3">
          <p className="text-sm font-medium text-slate-900">{t("tags.customers.removeConfirmTitle", { name: tagName, count })}</p>
          <p className="text-sm text-slate-800">{t("tags.customers.removeConfirmBody")}</p>
          <div className="flex gap-2">
            <Button onClick={() => setConfirmRemove(false)}>{t("tags.cancel")}</Button>
            <Button variant="danger" onClick={() => void start("remove")}>{t("tags.customers.removeConfirm", { count })}</Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button variant="primary" onClick={() => void start("add")} disabled={disabled}>{t("tags.customers.add", { count })}</Button>
          <Button onClick={() => setConfirmRemove(true)} disabled={disabled}>{t("tags.customers.remove", { count })}</Button>
          {running && <Button onClick={() => abort.current?.abort()}>{t("tags.customers.stop")}</Button>}
        </div>
      )}

      {run && (
        <ProgressPanel progress={run.progress} label={t("lists.batch.progress")} status={status(run)} testId="tag-customers-result">
          {failed.length > 0 && (
            <FailedItemsTable title={t("tags.customers.failedTitle")} heading="h3" idHeader={t("lists.customerId")} reasonHeader={t("lists.batch.reason")} items={failed.slice(0, SHOWN_RESULTS)} testId="tag-customers-failed" />
          )}
          {notCarried.length > 0 && (
            <IdDetails summary={t("tags.customers.notCarriedTitle", { count: notCarried.length })} ids={notCarried.slice(0, SHOWN_RESULTS).map((r) => r.customerId)} testId="tag-customers-not-carried" />
          )}
          {done.length > 0 && (
            <IdDetails summary={t(run.kind === "add" ? "tags.customers.taggedTitle" : "tags.customers.removedTitle", { count: done.length })} ids={done.slice(0, SHOWN_RESULTS).map((r) => r.customerId)} linked testId="tag-customers-done" />
          )}
        </ProgressPanel>
      )}
      <div className="flex justify-end">
        <Button onClick={onClose}>{t("tags.close")}</Button>
      </div>
    </div>
  );
}
