"use client";
import { AppLink } from "@/components/ui/app-link";
import { useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useDraft } from "@/lib/hooks/use-draft";
import { auditExportQuery, auditList, AUDIT_PAGE, type AuditListState } from "@/lib/audit/audit-list";
import type { AuditSettings } from "@/lib/audit/audit-operations";
import type { AuditEntry } from "@/lib/audit/audit-store";
import { appCall } from "@/lib/api/browser-fetch";
import { appRouteUrl } from "@/lib/http/app-routes";
import { useListController } from "@/lib/ui/list-controller";
import { useI18n } from "@/components/i18n/i18n-provider";
import { LazyCustomerPicker } from "@/components/search/lazy-customer-picker";
import { Button, focusRing } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { DateTimeField } from "@/components/ui/date-time-field";
import { SelectField, TextField } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { TimeText } from "@/components/ui/time-text";
import { errorMessage } from "@/components/ui/error-message";
import { AuditChanges, AuditOutcome, AuditTargets } from "./audit-entry-cells";

const linkClass = `rounded text-blue-800 underline underline-offset-2 hover:text-blue-950 ${focusRing}`;

type Props = {
  entries: AuditEntry[];
  facets: { actors: Array<{ id: string; name: string | null }>; operations: string[] };
  problems: { from: boolean; to: boolean };
  settings: AuditSettings;
};

type FilterValues = Pick<AuditListState, "actor" | "operation" | "outcome" | "target" | "from" | "to">;
const draftOf = ({ actor, operation, outcome, target, from, to }: FilterValues): FilterValues => ({ actor, operation, outcome, target, from, to });

/**
 * The Audit page: the tenant's audit log in the console's table, filtered by staff member,
 * operation, outcome, customer (the customer picker) and time (UTC+8), the state in the URL (the
 * list controller; the server page reads the store for it), keyset pages, a CSV export of the
 * filtered log, and the retention setting.
 */
export function AuditView({ entries, facets, problems, settings }: Props) {
  const { t } = useI18n();
  const { state, update } = useListController(auditList, { shallow: false });
  const search = useSearchParams();
  const hrefOf = (next: AuditListState) => `?${auditList.serialize(next, new URLSearchParams(search.toString()))}`;
  const filtered = Boolean(state.actor || state.operation || state.outcome || state.target || state.from || state.to);

  // Tight padding, long values wrapped: the seven columns fit the admin's 1024-px pane.
  const tight = { headClassName: "px-2! whitespace-normal!" };
  const columns: Column<AuditEntry>[] = [
    { key: "when", header: t("audit.when"), className: "px-2! text-xs whitespace-nowrap", ...tight, cell: (e) => <TimeText value={e.at} stacked /> },
    { key: "who", header: t("audit.who"), className: "px-2! max-w-28 break-words", ...tight, cell: (e) => <span title={e.actorId}>{e.actorName || e.actorId || "—"}</span> },
    { key: "operation", header: t("audit.operation"), className: "px-2! max-w-32 font-mono text-xs break-all", ...tight, cell: (e) => e.operation },
    { key: "targets", header: t("audit.targets"), className: "px-2! max-w-40 break-words", ...tight, cell: (e) => <AuditTargets entry={e} /> },
    { key: "changes", header: t("audit.changes"), className: "px-2! break-words", ...tight, cell: (e) => <AuditChanges entry={e} /> },
    { key: "outcome", header: t("audit.outcome"), className: "px-2!", ...tight, cell: (e) => <AuditOutcome entry={e} /> },
    { key: "request", header: t("audit.requestId"), className: "px-2! max-w-24 font-mono text-xs break-all", ...tight, cell: (e) => e.requestId },
  ];
  const newest: AuditListState = { ...state, before: "" };

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4">
      <PageHeader title={t("audit.title")} intro={t("audit.intro")} aside={<AuditExport state={state} />} />
      <AuditFilters values={state} facets={facets} problems={problems} onApply={(values) => update(values)} onClear={() => update({ actor: "", operation: "", outcome: "", target: "", from: "", to: "" })} />
      {entries.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 bg-white p-6 text-slate-700" data-testid="audit-empty">
          {filtered || state.before ? t("audit.noMatch") : t("audit.empty")}
        </p>
      ) : (
        <DataTable rows={entries} rowKey={(e) => e.id} columns={columns} caption={t("audit.caption")} testId="audit-table" />
      )}
      <nav aria-label={t("audit.paging")} className="flex gap-4 text-sm">
        {state.before && (
          <AppLink href={hrefOf(newest)} replace className={linkClass}>
            {t("audit.newest")}
          </AppLink>
        )}
        {entries.length === AUDIT_PAGE && (
          <AppLink href={hrefOf({ ...state, before: entries.at(-1)!.id })} replace className={linkClass} data-testid="audit-older">
            {t("audit.older")}
          </AppLink>
        )}
      </nav>
      <RetentionForm settings={settings} />
    </div>
  );
}

