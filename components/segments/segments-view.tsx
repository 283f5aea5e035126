"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { appCall } from "@/lib/api/browser-fetch";
import { appQuery, invalidateAppAfter } from "@/lib/api/app-queries";
import { ApiError } from "@/lib/http/api-error";
import { appRouteUrl } from "@/lib/http/app-routes";
import { useDebouncedValue } from "@/lib/hooks/use-debounced-value";
import { toastStore } from "@/lib/ui/toast-store";
import type { MessageKey } from "@/lib/i18n/messages";
import type { PreviewRowView, SegmentSchedule, SegmentView, SyncRunView } from "@/lib/segments/segment-types";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { TaskPanel } from "@/components/tasks/task-panel";
import { Button } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { SelectField, TextField } from "@/components/ui/field";
import { PageHeader, LiveTotal } from "@/components/ui/page-header";
import { TimeText } from "@/components/ui/time-text";
import { errorMessage } from "@/components/ui/error-message";
import { definitionOf, draftOf, errorsByCondition, FIELD_OPS, FIELDS, newCondition, type DraftCondition } from "./segment-draft";

type PreviewSort = "name" | "dateCreated" | "lastUpdated" | "orderCount" | "orderAmount" | "lastOrder" | "activityScore";

/**
 * Segments: the saved ones (a link per segment: `?segment=<id>` opens it for anyone of the
 * tenant), the editor (conditions, all/any) with a live count and a preview page debounced while
 * typing, and the actions on a saved segment: export the customers page's CSV, tag everyone, sync
 * into a static list (with the history every staff member sees, and a schedule).
 */
