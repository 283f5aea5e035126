"use client";
import { formatNumber } from "@/lib/i18n/icu";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState, type ChangeEvent } from "react";
import { appCall } from "@/lib/api/browser-fetch";
import { invalidateAfter } from "@/lib/api/platform-queries";
import { registerUnsavedGuard } from "@/lib/api/reauth";
import type { HeaderProblem, RowProblem } from "@/lib/events/event-rows";
import type { FailureReport } from "@/lib/events/failure-report";
import type { EventImport, ImportProgress, SourceRow } from "@/lib/events/import-run";
import type { Translate } from "@/lib/i18n/format";
import { ConfirmDialog } from "@/components/forms/confirm-dialog";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button, focusRing } from "@/components/ui/button";
import { SelectField } from "@/components/ui/field";
import { eventProblemText } from "./event-problem-text";


/** Rows shown in the preview (read, checked, then the reading stops). */
const PREVIEW_ROWS = 20;
/** How often the progress on screen is refreshed (the import itself runs at its own pace). */
const REFRESH_MS = 250;
const EXAMPLE = `identityType,identityValue,event,date,targetName,externalId,carModel,visits:number,price:money
mobile,+86 13800000000,c_test_drive,2026-11-20 16:30:00,"试驾,上海",td-0001,X1,2,199.00
email,li@example.com,open_page,2026-11-20T08:31:00Z,首页,,,,`;

function headerProblemText(p: HeaderProblem, t: Translate): string {
  if (p.code === "tooManyProperties") return t("eventError.tooManyProperties", { max: p.max, kind: t(`eventKind.${p.kind}`) });
  return t(`eventError.${p.code}`, { column: p.column });
}

function rowProblemsText(problems: RowProblem[], t: Translate): string {
  return problems.map((p) => `${p.column}: ${eventProblemText(p, t)}`).join(" ");
}

type Preview = { header: string[]; problems: HeaderProblem[]; rows: SourceRow[] };
type Run = { importer: EventImport; report: FailureReport; progress: ImportProgress; rate: number; reportUrl?: string };

const formatBytes = (n: number, locale: string) =>
  n < 1024 * 1024 ? `${formatNumber(n / 1024, locale, { maximumFractionDigits: 1 })} KB` : `${formatNumber(n / 1024 / 1024, locale, { maximumFractionDigits: 1 })} MB`;

/**
 * Importing events from a CSV file of any size (§4.3 batchPushEvents, ≤ 100 per request, §8):
 * the file is read as a stream, the first rows are previewed with their problems, then the rows
 * go out in batches with a progress bar, the rate, Pause / Resume / Cancel, and at the end a
 * downloadable report of the rows that failed and why. The import itself is `lib/events/*`.
 */
export function EventsImport() {
  const { locale, t } = useI18n();
  const queryClient = useQueryClient();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [rule, setRule] = useState<"date" | "md5">("date");
  const [run, setRun] = useState<Run | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const state = run?.progress.state;
  const active = state === "running" || state === "paused";

  useEffect(() => (active ? registerUnsavedGuard(() => true) : undefined), [active]);
  useEffect(() => () => {
    if (run?.reportUrl) URL.revokeObjectURL(run.reportUrl);
  }, [run?.reportUrl]);

  const describe = (problems: RowProblem[]) => rowProblemsText(problems, t);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    setFile(chosen);
    setPreview(null);
    setFileError(null);
    setRun(null);
    if (!chosen) return;
    try {
      // The reader and the import engine load with the first file, not with the page.
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

  const start = async () => {
    if (!file) return;
    const { importThrough, startEventImport } = await import("@/lib/events/start-import");
    const started = await startEventImport({ stream: file.stream(), send: importThrough(appCall), describe, rule });
    if (!("run" in started)) return;
    const { run: importer, report } = started;
    const snapshot = (): Run => ({ importer, report, progress: { ...importer.progress }, rate: importer.rate() });
    setRun(snapshot());
    const timer = setInterval(() => setRun(snapshot()), REFRESH_MS);
    try {
      await importer.done;
    } finally {
      clearInterval(timer);
    }
    await invalidateAfter(queryClient, "events.batchPush");
    const reportUrl = report.count > 0 ? URL.createObjectURL(new Blob(report.parts({ row: t("events.reportRow"), reason: t("events.reportReason") }), { type: "text/csv;charset=utf-8" })) : undefined;
    setRun({ ...snapshot(), reportUrl });
  };

  const reset = () => {
    setRun(null);
    setFile(null);
    setPreview(null);
    if (fileInput.current) fileInput.current.value = "";
  };

  const p = run?.progress;
  const percent = p && file ? Math.min(100, Math.floor((p.bytesRead / Math.max(1, file.size)) * 100)) : 0;
  // Cells past the header are shown in a column of their own (never dropped from the preview).
  const extraColumn = !!preview && preview.rows.some((row) => row.values.slice(preview.header.length).some((v) => v.trim() !== ""));
  const canStart = !!preview && preview.problems.length === 0 && preview.rows.length > 0 && !run;

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
            disabled={active}
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

        {preview && preview.problems.length === 0 && !run && (
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
              <Button variant="primary" disabled={!canStart} onClick={() => void start()} data-testid="events-start">
                {t("events.start", { size: file ? formatBytes(file.size, locale) : "" })}
              </Button>
            </div>
          </div>
        )}
      </section>

      {run && p && (
        <section className="flex flex-col gap-2 rounded-md border border-slate-300 bg-slate-50 p-3" aria-label={t("events.progress")} data-testid="events-run" data-state={p.state}>
          <progress className="h-2 w-full accent-blue-700" max={100} value={p.state === "done" ? 100 : percent} aria-label={t("events.progress")} />
          <p className="text-sm text-slate-900" role="status" data-testid="events-status">
            {t(`events.status.${p.state}`, { read: p.rowsRead, percent, sent: p.sent, failed: p.failed })}
          </p>
          <p className="text-xs text-slate-700" data-testid="events-rate">
            {t("events.rate", { rate: Math.round(run.rate) })} · {t("events.inFlight", { count: p.inFlight, retries: p.retries })}
          </p>
          {p.sourceError && <p className="text-sm font-medium text-red-700">{t("events.sourceError", { message: p.sourceError })}</p>}
          <div className="flex flex-wrap gap-2">
            {p.state === "running" && <Button onClick={() => run.importer.pause()}>{t("events.pause")}</Button>}
            {p.state === "paused" && <Button variant="primary" onClick={() => run.importer.resume()}>{t("events.resume")}</Button>}
            {active && <Button variant="danger" onClick={() => setConfirmCancel(true)}>{t("events.cancel")}</Button>}
            {run.reportUrl && (
              <a href={run.reportUrl} download="events-import-failures.csv" className={`rounded-md border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium text-blue-800 underline ${focusRing}`} data-testid="events-report">
                {t("events.report", { count: run.report.count })}
              </a>
            )}
            {!active && <Button onClick={reset}>{t("events.again")}</Button>}
          </div>
          {run.report.truncated && <p className="text-xs text-slate-700">{t("events.reportTruncated", { kept: run.report.kept, count: run.report.count })}</p>}
        </section>
      )}

      <ConfirmDialog open={confirmCancel} title={t("events.cancelTitle")} onClose={() => setConfirmCancel(false)} cancel={t("events.cancelKeep")} confirm={t("events.cancelConfirm")}
        onConfirm={() => {
          setConfirmCancel(false);
          run?.importer.cancel();
        }}>
        <p className="text-sm text-slate-800">{t("events.cancelBody")}</p>
      </ConfirmDialog>
    </section>
  );
}
