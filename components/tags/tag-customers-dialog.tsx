"use client";
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from "react";
import { platformFetch } from "@/lib/api/browser-fetch";
import { invalidateAfter } from "@/lib/api/platform-queries";
import { registerUnsavedGuard } from "@/lib/api/reauth";
import { parseIds, type ParsedIds } from "@/lib/console/member-ids";
import { TAG_CUSTOMERS_MAX, tagCustomers, type TagCustomerResult, type TagCustomersKind, type TagCustomersProgress } from "@/lib/console/tag-customers";
import { addCustomerTagRequest, removeCustomerTagRequest } from "@/lib/console/tag-forms";
import type { MessageKey } from "@/lib/i18n/messages";
import type { Tag } from "@/lib/platform/resources";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { itemFailureReason } from "@/components/ui/error-message";
import { inputClass } from "@/components/ui/field";

const REASONS: Record<ParsedIds["problems"][number]["reason"], MessageKey> = { notAnId: "lists.ids.notAnId", tooLarge: "lists.ids.tooLarge", zero: "lists.ids.zero" };
/** Results listed on screen; the counts cover all. */
const SHOWN_RESULTS = 500;
/** 10,000 ids of 19 digits and a separator fit well within 1 MB. */
const MAX_FILE_BYTES = 1024 * 1024;