export function SegmentsView() {
  const { t } = useI18n();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const queryClient = useQueryClient();
  const selectedId = params.get("segment");
  const segments = useQuery(appQuery("segments.list", {}));
  const detail = useQuery({ ...appQuery("segments.get", { params: { id: selectedId ?? "" } }), enabled: !!selectedId, refetchInterval: (q) => (q.state.data?.running ? 2000 : 5000) });

  const [name, setName] = useState("");
  const [match, setMatch] = useState<"all" | "any">("all");
  const [conditions, setConditions] = useState<DraftCondition[]>([]);
  const [loadedId, setLoadedId] = useState<string | null | undefined>(undefined);
  const [sort, setSort] = useState<{ sort: PreviewSort; order: "asc" | "desc" } | undefined>(undefined);

  // The selected segment fills the editor once (a later refetch of its history leaves edits alone):
  // state adjusted while rendering, when the segment to show changes.
  const shown = detail.data?.segment;
  const wanted = selectedId ? (shown && shown.id === selectedId ? shown.id : undefined) : null;
  if (wanted !== undefined && wanted !== loadedId) {
    setLoadedId(wanted);
    setName(shown && wanted ? shown.name : "");
    setMatch(shown && wanted ? shown.definition.match : "all");
    setConditions(shown && wanted ? draftOf(shown.definition) : [newCondition()]);
  }

  const definition = useMemo(() => definitionOf(match, conditions), [match, conditions]);
  const settled = useDebouncedValue(definition, 400);
  // The index follows the platform (webhooks, polls): the count is asked again every few seconds.
  const count = useQuery({ ...appQuery("segments.count", { body: { definition: settled } }), placeholderData: keepPreviousData, retry: false, refetchInterval: 5000 });
  const preview = useQuery({ ...appQuery("segments.preview", { body: { definition: settled, limit: 50, ...(sort ? sort : {}) } }), placeholderData: keepPreviousData, retry: false });
  const invalid = count.error instanceof ApiError && count.error.status === 422 ? count.error : undefined;
  const conditionErrors = invalid ? errorsByCondition(invalid.fieldErrors) : new Map<number, string[]>();

  const open = (id: string | null) => {
    const next = new URLSearchParams(params.toString());
    if (id) next.set("segment", id);
    else next.delete("segment");
    router.replace(`${pathname}?${next.toString()}`);
  };

  const save = useMutation({
    mutationFn: async () =>
      selectedId
        ? appCall("segments.update", { params: { id: selectedId }, body: { name: name.trim(), definition } })
        : appCall("segments.create", { body: { name: name.trim(), definition } }),
    onSuccess: async (answer) => {
      toastStore.show("success", t("segments.savedToast", { name: answer.segment.name }));
      await invalidateAppAfter(queryClient, "segments.create");
      setLoadedId(answer.segment.id);
      if (!selectedId) open(answer.segment.id);
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => appCall("segments.delete", { params: { id } }),
    onSuccess: async () => {
      toastStore.show("info", t("segments.deleted"));
      await invalidateAppAfter(queryClient, "segments.delete");
      open(null);
    },
  });

  const update = (key: number, patch: Partial<DraftCondition>) => setConditions((all) => all.map((c) => (c.key === key ? { ...c, ...patch } : c)));
  const saveErrors = save.error instanceof ApiError ? save.error.fieldErrors : [];
  const nameError = saveErrors.find((e) => e.field === "body.name")?.message;

  const rows = preview.data?.rows ?? [];
  const used = new Set(conditions.map((c) => c.field));
  const columns: Column<PreviewRowView, PreviewSort>[] = [
    { key: "name", header: t("segments.col.name"), sortKey: "name", cell: (r) => r.displayName ?? r.id },
    { key: "contact", header: t("segments.col.contact"), cell: (r) => [r.mobile, r.email].filter(Boolean).join(" · ") },
    ...(used.has("tags") ? [{ key: "tags", header: t("segments.col.tags"), cell: (r: PreviewRowView) => r.tags.join(", ") }] : []),
    ...(used.has("stage") ? [{ key: "stage", header: t("segments.field.stage"), cell: (r: PreviewRowView) => r.stage }] : []),
    ...(used.has("source") ? [{ key: "source", header: t("segments.field.source"), cell: (r: PreviewRowView) => r.source }] : []),
    ...(used.has("gender") ? [{ key: "gender", header: t("segments.field.gender"), cell: (r: PreviewRowView) => t(`segments.gender.${r.gender === 1 || r.gender === 2 ? r.gender : 0}` as MessageKey) }] : []),
    ...(used.has("dateCreated") ? [{ key: "dateCreated", header: t("segments.field.dateCreated"), sortKey: "dateCreated" as const, cell: (r: PreviewRowView) => <TimeText value={r.dateCreated} /> }] : []),
    ...(used.has("lastUpdated") ? [{ key: "lastUpdated", header: t("segments.field.lastUpdated"), sortKey: "lastUpdated" as const, cell: (r: PreviewRowView) => <TimeText value={r.lastUpdated} /> }] : []),
    ...(used.has("birthMonth") ? [{ key: "birthMonth", header: t("segments.col.birthMonth"), cell: (r: PreviewRowView) => r.birthMonth }] : []),
    ...(used.has("attr") ? [{ key: "attrs", header: t("segments.col.attrs"), cell: (r: PreviewRowView) => (r.attrs ? Object.entries(r.attrs).map(([k, v]) => `${k}: ${String(v)}`).join(", ") : "") }] : []),
    ...(used.has("identityType") ? [{ key: "identities", header: t("segments.col.identityType"), cell: (r: PreviewRowView) => r.identityTypes.join(", ") }] : []),
    ...(used.has("orderCount") ? [{ key: "orderCount", header: t("segments.field.orderCount"), sortKey: "orderCount" as const, align: "right" as const, cell: (r: PreviewRowView) => r.orderCount ?? 0 }] : []),
    ...(used.has("orderAmount") ? [{ key: "orderAmount", header: t("segments.field.orderAmount"), sortKey: "orderAmount" as const, align: "right" as const, cell: (r: PreviewRowView) => r.orderAmount ?? 0 }] : []),
    ...(used.has("daysSinceLastOrder") ? [{ key: "lastOrder", header: t("segments.col.lastOrder"), sortKey: "lastOrder" as const, cell: (r: PreviewRowView) => (r.lastOrderAt ? <TimeText value={`${r.lastOrderAt}Z`} /> : "") }] : []),
    ...(used.has("activityScore") ? [{ key: "activityScore", header: t("segments.field.activityScore"), sortKey: "activityScore" as const, align: "right" as const, cell: (r: PreviewRowView) => r.activityScore ?? 0 }] : []),
  ];

  const selected = detail.data?.segment;
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={t("segments.title")}
        aside={<LiveTotal>{count.data && !invalid ? <span data-testid="segment-count">{t("segments.count", { count: count.data.count })}</span> : null}</LiveTotal>}
        intro={t("segments.intro")}
      />
      <div className="grid gap-4 lg:grid-cols-[14rem_1fr]">
        <nav aria-label={t("segments.saved")} className="flex flex-col gap-2">
          <h2 className="text-sm font-semibold text-slate-900">{t("segments.saved")}</h2>
          {segments.isError ? <p className="text-sm text-red-700">{t("segments.loadError")}</p> : null}
          <ul className="flex flex-col gap-1" data-testid="segment-list">
            {(segments.data?.segments ?? []).map((s: SegmentView) => (
              <li key={s.id}>
                <Button variant={s.id === selectedId ? "primary" : "ghost"} className="w-full justify-start" aria-current={s.id === selectedId ? "true" : undefined} onClick={() => open(s.id)}>
                  {s.name}
                </Button>
              </li>
            ))}
          </ul>
          {segments.data && segments.data.segments.length === 0 ? <p className="text-sm text-slate-700">{t("segments.none")}</p> : null}
          <Button onClick={() => open(null)}>{t("segments.new")}</Button>
        </nav>

        <section aria-label={t("segments.conditions")} className="flex min-w-0 flex-col gap-3">
          <div className="flex flex-wrap items-end gap-3">
            <TextField label={t("segments.name")} value={name} onChange={(e) => setName(e.target.value)} maxLength={255} error={nameError} className="w-64" />
            <SelectField label={t("segments.match")} value={match} onChange={(e) => setMatch(e.target.value as "all" | "any")} className="w-48">
              <option value="all">{t("segments.match.all")}</option>
              <option value="any">{t("segments.match.any")}</option>
            </SelectField>
          </div>
          <ol className="flex flex-col gap-2" data-testid="segment-conditions">
            {conditions.map((c, index) => (
              <ConditionRow key={c.key} n={index + 1} condition={c} errors={conditionErrors.get(index)} onChange={(patch) => update(c.key, patch)} onRemove={() => setConditions((all) => all.filter((x) => x.key !== c.key))} />
            ))}
          </ol>
          {conditions.length === 0 ? <p className="text-sm text-slate-700">{t("segments.noConditions")}</p> : null}
          <div className="flex flex-wrap items-center gap-3">
            <Button onClick={() => setConditions((all) => [...all, newCondition()])}>{t("segments.addCondition")}</Button>
            <Button variant="primary" disabled={save.isPending} onClick={() => (name.trim() ? save.mutate() : save.reset())}>
              {save.isPending ? t("segments.saving") : t("segments.save")}
            </Button>
            {selected ? (
              <Button variant="ghost" onClick={() => remove.mutate(selected.id)}>
                {t("segments.delete")}
              </Button>
            ) : null}
          </div>
          {save.isError && !nameError ? <p className="text-sm text-red-700" role="alert">{errorMessage(save.error, t)}</p> : null}

          <div aria-live="polite" className="text-sm text-slate-800" data-testid="segment-count-status">
            {invalid ? t("segments.invalid") : count.isFetching && !count.data ? t("segments.counting") : count.data ? `${t("segments.count", { count: count.data.count })} ${t("segments.countOf", { indexed: count.data.indexed })}` : null}
            {count.data && !count.data.ready ? ` ${t("segments.indexBuilding")}` : null}
          </div>

          {selected ? <SegmentActions segment={selected} runs={detail.data?.runs ?? []} running={detail.data?.running ?? false} everyone={conditions.length === 0} /> : <p className="text-sm text-slate-700">{t("segments.saveFirst")}</p>}

          <h2 className="text-base font-semibold text-slate-900">{t("segments.preview")}</h2>
          {rows.length === 0 && preview.isSuccess ? <p className="text-sm text-slate-700">{t("segments.previewEmpty")}</p> : null}
          {rows.length > 0 ? (
            <DataTable
              rows={rows}
              rowKey={(r) => r.id}
              columns={columns}
              caption={t("segments.previewCaption", { count: rows.length })}
              testId="segment-preview"
              busy={preview.isFetching}
              sort={{ value: sort?.sort ?? "name", order: sort?.order ?? "asc", onChange: (s) => setSort({ sort: s.sort, order: s.order }) }}
            />
          ) : null}
        </section>
      </div>
    </div>
  );
}

