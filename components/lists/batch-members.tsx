"use client";
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from "react";
import { platformFetch } from "@/lib/api/browser-fetch";
import { invalidateAfter } from "@/lib/api/platform-queries";
import { registerUnsavedGuard } from "@/lib/api/reauth";
import { addInBatches, type BatchProgress, type ItemResult } from "@/lib/console/batch-add";
import { runBounded } from "@/lib/console/bulk-run";
import { BATCH_CHUNK, chunk, MAX_IDS, parseIds, type ParsedIds } from "@/lib/console/member-ids";
import type { MessageKey } from "@/lib/i18n/messages";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage, itemFailureReason } from "@/components/ui/error-message";
import { inputClass } from "@/components/ui/field";

const REASONS: Record<ParsedIds["problems"][number]["reason"], MessageKey> = { notAnId: "lists.ids.notAnId", tooLarge: "lists.ids.tooLarge", zero: "lists.ids.zero" };
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
  const { t, locale } = useI18n();
  const href = useConsoleHref();
  const queryClient = useQueryClient();
  const textId = useId();
  const fileId = useId();
  const [text, setText] = useState("");
  const [fileError, setFileError] = useState<string | undefined>(undefined);
  const [run, setRun] = useState<Run | undefined>(undefined);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const abort = useRef<AbortController | null>(null);
  // Parsed once per text, not on every progress update (up to 100,000 ids).
  const parsed = useMemo(() => parseIds(text), [text]);
  const running = run?.running ?? false;
  // A batch in progress stops if the page goes away: the console asks first (re-authorization).
  useEffect(() => (running ? registerUnsavedGuard(() => true) : undefined), [running]);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setFileError(undefined);
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setFileError(t("lists.batch.fileTooLarge"));
      return;
    }
    setText(await file.text());
    setRun(undefined);
  };

  const startAdd = async () => {
    const controller = new AbortController();
    abort.current = controller;
    const total = parsed.ids.length;
    setRun({ kind: "add", progress: { done: 0, total, added: 0, failed: 0 }, results: [], running: true });
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

  const failed = run?.kind === "add" ? run.results.filter((r) => r.status === "failed") : [];
  const added = run?.kind === "add" ? run.results.filter((r) => r.status === "added") : [];

  return (
    <section aria-labelledby="batch-title" className="flex flex-col gap-3">
      <h3 id="batch-title" className="text-sm font-semibold text-slate-900">{t("lists.batch.title")}</h3>
      <div className="flex flex-col gap-1">
        <label htmlFor={textId} className="text-sm font-medium text-slate-800">{t("lists.batch.ids")}</label>
        <textarea
          id={textId}
          name="ids"
          rows={5}
          className={`${inputClass} font-mono`}
          value={text}
          aria-describedby={`${textId}-help`}
          onChange={(e) => {
            setText(e.target.value);
            if (!running) setRun(undefined);
          }}
          disabled={running}
        />
        <p id={`${textId}-help`} className="text-xs text-slate-700">{t("lists.batch.help", { max: MAX_IDS.toLocaleString(locale) })}</p>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={fileId} className="text-sm font-medium text-slate-800">{t("lists.batch.file")}</label>
        <input id={fileId} type="file" accept=".txt,.csv,text/plain,text/csv" onChange={(e) => void onFile(e)} disabled={running} className={`text-sm text-slate-900 ${focusRing}`} data-testid="ids-file" />
        {fileError && <p className="text-xs font-medium text-red-700" role="alert">{fileError}</p>}
      </div>

      {text.trim() !== "" && (
        <div className="text-sm text-slate-900" aria-live="polite" data-testid="ids-summary">
          <p>
            {t("lists.batch.valid", { count: parsed.ids.length.toLocaleString(locale) })}
            {parsed.duplicates > 0 && <> · {t("lists.batch.duplicates", { count: parsed.duplicates })}</>}
            {parsed.problems.length > 0 && <> · {t("lists.batch.invalid", { count: parsed.problems.length })}</>}
          </p>
          {parsed.tooMany && <p className="font-medium text-red-700">{t("lists.batch.tooMany", { max: MAX_IDS.toLocaleString(locale) })}</p>}
          {parsed.problems.length > 0 && (
            <ul className="mt-1 max-h-32 list-disc overflow-y-auto pl-5 text-xs text-red-800">
              {parsed.problems.slice(0, 50).map((p, i) => (
                <li key={i}>{t("lists.batch.problem", { line: p.line, value: p.value, reason: t(REASONS[p.reason]) })}</li>
              ))}
            </ul>
          )}
        </div>
      )}

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
        <div className="flex flex-col gap-2 rounded-md border border-slate-300 bg-slate-50 p-3" data-testid="batch-result">
          <progress className="h-2 w-full accent-blue-700" max={Math.max(1, run.progress.total)} value={run.progress.done} aria-label={t("lists.batch.progress")} />
          <p className="text-sm text-slate-900" role="status">
            {run.kind === "add"
              ? t(run.running ? "lists.batch.addRunning" : "lists.batch.addDone", { done: run.progress.done, total: run.progress.total, added: run.progress.added, failed: run.progress.failed })
              : t(run.running ? "lists.batch.removeRunning" : "lists.batch.removeDone", { done: run.progress.done, total: run.progress.total, failed: run.progress.failed })}
          </p>
          {run.kind === "remove" && run.error !== undefined && <p className="text-sm text-red-700">{errorMessage(run.error, t)}</p>}
          {run.kind === "add" && failed.length > 0 && (
            <div>
              <h4 className="text-sm font-semibold text-red-800">{t("lists.batch.failedTitle")}</h4>
              <table className="mt-1 text-left text-xs" data-testid="batch-failed">
                <thead>
                  <tr>
                    <th scope="col" className="pr-4 font-semibold text-slate-900">{t("lists.customerId")}</th>
                    <th scope="col" className="font-semibold text-slate-900">{t("lists.batch.reason")}</th>
                  </tr>
                </thead>
                <tbody>
                  {failed.slice(0, SHOWN_RESULTS).map((r) => (
                    <tr key={r.customerId}>
                      <td className="pr-4 font-mono text-slate-900">{r.customerId}</td>
                      <td className="text-red-800">{r.status === "failed" ? itemFailureReason(r.error, t) : ""}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {run.kind === "add" && added.length > 0 && (
            <details>
              <summary className={`cursor-pointer rounded text-sm text-slate-900 ${focusRing}`}>{t("lists.batch.addedTitle", { count: added.length })}</summary>
              <ul className="mt-1 flex max-h-40 flex-wrap gap-x-3 overflow-y-auto text-xs" data-testid="batch-added">
                {added.slice(0, SHOWN_RESULTS).map((r) => (
                  <li key={r.customerId}>
                    <Link href={href(`/customers/${r.customerId}`)} className={`rounded font-mono text-blue-800 underline ${focusRing}`}>{r.customerId}</Link>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}

      <Dialog open={confirmRemove} title={t("lists.batch.removeTitle", { count: parsed.ids.length })} onClose={() => setConfirmRemove(false)} role="alertdialog">
        <p className="text-sm text-slate-800">{t("lists.removeBody")}</p>
        <div className="flex justify-end gap-2">
          <Button onClick={() => setConfirmRemove(false)} autoFocus>{t("lists.cancel")}</Button>
          <Button variant="danger" onClick={() => void startRemove()}>{t("lists.removeConfirm")}</Button>
        </div>
      </Dialog>
    </section>
  );
}
