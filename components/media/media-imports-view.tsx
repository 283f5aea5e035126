"use client";
import { useQuery } from "@tanstack/react-query";
import { AppLink } from "@/components/ui/app-link";
import { appQuery } from "@/lib/api/app-queries";
import type { MessageKey } from "@/lib/i18n/messages";
import type { MediaImport } from "@/lib/media/media-api";
import { mediaImportList, type MediaImportSort } from "@/lib/media/media-import-list";
import { useListController } from "@/lib/ui/list-controller";
import { sortRows } from "@/lib/ui/sort-rows";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { buttonClass } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { QueryView } from "@/components/ui/query-view";
import { TimeText } from "@/components/ui/time-text";

/** A file of an import: its path and what its events are. */
export function FileLine({ file }: { file: MediaImport["files"][number] }) {
  const { t } = useI18n();
  return (
    <li>
      <span className="font-mono text-xs break-all">{file.file}</span> <span className="text-xs text-slate-700">({t(`media.event.${file.eventType ?? "column"}` as MessageKey)})</span>
    </li>
  );
}

/** The imports started through the app (§4.6), latest first; the API has no task status to show. */
export function MediaImportsView() {
  const { t } = useI18n();
  const href = useConsoleHref();
  const imports = useQuery(appQuery("media.imports", {}));
  const { state, tableSort } = useListController(mediaImportList);
  const rows = sortRows(imports.data?.imports ?? [], state.sort, state.order, { started: (row: MediaImport) => row.startedAt, by: (row) => row.startedByName ?? row.startedBy });
  const columns: Column<MediaImport, MediaImportSort>[] = [
    { key: "started", header: t("media.col.started"), sortKey: "started", className: "whitespace-nowrap", cell: (row) => <TimeText value={row.startedAt} /> },
    { key: "by", header: t("media.col.by"), sortKey: "by", cell: (row) => row.startedByName ?? row.startedBy },
    {
      key: "files",
      header: t("media.col.files"),
      cell: (row) => (
        <ul>
          {row.files.map((file) => (
            <FileLine key={file.file} file={file} />
          ))}
        </ul>
      ),
    },
    {
      key: "tasks",
      header: t("media.col.tasks"),
      cell: (row) => (
        <ul className="font-mono text-xs tabular-nums">
          {row.taskIds.map((id) => (
            <li key={id}>{id}</li>
          ))}
        </ul>
      ),
    },
  ];
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-xl font-semibold text-slate-900">{t("media.title")}</h1>
        <AppLink href={href("/media/new")} className={buttonClass("primary")}>
          {t("media.new")}
        </AppLink>
      </div>
      <p className="text-sm text-slate-800">{t("media.intro")}</p>
      <p className="rounded-md border border-slate-300 bg-slate-50 p-2 text-sm text-slate-800" data-testid="media-no-status">
        {t("media.noStatus")}
      </p>
      <QueryView query={imports} hasRows={rows.length > 0} testId="media" loading={t("media.loading")} empty={{ title: t("media.emptyTitle"), body: t("media.emptyBody") }}>
        <DataTable rows={rows} rowKey={(row) => row.id} columns={columns} caption={t("media.caption")} testId="media-table" busy={imports.isFetching} sort={tableSort} />
      </QueryView>
    </div>
  );
}
