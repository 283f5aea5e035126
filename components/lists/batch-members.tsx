"use client";
import { useQueryClient } from "@tanstack/react-query";
import { clientOnly } from "@/components/ui/client-only";
import { useEffect, useRef, useState } from "react";
import { platformFetch } from "@/lib/api/browser-fetch";
import { invalidateAfter } from "@/lib/api/platform-queries";
import { registerUnsavedGuard } from "@/lib/api/reauth";
import type { BatchProgress, ItemResult } from "@/lib/lists/batch-add";
import { BATCH_CHUNK, chunk, MAX_IDS } from "@/lib/batch/member-ids";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { IdsInput, useIdsText } from "@/components/ui/ids-input";
import { ProgressPanel } from "@/components/ui/progress-panel";

// What shows only once a batch runs or a removal is confirmed loads then (the /lists/[id] first load
// is over its first-load target, scripts/bench/console-first-load.ts).
const ConfirmDialog = clientOnly(() => import("@/components/forms/confirm-dialog").then((m) => m.ConfirmDialog));
const FailedItemsTable = clientOnly(() => import("@/components/ui/failed-items-table").then((m) => m.FailedItemsTable));
const IdDetails = clientOnly(() => import("@/components/ui/id-details").then((m) => m.IdDetails));

/** Results listed on screen; the counts cover all. */
const SHOWN_RESULTS = 500;
/** Files larger than this are refused before reading (100,000 ids of 19 digits and a separator fit in 2 MB). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

type Run = { kind: "add"; progress: BatchProgress; results: readonly ItemResult[]; running: boolean } | { kind: "remove"; progress: BatchProgress; error?: unknown; running: boolean };

/**
 * Many customers at once: ids pasted or read from a text/CSV file, checked (64-bit ids stay
 * strings), then added through `listMembersBatch` in chunks of 500 with a progress bar and a result
 * per id, or removed through `removeFromList` (§4.4) in chunks after a confirmation. The chunks
 * call `platformFetch` directly rather than `usePlatformMutation`, so the members and counts are
 * invalidated once at the end instead of refetched after every chunk.
 */
export function BatchMembers({ listId }: { listId: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const { text, setText, parsed } = useIdsText();
  const [run, setRun] = useState<Run | undefined>(undefined);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const running = run?.running ?? false;
  // A batch in progress stops if the page goes away: the console asks first (re-authorization).
  useEffect(() => (running ? registerUnsavedGuard(() => true) : undefined), [running]);

  const startAdd = async () => {
    const controller = new AbortController();
    abort.current = controller;
    const total = parsed.ids.length;
    setRun({ kind: "add", progress: { done: 0, total, added: 0, failed: 0 }, results: [], running: true });
    const { addInBatches } = await import("@/lib/lists/batch-add");
    const results = await addInBatches(listId, parsed.ids, (items) => platformFetch("listMembers.addBatch", { body: { items } }), {
      signal: controller.signal,
      onProgress: (progress, so) => setRun({ kind: "add", progress, results: [...so], running: true }),
    });
    await invalidateAfter(queryClient, "listMembers.addBatch");
    setRun((r) => ({ kind: "add", progress: r?.progress ?? { done: results.length, total, added: 0, failed: 0 }, results, running: false }));
  };

  const startRemove = async () => {
    setConfirmRemove(false);
    const controller = new AbortController();
    abort.current = controller;
    const total = parsed.ids.length;
    const progress: BatchProgress = { done: 0, total, added: 0, failed: 0 };
    setRun({ kind: "remove", progress: { ...progress }, running: true });
    let error: unknown;
    // Ids go in the query string: chunks keep each URL short. One chunk at a time.
    const { runBounded } = await import("@/lib/batch/bulk-run");
    await runBounded(chunk(parsed.ids, BATCH_CHUNK), (part) => platformFetch("listMembers.removeFromList", { query: { customerIds: part.join(","), listId } }), {
      concurrency: 1,
      signal: controller.signal,
      onProgress: (_counts, last) => {
        progress.done += last.item.length;
        if (last.status === "failed") {
          error = last.error;
          progress.failed += last.item.length;
        }
        setRun({ kind: "remove", progress: { ...progress }, error, running: true });
      },
    });
    await invalidateAfter(queryClient, "listMembers.removeFromList");
    setRun({ kind: "remove", progress: { ...progress }, error, running: false });
  };

  const status = (r: Run) =>
    r.kind === "add"
      ? t(r.running ? "lists.batch.addRunning" : "lists.batch.addDone", { done: r.progress.done, total: r.progress.total, added: r.progress.added, failed: r.progress.failed })
      : t(r.running ? "lists.batch.removeRunning" : "lists.batch.removeDone", { done: r.progress.done, total: r.progress.total, failed: r.progress.failed });
  const onText = (next: string) => {
    setText(next);
    setRun(undefined);
  };
  const failed = run?.kind === "add" ? run.results.filter((r) => r.status === "failed") : [];
  const added = run?.kind === "add" ? run.results.filter((r) => r.status === "added") : [];

  return (
    <section aria-labelledby="batch-title" className="flex flex-col gap-3">
      <h3 id="batch-title" className="text-sm font-semibold text-slate-900">{t("lists.batch.title")}</h3>
      <IdsInput text={text} parsed={parsed} onChange={onText} max={MAX_IDS} maxFileBytes={MAX_FILE_BYTES} messages={{ fileTooLarge: "lists.batch.fileTooLarge", tooMany: "lists.batch.tooMany" }} testIdPrefix="ids" disabled={running} />

      <div className="flex flex-wrap gap-2">
        <Button variant="primary" onClick={() => void startAdd()} disabled={running || parsed.ids.length === 0}>
          {t("lists.batch.add", { count: parsed.ids.length })}
        </Button>
        <Button onClick={() => setConfirmRemove(true)} disabled={running || parsed.ids.length === 0}>
          {t("lists.batch.remove", { count: parsed.ids.length })}
        </Button>
        {running && <Button onClick={() => abort.current?.abort()}>{t("lists.batch.stop")}</Button>}
      </div>

      {run && (
        <ProgressPanel progress={run.progress} label={t("lists.batch.progress")} status={status(run)} testId="batch-result">
          {run.kind === "remove" && run.error !== undefined && <p className="text-sm text-red-700">{errorMessage(run.error, t)}</p>}
          {failed.length > 0 && (
            <FailedItemsTable title={t("lists.batch.failedTitle")} heading="h4" idHeader={t("lists.customerId")} reasonHeader={t("lists.batch.reason")} items={failed.slice(0, SHOWN_RESULTS)} testId="batch-failed" />
          )}
          {added.length > 0 && (
            <IdDetails summary={t("lists.batch.addedTitle", { count: added.length })} ids={added.slice(0, SHOWN_RESULTS).map((r) => r.customerId)} linked testId="batch-added" />
          )}
        </ProgressPanel>
      )}

      <ConfirmDialog open={confirmRemove} title={t("lists.batch.removeTitle", { count: parsed.ids.length })} onClose={() => setConfirmRemove(false)} cancel={t("lists.cancel")} confirm={t("lists.removeConfirm")} onConfirm={() => void startRemove()}>
        <p className="text-sm text-slate-800">{t("lists.removeBody")}</p>
      </ConfirmDialog>
    </section>
  );
}