function ConditionRow({ n, condition: c, errors, onChange, onRemove }: { n: number; condition: DraftCondition; errors: string[] | undefined; onChange: (patch: Partial<DraftCondition>) => void; onRemove: () => void }) {
  const { t } = useI18n();
  const ops = FIELD_OPS[c.field] ?? [];
  const needsValues = ["tags", "identityType", "gender", "birthMonth"].includes(c.field) || ((c.field === "stage" || c.field === "source") && (c.op === "is" || c.op === "isNot"));
  const dated = c.field === "dateCreated" || c.field === "lastUpdated";
  const numeric = ["orderCount", "orderAmount", "activityScore", "daysSinceLastOrder"].includes(c.field) && c.op !== "never";
  return (
    <li className="flex flex-wrap items-end gap-2 rounded-md border border-slate-300 p-2" aria-label={t("segments.conditionLabel", { n })} data-testid="segment-condition">
      <SelectField label={t("segments.field")} value={c.field} className="w-44" onChange={(e) => onChange({ field: e.target.value, op: FIELD_OPS[e.target.value]![0]! })}>
        {FIELDS.map((f) => (
          <option key={f} value={f}>
            {t(`segments.field.${f}` as MessageKey)}
          </option>
        ))}
      </SelectField>
      {c.field === "attr" ? (
        <SelectField label={t("segments.attr")} value={c.attr} className="w-28" onChange={(e) => onChange({ attr: e.target.value })}>
          {Array.from({ length: 100 }, (_, i) => `attr${i + 1}`).map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </SelectField>
      ) : null}
      <SelectField label={t("segments.op")} value={c.op} className="w-48" onChange={(e) => onChange({ op: e.target.value })}>
        {ops.map((op) => (
          <option key={op} value={op}>
            {t(`segments.op.${op}` as MessageKey)}
          </option>
        ))}
      </SelectField>
      {needsValues ? <TextField label={t("segments.value")} help={t("segments.valuesHelp")} value={c.values} className="w-56" onChange={(e) => onChange({ values: e.target.value })} /> : null}
      {c.field === "attr" && (c.op === "is" || c.op === "contains") ? <TextField label={t("segments.value")} value={c.value} className="w-40" onChange={(e) => onChange({ value: e.target.value })} /> : null}
      {dated && (c.op === "withinDays" || c.op === "notWithinDays") ? <TextField label={t("segments.days")} inputMode="numeric" value={c.days} className="w-24" onChange={(e) => onChange({ days: e.target.value })} /> : null}
      {dated && (c.op === "on" || c.op === "after" || c.op === "between") ? <TextField label={t("segments.value")} type="date" value={c.from} className="w-40" onChange={(e) => onChange({ from: e.target.value })} /> : null}
      {dated && (c.op === "before" || c.op === "between") ? <TextField label={t("segments.to")} type="date" value={c.to} className="w-40" onChange={(e) => onChange({ to: e.target.value })} /> : null}
      {numeric ? <TextField label={t("segments.value")} inputMode="decimal" value={c.value} className="w-24" onChange={(e) => onChange({ value: e.target.value })} /> : null}
      {numeric && c.op === "between" ? <TextField label={t("segments.to")} inputMode="decimal" value={c.to} className="w-24" onChange={(e) => onChange({ to: e.target.value })} /> : null}
      <Button variant="ghost" onClick={onRemove} aria-label={t("segments.removeCondition", { n })}>
        ×
      </Button>
      {errors?.length ? (
        <p className="basis-full text-xs font-medium text-red-700" role="alert" data-testid="segment-condition-error">
          {errors.join("; ")}
        </p>
      ) : null}
    </li>
  );
}

function SegmentActions({ segment, runs, running, everyone }: { segment: SegmentView; runs: SyncRunView[]; running: boolean; everyone: boolean }) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const queryClient = useQueryClient();
  // Until staff choose, the segment's own list once it has one (the first sync's new list), else a new one.
  const [chosenList, setListChoice] = useState<"segment" | "new" | "existing" | undefined>(undefined);
  const listChoice = chosenList ?? (segment.listId ? "segment" : "new");
  const [newListName, setNewListName] = useState(segment.name);
  const [listId, setListId] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [tagNames, setTagNames] = useState("");
  const [exportStatus, setExportStatus] = useState<string | null>(null);

  const sync = useMutation({
    mutationFn: (confirmEveryone: boolean) =>
      appCall("segments.sync", {
        params: { id: segment.id },
        body: { ...(listChoice === "new" ? { newListName } : listChoice === "existing" ? { listId } : {}), ...(confirmEveryone ? { confirmEveryone } : {}) },
      }),
    onSuccess: async () => {
      setConfirming(false);
      toastStore.show("info", t("segments.syncStarted"));
      await invalidateAppAfter(queryClient, "segments.sync");
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === "confirm_everyone") setConfirming(true);
    },
  });
  const schedule = useMutation({
    mutationFn: (value: SegmentSchedule) => appCall("segments.update", { params: { id: segment.id }, body: { schedule: value } }),
    onSuccess: () => invalidateAppAfter(queryClient, "segments.update"),
  });
  const tag = useMutation({
    mutationFn: () => appCall("segments.tag", { params: { id: segment.id }, body: { names: tagNames.split(/[,，、]/).map((s) => s.trim()).filter(Boolean) } }),
    onSuccess: (answer) => toastStore.show(answer.failed ? "error" : "success", t("segments.tagged", { tagged: answer.tagged, failed: answer.failed })),
  });

  const exportCsv = async () => {
    const [{ blobSink, downloadCsv, ExportFailedError }, { exportFileName }] = await Promise.all([import("@/lib/api/csv-download"), import("@/lib/csv")]);
    const file = exportFileName("segment");
    setExportStatus(t("segments.exporting", { rows: 0 }));
    try {
      const { rows } = await downloadCsv(appRouteUrl("segments.export", { params: { id: segment.id } }), blobSink(file), { signal: new AbortController().signal, onProgress: (rows) => setExportStatus(t("segments.exporting", { rows })) });
      setExportStatus(t("segments.exported", { rows, file }));
    } catch (error) {
      setExportStatus(error instanceof ExportFailedError ? t("segments.exportFailed", { rows: error.rows }) : errorMessage(error, t));
    }
  };

  const runColumns: Column<SyncRunView>[] = [
    { key: "when", header: t("segments.run.when"), cell: (r) => <TimeText value={r.startedAt} /> },
    { key: "by", header: t("segments.run.by"), cell: (r) => r.startedBy?.name ?? t("segments.run.schedule") },
    { key: "state", header: t("segments.run.state"), cell: (r) => t(`segments.run.state.${r.state}` as MessageKey) },
    { key: "added", header: t("segments.run.added"), align: "right", cell: (r) => r.added },
    { key: "removed", header: t("segments.run.removed"), align: "right", cell: (r) => r.removed },
    { key: "failed", header: t("segments.run.failed"), align: "right", cell: (r) => r.failed },
  ];
  const latestFailures = runs[0]?.failures ?? [];

  return (
    <div className="flex flex-col gap-3 rounded-md border border-slate-300 p-3" data-testid="segment-actions">
      <div className="flex flex-wrap items-end gap-3">
        <Button onClick={() => void exportCsv()}>{t("segments.export")}</Button>
        <a className="text-sm text-blue-800 underline" href={href("/segments", { segment: segment.id })} title={t("segments.shareHelp")}>
          {t("segments.share")}
        </a>
        {exportStatus ? (
          <span className="text-sm text-slate-800" aria-live="polite" data-testid="segment-export-status">
            {exportStatus}
          </span>
        ) : null}
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <TextField label={t("segments.tagNames")} help={t("segments.tagHelp")} value={tagNames} onChange={(e) => setTagNames(e.target.value)} className="w-64" />
        <Button disabled={tag.isPending || !tagNames.trim()} onClick={() => tag.mutate()}>
          {tag.isPending ? t("segments.tagging") : t("segments.tag")}
        </Button>
      </div>
      <fieldset className="flex flex-wrap items-end gap-3">
        <legend className="mb-1 text-sm font-semibold text-slate-900">{t("segments.syncTitle")}</legend>
        <SelectField label={t("segments.syncList")} value={listChoice} className="w-64" onChange={(e) => setListChoice(e.target.value as typeof listChoice)}>
          {segment.listId ? <option value="segment">{t("segments.syncSegmentList", { name: segment.listName ?? segment.listId })}</option> : null}
          <option value="new">{t("segments.syncNewList")}</option>
          <option value="existing">{t("segments.syncExistingList")}</option>
        </SelectField>
        {listChoice === "new" ? <TextField label={t("segments.name")} value={newListName} maxLength={255} onChange={(e) => setNewListName(e.target.value)} className="w-56" /> : null}
        {listChoice === "existing" ? <TextField label={t("segments.syncList")} inputMode="numeric" value={listId} onChange={(e) => setListId(e.target.value)} className="w-44" /> : null}
        <Button variant="primary" disabled={sync.isPending || running} onClick={() => sync.mutate(false)}>
          {t("segments.sync")}
        </Button>
        <SelectField label={t("segments.schedule")} value={segment.schedule} className="w-44" onChange={(e) => schedule.mutate(e.target.value as SegmentSchedule)}>
          <option value="off">{t("segments.schedule.off")}</option>
          <option value="hourly">{t("segments.schedule.hourly")}</option>
          <option value="daily">{t("segments.schedule.daily")}</option>
        </SelectField>
      </fieldset>
      {confirming || (everyone && sync.error instanceof ApiError && sync.error.code === "confirm_everyone") ? (
        <div role="alertdialog" aria-label={t("segments.confirmEveryone")} className="flex flex-wrap items-center gap-3 rounded-md bg-amber-50 p-2 text-sm text-slate-900">
          <span>{t("segments.confirmEveryone")}</span>
          <Button variant="primary" onClick={() => sync.mutate(true)}>
            {t("segments.confirmEveryoneButton")}
          </Button>
        </div>
      ) : null}
      {sync.isError && !(sync.error instanceof ApiError && sync.error.code === "confirm_everyone") ? (
        <p className="text-sm text-red-700" role="alert">
          {errorMessage(sync.error, t)}
        </p>
      ) : null}
      {running ? (
        <p className="text-sm text-slate-800" aria-live="polite" data-testid="segment-sync-running">
          {t("segments.syncRunning")}
        </p>
      ) : null}
      <TaskPanel kinds={["segments.sync"]} label={() => t("segments.syncTitle")} testId="segment-tasks" />
      <h3 className="text-sm font-semibold text-slate-900">{t("segments.history")}</h3>
      {runs.length === 0 ? <p className="text-sm text-slate-700">{t("segments.historyEmpty")}</p> : <DataTable rows={runs} rowKey={(r) => r.id} columns={runColumns} caption={t("segments.historyCaption")} testId="segment-runs" />}
      {latestFailures.length > 0 ? (
        <details className="text-sm">
          <summary>{t("segments.run.failures")}</summary>
          <ul>
            {latestFailures.map((f) => (
              <li key={f.customerId}>
                {f.customerId}: {f.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
