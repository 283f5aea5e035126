"use client";
import { formatNumber } from "@/lib/i18n/icu";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState, type ChangeEvent } from "react";
import { invalidateAppAfter } from "@/lib/api/app-queries";
import { appCall } from "@/lib/api/browser-fetch";
import { registerUnsavedGuard } from "@/lib/api/reauth";
import { headerProblemText, rowProblemsText } from "@/lib/events/event-problem-text";
import type { HeaderProblem, RowProblem } from "@/lib/events/event-rows";
import { EVENT_IMPORT_TASK, MAX_UPLOAD_BYTES, UPLOAD_CONTENT_TYPE } from "@/lib/events/import-api";
import type { SourceRow } from "@/lib/events/import-run";
import { useI18n } from "@/components/i18n/i18n-provider";
import { TaskPanel } from "@/components/tasks/task-panel";
import { Button, focusRing } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { SelectField } from "@/components/ui/field";

/** Rows shown in the preview (read, checked, then the reading stops). */
const PREVIEW_ROWS = 20;
const KINDS = [EVENT_IMPORT_TASK] as const;
const EXAMPLE = `identityType,identityValue,event,date,targetName,externalId,carModel,visits:number,price:money
mobile,+86 13800000000,c_test_drive,2026-11-20 16:30:00,"试驾,上海",td-0001,X1,2,199.00
email,li@example.com,open_page,2026-11-20T08:31:00Z,首页,,,,`;

type Preview = { header: string[]; problems: HeaderProblem[]; rows: SourceRow[] };

const formatBytes = (n: number, locale: string) =>
  n < 1024 * 1024 ? `${formatNumber(n / 1024, locale, { maximumFractionDigits: 1 })} KB` : `${formatNumber(n / 1024 / 1024, locale, { maximumFractionDigits: 1 })} MB`;

/**
 * Importing events from a CSV file (§4.3 batchPushEvents, ≤ 100 per request, §8): the file's
 * header and first rows are checked here, read as a stream (a header that cannot be imported stops
 * it before anything is sent); Import uploads the file and starts the import as a background task
 * of the tenant (the app route `events.import`, lib/events/import-route.ts), which goes on when this
 * page is closed. Its progress, Stop and the failure report's Download are in the tasks panel below,
 * the same for every staff member. One import runs at a time per tenant: a second start answers
 * the running one.
 */
