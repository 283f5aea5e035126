"use client";
import { useQueryClient } from "@tanstack/react-query";
import { clientOnly } from "@/components/ui/client-only";
import { useEffect, useRef, useState } from "react";
import { platformFetch } from "@/lib/api/browser-fetch";
import { invalidateAfter } from "@/lib/api/platform-queries";
import type { RunProgress } from "@/lib/batch/bulk-run";
import type { Selection } from "@/lib/ui/selection";
import { useUnsavedGuard } from "@/lib/hooks/use-unsaved-guard";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button, focusRing } from "@/components/ui/button";
import type { ChosenList } from "./bulk-dialogs";

// The dialogs (and the form code they use), the run's code and its failures table load after the
// page: they are not needed to show the list (the /customers first load is over its first-load target).
const FailedItemsTable = clientOnly(() => import("@/components/ui/failed-items-table").then((m) => m.FailedItemsTable));
const AddToListDialog = clientOnly(() => import("./bulk-dialogs").then((m) => m.AddToListDialog));
const TagDialog = clientOnly(() => import("./bulk-dialogs").then((m) => m.TagDialog));
const DeleteDialog = clientOnly(() => import("./bulk-dialogs").then((m) => m.DeleteDialog));

type Kind = "list" | "tag" | "delete";
type Failure = { customerId: string; error: unknown };
type BulkRun = {
  kind: Kind;
  /** The list's name or the tag names, for the summary. */
  subject: string;
  /** Labels of the customers of this run (the selection may change while it runs). */
  labels: ReadonlyMap<string, string>;
  progress: RunProgress;
  failures: Failure[];
  notStarted: number;
  running: boolean;
  stopping: boolean;
};
/** What an action reports when it ends. */
type Ended = { failures: Failure[]; succeeded: string[]; notStarted: number };

/** Failures listed on screen; the counts cover all. */
const SHOWN_FAILURES = 200;

/**
 * The toolbar for the selected customers: add to a list (`listMembersBatch` in chunks, batch-add.ts),
 * tag (`addCustomerTag` per customer) or delete (`DELETE /v1/customers/{id}` per customer, after a
 * confirmation), with progress, Stop, and a summary naming each failure. Calls go straight through
 * `platformFetch` with bounded concurrency (bulk-run.ts); the queries the operation table's
 * `invalidates` names are refreshed once at the end. Deleted customers leave the selection.
 */
