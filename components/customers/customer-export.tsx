"use client";
import { appRouteUrl } from "@/lib/http/app-routes";
import { useEffect, useId, useRef, useState } from "react";
import type { CsvSink } from "@/lib/api/csv-download";
import { serializeListState, type CustomerListState } from "@/lib/customers/customer-list-state";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";

type Status =
  | { kind: "idle" }
  | { kind: "running"; rows: number }
  | { kind: "done"; rows: number; file: string }
  | { kind: "cancelled" }
  | { kind: "failed"; rows: number }
  | { kind: "refused"; message: string };

/**
 * "Export CSV" for the customers list's current filter (the app route `customers.export`, streamed):
 * a progress bar (rows received of the §4.1 count, when the count can be had), Cancel, and the
 * file saved to disk as it arrives where the browser offers a save picker, else collected and
 * saved at the end. An export that fails or is cancelled saves nothing and says how far it got.
 */
export function CustomerExport({ state, total }: { state: CustomerListState; total: number | undefined }) {
  const { t } = useI18n();
  const helpId = useId();
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const running = useRef<AbortController | null>(null);
  // Leaving the page stops the export (and the server's walk with it).
  useEffect(() => () => running.current?.abort(), []);

  const start = async () => {
    if (running.current) return; // a second click while the first is starting
    const controller = new AbortController();
    running.current = controller;
    let modules;
    try {
      // Loaded on the first click: the list's first load stays small. The save picker still runs
      // within the click's user activation (seconds); if not, it falls back to the Blob download.
      modules = await Promise.all([import("@/lib/api/csv-download"), import("@/lib/csv")]);
    } catch {
      running.current = null;
      setStatus({ kind: "refused", message: t("error.network") });
      return;
    }
    const [{ blobSink, downloadCsv, ExportFailedError, pickFileSink }, { exportFileName }] = modules;
    const file = exportFileName("customers");
    let sink: CsvSink | undefined;
    try {
      sink = await pickFileSink(file, t("customerExport.fileType"));
    } catch {
      running.current = null;
      return; // the user closed the save dialog
    }
    setStatus({ kind: "running", rows: 0 });
    const query = serializeListState(state).toString();
    try {
      const { rows } = await downloadCsv(`${appRouteUrl("customers.export")}${query ? `?${query}` : ""}`, sink ?? blobSink(file), {
        signal: controller.signal,
        onProgress: (rows) => setStatus({ kind: "running", rows }),
      });
      setStatus({ kind: "done", rows, file });
    } catch (error) {
      if (controller.signal.aborted) setStatus({ kind: "cancelled" });
      else if (error instanceof ExportFailedError) setStatus({ kind: "failed", rows: error.rows });
      else setStatus({ kind: "refused", message: errorMessage(error, t) });
    } finally {
      if (running.current === controller) running.current = null;
    }
  };

  return (
    <div className="flex flex-col items-end gap-1" data-testid="customer-export">
      {status.kind === "running" ? (
        <div className="flex items-center gap-2">
          <progress
            className="h-2 w-36 accent-blue-700"
            aria-label={t("customerExport.progressLabel")}
            {...(total ? { max: total, value: Math.min(status.rows, total) } : {})}
          />
          <span className="text-sm text-slate-800 tabular-nums" data-testid="customer-export-progress">
            {total !== undefined ? t("customerExport.progress", { rows: status.rows, total }) : t("customerExport.progressRows", { rows: status.rows })}
          </span>
          <Button onClick={() => running.current?.abort()}>{t("customerExport.cancel")}</Button>
        </div>
      ) : (
        <Button onClick={() => void start()} aria-describedby={helpId} title={t("customerExport.help")}>
          {t("customerExport.button")}
        </Button>
      )}
      <p id={helpId} className="sr-only">
        {t("customerExport.help")}
      </p>
      <p className="max-w-md text-right text-sm text-slate-800" role={status.kind === "failed" || status.kind === "refused" ? "alert" : "status"}>
        {status.kind === "done"
          ? t("customerExport.done", { rows: status.rows, file: status.file })
          : status.kind === "cancelled"
            ? t("customerExport.cancelled")
            : status.kind === "failed"
              ? t("customerExport.failed", { rows: status.rows })
              : status.kind === "refused"
                ? t("customerExport.refused", { message: status.message })
                : ""}
      </p>
    </div>
  );
}