export function EventsImport() {
  const { locale, t } = useI18n();
  const queryClient = useQueryClient();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [rule, setRule] = useState<"date" | "md5">("date");
  const fileInput = useRef<HTMLInputElement>(null);
  // Set at once on click: the disabled state arrives a render later, after a double click's second click.
  const starting = useRef(false);

  const describe = (problems: RowProblem[]) => rowProblemsText(problems, t);

  const start = useMutation({
    mutationFn: (chosen: File) =>
      appCall("events.import", { query: { name: chosen.name, rule, locale } }, { upload: chosen.slice(0, chosen.size, UPLOAD_CONTENT_TYPE) }),
    meta: { silent: true },
    onSuccess: (answer) => {
      void invalidateAppAfter(queryClient, "events.import");
      // Another import was running: the file stays chosen for when it has ended.
      if (!answer.started) return;
      setFile(null);
      setPreview(null);
      if (fileInput.current) fileInput.current.value = "";
    },
    onSettled: () => void (starting.current = false),
  });

  // Leaving while the file uploads would drop it: nothing is started until it has arrived.
  useEffect(() => (start.isPending ? registerUnsavedGuard(() => true) : undefined), [start.isPending]);

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setPreview(null);
    setFileError(null);
    start.reset();
    if (!chosen) return;
    if (chosen.size > MAX_UPLOAD_BYTES) {
      setFileError(t("events.tooLarge", { max: formatBytes(MAX_UPLOAD_BYTES, locale) }));
      return;
    }
    try {
      // The reader loads with the first file, not with the page.
      const { openEventCsv } = await import("@/lib/events/event-csv");
      const opened = await openEventCsv(chosen.stream(), describe);
      const rows: SourceRow[] = [];
      for await (const row of opened.rows) {
        rows.push(row);
        if (rows.length >= PREVIEW_ROWS) break;
      }
      setPreview({ header: opened.header, problems: opened.problems, rows });
    } catch (error) {
      setFileError(error instanceof TypeError ? t("events.notUtf8") : error instanceof Error ? error.message : String(error));
    }
  };

  const onFile = (event: ChangeEvent<HTMLInputElement>) => choose(event.target.files?.[0] ?? null);

  // A file picked while the page was still loading (before this script ran) raised no change here.
  useEffect(() => {
    const early = fileInput.current?.files?.[0];
    if (early) void choose(early);
    // Once, on mount: later picks arrive through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onStart = () => {
    if (!file || starting.current) return;
    starting.current = true;
    start.mutate(file);
  };

  // Cells past the header are shown in a column of their own (never dropped from the preview).
  const extraColumn = !!preview && preview.rows.some((row) => row.values.slice(preview.header.length).some((v) => v.trim() !== ""));
  const canStart = !!preview && preview.problems.length === 0 && preview.rows.length > 0 && !start.isPending;
  const outcome = start.isPending
    ? t("events.uploading")
    : start.isError
      ? t("events.refused", { message: errorMessage(start.error, t) })
      : start.data
        ? start.data.started
          ? t("events.started")
          : t("events.alreadyRunning", { name: start.data.task.startedBy.name || start.data.task.startedBy.userId })
        : "";

  return (
    <section className="flex max-w-5xl flex-col gap-4" aria-labelledby="events-import-title">
      <h2 id="events-import-title" className="text-lg font-semibold text-slate-900">{t("events.importTitle")}</h2>
      <p className="text-sm text-slate-800">{t("events.intro")}</p>

      <details className="rounded-md border border-slate-300 bg-white p-3" data-testid="events-format">
        <summary className={`cursor-pointer rounded text-sm font-semibold text-slate-900 ${focusRing}`}>{t("events.format")}</summary>
        <div className="mt-2 flex flex-col gap-1 text-sm text-slate-800">
          <p>{t("events.format.body")}</p>
          <ul className="list-disc pl-5">
            <li>{t("events.format.required")}</li>
            <li>{t("events.format.date")}</li>
            <li>{t("events.format.fields")}</li>
            <li>{t("events.format.properties")}</li>
            <li>{t("events.format.limits")}</li>
          </ul>
          <p className="mt-1 font-medium">{t("events.format.example")}</p>
          <pre className="overflow-x-auto rounded bg-slate-100 p-2 text-xs text-slate-900">{EXAMPLE}</pre>
        </div>
      </details>

      <section className="flex flex-col gap-3 rounded-md border border-slate-300 bg-white p-3" aria-labelledby={`${fileId}-label`}>
        <div className="flex flex-col gap-1">
          <label id={`${fileId}-label`} htmlFor={fileId} className="text-sm font-medium text-slate-800">
            {t("events.file")}
          </label>
          <input
            ref={fileInput}
            id={fileId}
            type="file"
            accept=".csv,text/csv"
            aria-describedby={`${fileId}-help`}
            onChange={(e) => void onFile(e)}
            disabled={start.isPending}
            className={`text-sm text-slate-900 ${focusRing}`}
            data-testid="events-file"
          />
          <p id={`${fileId}-help`} className="text-xs text-slate-700">
            {t("events.fileHelp")}
            {file && ` · ${file.name} · ${formatBytes(file.size, locale)}`}
          </p>
          {fileError && (
            <p className="text-sm font-medium text-red-700" role="alert">
              {fileError}
            </p>
          )}
        </div>

        {preview && preview.problems.length > 0 && (
          <div role="alert" className="text-sm text-red-800" data-testid="events-header-problems">
            <p className="font-medium">{t("events.headerProblems")}</p>
            <ul className="list-disc pl-5">
              {preview.problems.map((problem, i) => (
                <li key={i}>{headerProblemText(problem, t)}</li>
              ))}
            </ul>
          </div>
        )}

        {preview && preview.problems.length === 0 && (
          <div className="flex flex-col gap-2">
            <h2 className="text-sm font-semibold text-slate-900">{t("events.preview", { count: preview.rows.length })}</h2>
            {preview.rows.length === 0 ? (
              <p className="text-sm text-slate-700" data-testid="events-preview-empty">{t("events.previewNone")}</p>
            ) : (
              <div className="max-h-80 overflow-auto rounded border border-slate-200" tabIndex={0} aria-label={t("events.preview", { count: preview.rows.length })}>
                <table className="w-full text-left text-xs" data-testid="events-preview">
                  <thead className="sticky top-0 bg-slate-100">
                    <tr>
                      <th scope="col" className="px-2 py-1 font-semibold">{t("events.previewRow")}</th>
                      <th scope="col" className="px-2 py-1 font-semibold">{t("events.previewStatus")}</th>
                      {preview.header.map((h, i) => (
                        <th key={i} scope="col" className="px-2 py-1 font-mono font-semibold">{h}</th>
                      ))}
                      {extraColumn && <th scope="col" className="px-2 py-1 font-semibold">{t("events.previewExtra")}</th>}
                    </tr>
                  </thead>
                  <tbody>
                    {preview.rows.map((row) => (
                      <tr key={row.row} className="border-t border-slate-100 align-top" data-invalid={row.reason ? "1" : undefined}>
                        <td className="px-2 py-1 tabular-nums">{row.row}</td>
                        <td className={`px-2 py-1 ${row.reason ? "font-medium text-red-800" : "text-green-800"}`}>{row.reason ?? t("events.previewOk")}</td>
                        {preview.header.map((_, i) => (
                          <td key={i} className="px-2 py-1 break-all">{row.values[i] ?? ""}</td>
                        ))}
                        {extraColumn && <td className="px-2 py-1 break-all text-red-800" data-testid="events-preview-extra">{row.values.slice(preview.header.length).filter((v) => v.trim() !== "").join(", ")}</td>}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <SelectField label={t("events.rule")} help={t("events.ruleHelp")} value={rule} onChange={(e) => setRule(e.target.value as "date" | "md5")} className="max-w-xl">
              <option value="date">{t("events.rule.date")}</option>
              <option value="md5">{t("events.rule.md5")}</option>
            </SelectField>
            <div>
              <Button variant="primary" disabled={!canStart} onClick={onStart} data-testid="events-start">
                {t("events.start", { size: file ? formatBytes(file.size, locale) : "" })}
              </Button>
            </div>
          </div>
        )}
      </section>

      <p className="text-sm text-slate-800" role={start.isError ? "alert" : "status"} data-testid="events-start-outcome">
        {outcome}
      </p>

      <TaskPanel kinds={KINDS} label={(task) => t("events.taskLabel", { name: String((task.input as { name?: unknown } | null)?.name ?? "") })} testId="events-import-tasks" limit={3} />
    </section>
  );
}