function AuditFilters({ values, facets, problems, onApply, onClear }: { values: FilterValues; facets: Props["facets"]; problems: Props["problems"]; onApply: (v: FilterValues) => void; onClear: () => void }) {
  const { t } = useI18n();
  const [draft, setDraft] = useDraft(draftOf(values));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form onSubmit={submit} role="search" aria-label={t("audit.filters")} className="grid grid-cols-2 items-end gap-3 rounded-lg border border-slate-300 bg-white p-3 lg:grid-cols-3">
      <SelectField label={t("audit.filter.actor")} value={draft.actor} onChange={(e) => setDraft({ ...draft, actor: e.target.value })}>
        <option value="">{t("audit.filter.any")}</option>
        {facets.actors.map((a) => (
          <option key={a.id} value={a.id}>{a.name ? `${a.name}` : a.id}</option>
        ))}
      </SelectField>
      <SelectField label={t("audit.filter.operation")} value={draft.operation} onChange={(e) => setDraft({ ...draft, operation: e.target.value })}>
        <option value="">{t("audit.filter.any")}</option>
        {facets.operations.map((o) => (
          <option key={o} value={o}>{o}</option>
        ))}
      </SelectField>
      <SelectField label={t("audit.filter.outcome")} value={draft.outcome} onChange={(e) => setDraft({ ...draft, outcome: e.target.value })}>
        <option value="">{t("audit.filter.any")}</option>
        <option value="done">{t("audit.outcome.done")}</option>
        <option value="refused">{t("audit.outcome.refused")}</option>
        <option value="failed">{t("audit.outcome.failed")}</option>
      </SelectField>
      <LazyCustomerPicker label={t("audit.filter.target")} value={draft.target} onChange={(target) => setDraft({ ...draft, target })} testId="audit-target" />
      <DateTimeField label={t("audit.filter.from")} value={draft.from} onChange={(from) => setDraft({ ...draft, from })} error={problems.from ? t("audit.filter.invalidTime") : undefined} />
      <DateTimeField label={t("audit.filter.to")} value={draft.to} onChange={(to) => setDraft({ ...draft, to })} error={problems.to ? t("audit.filter.invalidTime") : undefined} />
      <div className="col-span-2 flex gap-2 lg:col-span-3">
        <Button type="submit" variant="primary">{t("audit.filter.apply")}</Button>
        <Button variant="ghost" onClick={onClear}>{t("audit.filter.clear")}</Button>
      </div>
    </form>
  );
}

/** The filtered log as a CSV file (downloaded with the console's headers: the export needs them). */
function AuditExport({ state }: { state: AuditListState }) {
  const { t, locale } = useI18n();
  const [status, setStatus] = useState<{ kind: "idle" } | { kind: "running" } | { kind: "done"; rows: number; file: string } | { kind: "failed"; message: string }>({ kind: "idle" });
  const start = async () => {
    setStatus({ kind: "running" });
    try {
      const [{ blobSink, downloadCsv }, { exportFileName }] = await Promise.all([import("@/lib/api/csv-download"), import("@/lib/csv")]);
      const file = exportFileName("audit-log");
      const url = appRouteUrl("audit.export", { query: { ...auditExportQuery(state), lang: locale } });
      const { rows } = await downloadCsv(url, blobSink(file), { signal: new AbortController().signal });
      setStatus({ kind: "done", rows, file });
    } catch (error) {
      setStatus({ kind: "failed", message: errorMessage(error, t) });
    }
  };
  return (
    <div className="flex flex-col items-end gap-1">
      <Button onClick={() => void start()} disabled={status.kind === "running"} data-testid="audit-export">
        {status.kind === "running" ? t("audit.exporting") : t("audit.export")}
      </Button>
      <p className="text-sm text-slate-800" role={status.kind === "failed" ? "alert" : "status"}>
        {status.kind === "done" ? t("audit.exported", { rows: status.rows, file: status.file }) : status.kind === "failed" ? t("audit.exportFailed", { message: status.message }) : ""}
      </p>
    </div>
  );
}

function RetentionForm({ settings }: { settings: AuditSettings }) {
  const { t } = useI18n();
  const [days, setDays] = useState(String(settings.retentionDays));
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await appCall("audit.settingsPut", { body: { retentionDays: Number(days) } });
      setMessage({ error: false, text: t("audit.retention.saved") });
    } catch (error) {
      setMessage({ error: true, text: errorMessage(error, t) });
    }
  };
  return (
    <section aria-labelledby="audit-retention" className="rounded-lg border border-slate-300 bg-white p-3">
      <h2 id="audit-retention" className="mb-2 font-semibold text-slate-900">{t("audit.retention.title")}</h2>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <TextField
          label={t("audit.retention.label")}
          type="number"
          min={settings.minDays}
          max={settings.maxDays}
          value={days}
          onChange={(e) => setDays(e.target.value)}
          help={t("audit.retention.help", { min: settings.minDays, max: settings.maxDays, default: settings.defaultDays })}
          error={message?.error ? message.text : undefined}
        />
        <Button type="submit">{t("audit.retention.save")}</Button>
        <p role="status" className="text-sm text-slate-800">{message && !message.error ? message.text : ""}</p>
      </form>
    </section>
  );
}