type Run = { kind: TagCustomersKind; progress: TagCustomersProgress; results?: TagCustomerResult[]; running: boolean };

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
  const parsed = useMemo(() => parseIds(text), [text]);
  const tooMany = parsed.tooMany || parsed.ids.length > TAG_CUSTOMERS_MAX;
  const count = parsed.ids.length;
  const running = run?.running ?? false;
  useEffect(() => (running ? registerUnsavedGuard(() => true) : undefined), [running]);
  // Closing the dialog stops the run: the calls in flight finish, no new one starts.
  useEffect(() => () => abort.current?.abort(), []);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setFileError(undefined);
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setFileError(t("tags.customers.fileTooLarge"));
      return;
    }
    setText(await file.text());
    setRun(undefined);
  };

  const start = async (kind: TagCustomersKind) => {
    setConfirmRemove(false);
    const controller = new AbortController();
    abort.current = controller;
    const ids = parsed.ids;
    setRun({ kind, progress: { done: 0, total: ids.length, ok: 0, failed: 0 }, running: true });
    const send = (customerId: string) =>
      kind === "add" ? platformFetch("customerTags.add", addCustomerTagRequest(customerId, tagName)) : platformFetch("customerTags.remove", removeCustomerTagRequest(customerId, tagName));
    const results = await tagCustomers(kind, tagName, ids, send, { signal: controller.signal, onProgress: (progress) => setRun({ kind, progress, running: true }) });
    await invalidateAfter(queryClient, kind === "add" ? "customerTags.add" : "customerTags.remove");
    setRun((r) => ({ kind, progress: r?.progress ?? { done: results.length, total: ids.length, ok: 0, failed: 0 }, results, running: false }));
  };

  const results = run?.results ?? [];
  const failed = results.filter((r): r is Extract<TagCustomerResult, { status: "failed" }> => r.status === "failed");
  const done = results.filter((r) => r.status === "tagged" || r.status === "removed");
  const notCarried = results.filter((r) => r.status === "notCarried");
  const disabled = running || count === 0 || tooMany;

  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-slate-800">{t("tags.customers.intro", { name: tagName })}</p>
      <div className="flex flex-col gap-1">
        <label htmlFor={textId} className="text-sm font-medium text-slate-800">{t("lists.batch.ids")}</label>
        <textarea id={textId} name="ids" rows={5} className={`${inputClass} font-mono`} value={text} aria-describedby={`${textId}-help`} autoFocus disabled={running}
          onChange={(e) => {
            setText(e.target.value);
            setRun(undefined);
            setConfirmRemove(false);
          }} />
        <p id={`${textId}-help`} className="text-xs text-slate-700">{t("lists.batch.help", { max: TAG_CUSTOMERS_MAX.toLocaleString(locale) })}</p>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={fileId} className="text-sm font-medium text-slate-800">{t("lists.batch.file")}</label>
        <input id={fileId} type="file" accept=".txt,.csv,text/plain,text/csv" onChange={(e) => void onFile(e)} disabled={running} className={`text-sm text-slate-900 ${focusRing}`} data-testid="tag-ids-file" />
        {fileError && <p className="text-xs font-medium text-red-700" role="alert">{fileError}</p>}
      </div>

      {text.trim() !== "" && (
        <div className="text-sm text-slate-900" aria-live="polite" data-testid="tag-ids-summary">
          <p>
            {t("lists.batch.valid", { count: count.toLocaleString(locale) })}
            {parsed.duplicates > 0 && <> · {t("lists.batch.duplicates", { count: parsed.duplicates })}</>}
            {parsed.problems.length > 0 && <> · {t("lists.batch.invalid", { count: parsed.problems.length })}</>}
          </p>
          {tooMany && <p className="font-medium text-red-700">{t("tags.customers.tooMany", { max: TAG_CUSTOMERS_MAX.toLocaleString(locale) })}</p>}
          {parsed.problems.length > 0 && (
            <ul className="mt-1 max-h-24 list-disc overflow-y-auto pl-5 text-xs text-red-800">
              {parsed.problems.slice(0, 50).map((p, i) => (
                <li key={i}>{t("lists.batch.problem", { line: p.line, value: p.value, reason: t(REASONS[p.reason]) })}</li>
              ))}
            </ul>
          )}
        </div>
      )}

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
        <div className="flex flex-col gap-2 rounded-md border border-slate-300 bg-slate-50 p-3" data-testid="tag-customers-result">
          <progress className="h-2 w-full accent-blue-700" max={Math.max(1, run.progress.total)} value={run.progress.done} aria-label={t("lists.batch.progress")} />
          <p className="text-sm text-slate-900" role="status">
            {run.running
              ? t("tags.customers.running", { done: run.progress.done, total: run.progress.total })
              : run.kind === "add"
                ? t("tags.customers.addDone", { done: run.progress.done, total: run.progress.total, ok: done.length, failed: failed.length })
                : t("tags.customers.removeDone", { done: run.progress.done, total: run.progress.total, ok: done.length, notCarried: notCarried.length, failed: failed.length })}
          </p>
          {failed.length > 0 && (
            <div>
              <h3 className="text-sm font-semibold text-red-800">{t("tags.customers.failedTitle")}</h3>
              <div className="max-h-40 overflow-y-auto" tabIndex={0} aria-label={t("tags.customers.failedTitle")}>
                <table className="mt-1 text-left text-xs" data-testid="tag-customers-failed">
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
                        <td className="text-red-800">{itemFailureReason(r.error, t)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </div>
          )}
          {notCarried.length > 0 && (
            <details>
              <summary className={`cursor-pointer rounded text-sm text-slate-900 ${focusRing}`}>{t("tags.customers.notCarriedTitle", { count: notCarried.length })}</summary>
              <ul className="mt-1 flex max-h-32 flex-wrap gap-x-3 overflow-y-auto font-mono text-xs text-slate-900" data-testid="tag-customers-not-carried">
                {notCarried.slice(0, SHOWN_RESULTS).map((r) => <li key={r.customerId}>{r.customerId}</li>)}
              </ul>
            </details>
          )}
          {done.length > 0 && (
            <details>
              <summary className={`cursor-pointer rounded text-sm text-slate-900 ${focusRing}`}>{t(run.kind === "add" ? "tags.customers.taggedTitle" : "tags.customers.removedTitle", { count: done.length })}</summary>
              <ul className="mt-1 flex max-h-32 flex-wrap gap-x-3 overflow-y-auto text-xs" data-testid="tag-customers-done">
                {done.slice(0, SHOWN_RESULTS).map((r) => (
                  <li key={r.customerId}>
                    <Link href={href(`/customers/${r.customerId}`)} className={`rounded font-mono text-blue-800 underline ${focusRing}`}>{r.customerId}</Link>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
      <div className="flex justify-end">
        <Button onClick={onClose}>{t("tags.close")}</Button>
      </div>
    </div>
  );
}