export function BulkActions({ selection, onClear, onRemoved }: { selection: Selection; onClear: () => void; onRemoved: (ids: string[]) => void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Kind | undefined>(undefined);
  const [run, setRun] = useState<BulkRun | undefined>(undefined);
  const abort = useRef<AbortController | null>(null);
  const panel = useRef<HTMLElement>(null);
  const [started, setStarted] = useState(0);
  // The button that opened the dialog is disabled while running: focus goes to the progress (Stop is
  // next). This effect runs after the dialog's own (a child's), which closes it and restores focus.
  useEffect(() => {
    if (started > 0) panel.current?.focus();
  }, [started]);
  const running = run?.running ?? false;
  // Leaving the page stops the run midway: ask first.
  useUnsavedGuard(running);

  const start = async (kind: Kind, subject: string, execute: (ids: string[], signal: AbortSignal, onProgress: (p: RunProgress) => void) => Promise<Ended>) => {
    setDialog(undefined);
    const labels = new Map(selection);
    const ids = [...labels.keys()];
    const controller = new AbortController();
    abort.current = controller;
    const base = { kind, subject, labels, failures: [], notStarted: 0 };
    setRun({ ...base, progress: { done: 0, total: ids.length, succeeded: 0, failed: 0 }, running: true, stopping: false });
    setStarted((n) => n + 1);
    const onProgress = (progress: RunProgress) => setRun((r) => (r ? { ...r, progress } : r));
    let ended: Ended;
    try {
      ended = await execute(ids, controller.signal, onProgress);
    } finally {
      await invalidateAfter(queryClient, kind === "list" ? "listMembers.addBatch" : kind === "tag" ? "customerTags.add" : "customers.delete");
    }
    if (kind === "delete") onRemoved(ended.succeeded);
    setRun((r) => ({
      ...base,
      progress: { done: ended.succeeded.length + ended.failures.length, total: ids.length, succeeded: ended.succeeded.length, failed: ended.failures.length },
      failures: ended.failures,
      notStarted: ended.notStarted,
      running: false,
      stopping: r?.stopping ?? false,
    }));
  };

  const addToList = (list: ChosenList) =>
    void start("list", list.name, async (ids, signal, onProgress) => {
      const { addInBatches } = await import("@/lib/lists/batch-add");
      const results = await addInBatches(list.id, ids, (items) => platformFetch("listMembers.addBatch", { body: { items } }), {
        signal,
        onProgress: (p) => onProgress({ done: p.done, total: p.total, succeeded: p.added, failed: p.failed }),
      });
      return {
        succeeded: results.filter((r) => r.status === "added").map((r) => r.customerId),
        failures: results.flatMap((r) => (r.status === "failed" ? [{ customerId: r.customerId, error: r.error }] : [])),
        notStarted: ids.length - results.length,
      };
    });

  const perCustomer = (kind: "tag" | "delete", subject: string, call: (id: string) => Promise<unknown>) =>
    void start(kind, subject, async (ids, signal, onProgress) => {
      const { runBounded } = await import("@/lib/batch/bulk-run");
      const outcome = await runBounded(ids, call, { signal, onProgress });
      return {
        succeeded: outcome.results.flatMap((r) => (r.status === "done" ? [r.item] : [])),
        failures: outcome.results.flatMap((r) => (r.status === "failed" ? [{ customerId: r.item, error: r.error }] : [])),
        notStarted: outcome.notStarted.length,
      };
    });

  const tag = (names: string[]) =>
    perCustomer("tag", names.join(", "), async (id) => platformFetch("customerTags.add", (await import("@/lib/customers/bulk-tags")).addTagsInput(id, names)));
  const remove = () => perCustomer("delete", "", (id) => platformFetch("customers.delete", { params: { id } }));

  const stop = () => {
    abort.current?.abort();
    setRun((r) => (r ? { ...r, stopping: true } : r));
  };

  const count = selection.size;
  const summary = (r: BulkRun) => {
    const values = { ...r.progress, name: r.subject, tags: r.subject };
    if (r.running) return t(r.kind === "list" ? "bulk.running.list" : r.kind === "tag" ? "bulk.running.tag" : "bulk.running.delete", values);
    return t(r.kind === "list" ? "bulk.done.list" : r.kind === "tag" ? "bulk.done.tag" : "bulk.done.delete", values);
  };

  return (
    <>
      {count > 0 && (
        <section aria-label={t("bulk.toolbar")} className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-blue-300 bg-blue-50 px-3 py-2" data-testid="bulk-toolbar">
          <p className="text-sm font-medium text-slate-900" aria-live="polite" data-testid="bulk-count">
            {t("bulk.selected", { count })}
            <span className="sr-only"> {t("bulk.selectedHelp")}</span>
          </p>
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => setDialog("list")} disabled={running}>{t("bulk.addToList")}</Button>
            <Button onClick={() => setDialog("tag")} disabled={running}>{t("bulk.tag")}</Button>
            <Button variant="danger" onClick={() => setDialog("delete")} disabled={running}>{t("bulk.delete")}</Button>
            <Button variant="ghost" onClick={onClear}>{t("bulk.clear")}</Button>
          </div>
        </section>
      )}

      {run && (
        <section ref={panel} tabIndex={-1} aria-label={t("bulk.progress")} className={`flex flex-col gap-2 rounded-lg border border-slate-300 bg-white p-3 ${focusRing}`} data-testid="bulk-result">
          <progress className="h-2 w-full accent-blue-700" max={Math.max(1, run.progress.total)} value={run.progress.done} aria-label={t("bulk.progress")} />
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm text-slate-900" role="status" data-testid="bulk-summary">
              {summary(run)}
            </p>
            {run.running ? (
              <Button onClick={stop} disabled={run.stopping}>{t("bulk.stop")}</Button>
            ) : (
              <Button variant="ghost" onClick={() => setRun(undefined)}>{t("bulk.dismiss")}</Button>
            )}
          </div>
          {run.running && run.stopping && <p className="text-sm text-slate-800">{t("bulk.stopping")}</p>}
          {!run.running && run.notStarted > 0 && <p className="text-sm text-slate-800" data-testid="bulk-not-started">{t("bulk.notStarted", { count: run.notStarted })}</p>}
          {run.failures.length > 0 && (
            <FailedItemsTable title={t("bulk.failedTitle")} heading="h2" idHeader={t("bulk.customer")} reasonHeader={t("bulk.reason")} items={run.failures.slice(0, SHOWN_FAILURES)} labels={run.labels} testId="bulk-failed" />
          )}
        </section>
      )}

      <AddToListDialog open={dialog === "list"} count={count} onClose={() => setDialog(undefined)} onSubmit={addToList} />
      <TagDialog open={dialog === "tag"} count={count} onClose={() => setDialog(undefined)} onSubmit={tag} />
      <DeleteDialog open={dialog === "delete"} count={count} onClose={() => setDialog(undefined)} onConfirm={remove} />
    </>
  );
}
