"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { invalidateAppAfter } from "@/lib/api/app-queries";
import { appCall } from "@/lib/api/browser-fetch";
import { appRouteUrl } from "@/lib/http/app-routes";
import { isActive, type TaskView } from "@/lib/tasks/task-api";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { TimeText } from "@/components/ui/time-text";
import { useTasks } from "./use-tasks";

const STATE_STYLE: Record<TaskView["state"], string> = {
  queued: "border-slate-400 bg-slate-50 text-slate-800",
  running: "border-blue-700 bg-blue-50 text-blue-900",
  done: "border-green-700 bg-green-50 text-green-900",
  failed: "border-red-700 bg-red-50 text-red-900",
  cancelled: "border-slate-400 bg-white text-slate-700",
};

/**
 * The recent background tasks of some kinds (an export, an import, a sync), as every staff member
 * sees them: state, progress, who started (or stopped) it and when, Stop while it runs, Download
 * while its file is kept. `label` names a task for people (the feature knows its kinds' words).
 */
export function TaskPanel({ kinds, label, testId = "task-panel", limit = 5 }: { kinds: readonly string[]; label: (task: TaskView) => string; testId?: string; limit?: number }) {
  const { t } = useI18n();
  const { tasks, isLoading } = useTasks(kinds, limit);
  if (isLoading) return <p className="text-sm text-slate-700">{t("tasks.loading")}</p>;
  if (!tasks || tasks.length === 0) return null;
  return (
    <section aria-label={t("tasks.title")} className="flex flex-col gap-2" data-testid={testId}>
      <ul className="flex flex-col gap-2">
        {tasks.map((task) => (
          <TaskRow key={task.id} task={task} name={label(task)} />
        ))}
      </ul>
    </section>
  );
}

function TaskRow({ task, name }: { task: TaskView; name: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | undefined>();
  const cancel = useMutation({
    mutationFn: () => appCall("tasks.cancel", { params: { id: task.id } }),
    meta: { silent: true },
    onSuccess: () => void invalidateAppAfter(queryClient, "tasks.cancel"),
    onError: (error) => setProblem(errorMessage(error, t)),
  });
  const active = isActive(task);
  const { done, total, message } = task.progress;
  const counted = total === null ? t("tasks.progressUnknown", { done }) : t("tasks.progress", { done, total });
  return (
    <li className="flex flex-col gap-1 rounded-md border border-slate-300 bg-white p-3 text-sm" data-testid="task-row" data-state={task.state}>
      <div className="flex flex-wrap items-center gap-2">
        <span className={`rounded border px-1.5 py-0.5 text-xs font-medium ${STATE_STYLE[task.state]}`}>{t(`tasks.state.${task.state}`)}</span>
        <span className="font-medium text-slate-900">{name}</span>
        <span className="text-slate-700">
          {t("tasks.startedBy", { name: task.startedBy.name || task.startedBy.userId })} · <TimeText value={task.createdAt} />
        </span>
        <span className="ml-auto flex gap-2">
          {active && (
            <Button onClick={() => cancel.mutate()} disabled={cancel.isPending || task.cancelRequested} aria-label={t("tasks.cancelLabel", { name })}>
              {task.cancelRequested ? t("tasks.cancelling") : t("tasks.cancel")}
            </Button>
          )}
          {task.state === "done" && task.file && <DownloadButton task={task} file={task.file} onProblem={setProblem} />}
        </span>
      </div>
      {(active || task.state === "done") && (
        <div className="flex items-center gap-2">
          <progress className="h-2 w-48 accent-blue-700" aria-label={t("tasks.progressLabel", { name })} {...(total ? { max: total, value: Math.min(done, total) } : task.state === "done" ? { max: 1, value: 1 } : {})} />
          <span className="tabular-nums text-slate-800" role={active ? "status" : undefined}>
            {counted}
            {message ? ` · ${message}` : ""}
          </span>
        </div>
      )}
      {task.state === "queued" && task.error && <p className="text-slate-800">{t("tasks.retrying", { reason: task.error })}</p>}
      {task.state === "failed" && task.error && (
        <p className="text-red-800" role="alert">
          {task.error}
        </p>
      )}
      {task.state === "cancelled" && task.cancelledBy && <p className="text-slate-700">{t("tasks.cancelledBy", { name: task.cancelledBy.name || task.cancelledBy.userId })}</p>}
      {problem && (
        <p className="text-red-800" role="alert">
          {problem}
        </p>
      )}
    </li>
  );
}

function DownloadButton({ task, file, onProblem }: { task: TaskView; file: NonNullable<TaskView["file"]>; onProblem: (message: string | undefined) => void }) {
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    if (busy) return;
    setBusy(true);
    onProblem(undefined);
    try {
      // Loaded on click: the page's first load stays small.
      const { blobSink, downloadCsv } = await import("@/lib/api/csv-download");
      await downloadCsv(appRouteUrl("tasks.file", { params: { id: task.id } }), blobSink(file.name), { signal: new AbortController().signal });
    } catch (error) {
      onProblem(errorMessage(error, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="primary" onClick={() => void download()} disabled={busy} aria-label={t("tasks.downloadLabel", { file: file.name })}>
      {busy ? t("tasks.downloading") : t("tasks.download")}
    </Button>
  );
}
