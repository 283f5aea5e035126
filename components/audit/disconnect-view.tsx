"use client";
import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { appCall } from "@/lib/api/browser-fetch";
import { appQuery } from "@/lib/api/app-queries";
import { appRouteUrl } from "@/lib/http/app-routes";
import type { MessageKey } from "@/lib/i18n/messages";
import { forgetStoredSessions } from "@/lib/auth/sign-out";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { CheckboxField, TextField } from "@/components/ui/field";
import { DataTable } from "@/components/ui/data-table";
import { PageHeader } from "@/components/ui/page-header";
import { errorMessage } from "@/components/ui/error-message";
import { formatHomeTimeIn } from "@/lib/time";

/**
 * What the app keeps for the tenant (every table holding its rows, counted), its JSON export, and
 * the disconnect: admin only, after the export, confirmed by typing DISCONNECT.
 */
export function DisconnectView() {
  const { t, locale } = useI18n();
  const data = useQuery(appQuery("tenant.data", {}));
  const [exported, setExported] = useState<{ file: string } | { error: string } | null>(null);
  const [exporting, setExporting] = useState(false);
  const [confirm, setConfirm] = useState("");
  const [deleteAuditLog, setDeleteAuditLog] = useState(false);
  const [state, setState] = useState<{ kind: "idle" } | { kind: "running" } | { kind: "done"; rows: number } | { kind: "failed"; message: string }>({ kind: "idle" });

  if (state.kind === "done") {
    return (
      <div className="mx-auto flex max-w-3xl flex-col gap-4">
        <h1 className="text-xl font-semibold text-slate-900">{t("tenant.title")}</h1>
        <p role="status" className="rounded-lg border border-slate-300 bg-white p-4 text-slate-900" data-testid="disconnect-done">{t("tenant.done", { rows: state.rows })}</p>
      </div>
    );
  }
  const answer = data.data;
  const tableName = (table: string) => {
    const key = `tenant.name.${table}` as MessageKey;
    const label = t(key);
    return label === key ? table : label;
  };
  const runExport = async () => {
    setExporting(true);
    try {
      const { blobSink, downloadCsv } = await import("@/lib/api/csv-download");
      const file = `engage-console-${new Date().toISOString().slice(0, 10)}.json`;
      await downloadCsv(appRouteUrl("tenant.export"), blobSink(file), { signal: new AbortController().signal });
      setExported({ file });
    } catch (error) {
      setExported({ error: errorMessage(error, t) });
    } finally {
      setExporting(false);
    }
  };
  const disconnect = async (event: FormEvent) => {
    event.preventDefault();
    setState({ kind: "running" });
    try {
      const result = await appCall("tenant.disconnect", { body: { confirm: confirm as "DISCONNECT", deleteAuditLog } });
      forgetStoredSessions();
      setState({ kind: "done", rows: result.rowsDeleted });
    } catch (error) {
      setState({ kind: "failed", message: errorMessage(error, t) });
    }
  };
  const homeTime = (ms: number) => formatHomeTimeIn(new Date(ms).toISOString(), locale);

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4">
      <PageHeader title={t("tenant.title")} intro={t("tenant.intro")} />
      {answer?.ended ? (
        <p role="alert" className="rounded-lg border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950">
          {t("tenant.ended", { date: homeTime(answer.ended.markedAt), deleteAt: homeTime(answer.ended.deleteAt) })}
        </p>
      ) : null}
      {data.isError ? <p role="alert" className="text-red-800">{errorMessage(data.error, t)}</p> : null}
      {answer ? (
        <DataTable
          rows={answer.tables}
          rowKey={(r) => r.table}
          caption={t("tenant.caption")}
          testId="tenant-data"
          columns={[
            { key: "table", header: t("tenant.table"), cell: (r) => tableName(r.table) },
            { key: "rows", header: t("tenant.rows"), align: "right", cell: (r) => String(r.rows) },
          ]}
        />
      ) : null}
      {answer && !answer.isAdmin ? (
        <p className="rounded-lg border border-slate-300 bg-white p-3 text-sm text-slate-900" data-testid="disconnect-admin-only">
          {t("tenant.adminOnly", { name: answer.installedByName || t("tenant.adminUnknown") })}
        </p>
      ) : null}
      {answer?.isAdmin ? (
        <>
          <div className="flex flex-wrap items-center gap-3">
            <Button onClick={() => void runExport()} disabled={exporting} data-testid="tenant-export">
              {exporting ? t("tenant.exporting") : t("tenant.export")}
            </Button>
            <p role={exported && "error" in exported ? "alert" : "status"} className="text-sm text-slate-800">
              {exported ? ("file" in exported ? t("tenant.exported", { file: exported.file }) : t("tenant.exportFailed", { message: exported.error })) : ""}
            </p>
          </div>
          <form onSubmit={disconnect} className="flex flex-col gap-3 rounded-lg border border-red-300 bg-white p-4">
            <CheckboxField label={t("tenant.deleteAudit")} checked={deleteAuditLog} onChange={(e) => setDeleteAuditLog(e.target.checked)} />
            <TextField label={t("tenant.confirmLabel")} value={confirm} onChange={(e) => setConfirm(e.target.value)} autoComplete="off" help={exported && "file" in exported ? undefined : t("tenant.exportFirst")} />
            <div>
              <Button type="submit" variant="danger" disabled={!(exported && "file" in exported) || confirm !== "DISCONNECT" || state.kind === "running"} data-testid="tenant-disconnect">
                {state.kind === "running" ? t("tenant.disconnecting") : t("tenant.disconnect")}
              </Button>
            </div>
            {state.kind === "failed" ? <p role="alert" className="text-sm text-red-800">{state.message}</p> : null}
          </form>
        </>
      ) : null}
    </div>
  );
}
