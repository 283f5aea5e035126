"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { AppLink } from "@/components/ui/app-link";
import { useRef, useState } from "react";
import type { ApiError } from "@/lib/http/api-error";
import { invalidateAppAfter } from "@/lib/api/app-queries";
import { appCall } from "@/lib/api/browser-fetch";
import { placeErrors, problemText, problemTexts } from "@/lib/forms/field-errors";
import { useForm } from "@/lib/forms/use-form";
import type { MessageKey } from "@/lib/i18n/messages";
import { EVENT_CHOICES, fileListOf, MAX_IMPORT_FILES, newImportRow, validateImportRows, type EventChoice, type ImportRow } from "@/lib/media/import-form";
import type { MediaImport } from "@/lib/media/media-api";
import { FormAlert } from "@/components/forms/form-alert";
import { FormPageHeader, FormSection } from "@/components/forms/form-page";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, buttonClass } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import { errorMessage } from "@/components/ui/error-message";
import { FileLine } from "./media-imports-view";

type Values = { rows: ImportRow[] };

/** The route's field name `fileList.<i>.file` is the path field of row i. */
const rowFieldOf = (name: string) => {
  const row = /^fileList\.(\d+)\.file$/.exec(name)?.[1];
  return row === undefined ? undefined : `rows.${row}.file`;
};

/**
 * A media data import (§4.6): object-storage paths, each with its event type (exposure, click, or
 * the file's first column), checked before sending; the rules of §4.6 said where they matter; the
 * task ids returned shown at once and kept in the app's history.
 */
export function MediaImportForm() {
  const { t } = useI18n();
  const href = useConsoleHref();
  const queryClient = useQueryClient();
  const nextKey = useRef(2);
  const form = useForm<Values>({ initial: () => ({ rows: [newImportRow(1)] }), guard: true, validate: (v) => problemTexts(validateImportRows(v.rows), problemText(t, "media.error")) });
  const { values } = form;
  const [started, setStarted] = useState<MediaImport | undefined>();
  const send = useMutation({
    mutationFn: (rows: ImportRow[]) => appCall("media.import", { body: { fileList: fileListOf(rows) } }),
    meta: { silent: true },
    onSuccess: (answer) => {
      form.reset({ rows: [newImportRow(nextKey.current++)] });
      setStarted(answer.import);
      void invalidateAppAfter(queryClient, "media.import");
    },
    // The route's field names are `fileList.<i>.file`: the row's path field.
    onError: (error: ApiError) => form.fail(errorMessage(error, t), placeErrors(error.fieldErrors, rowFieldOf)),
  });

  const setRow = (index: number, patch: Partial<ImportRow>) => form.edit((v) => ({ rows: v.rows.map((r, i) => (i === index ? { ...r, ...patch } : r)) }), ...Object.keys(patch).map((k) => `rows.${index}.${k}`));

  return (
    <div className="flex flex-col gap-4">
      <FormPageHeader back={href("/media")} backLabel={t("media.form.back")} title={t("media.form.title")} intro={t("media.form.intro")} />
      <section aria-labelledby="media-rules" className="rounded-lg border border-slate-300 bg-slate-50 p-4 text-sm text-slate-800">
        <h2 id="media-rules" className="mb-1 font-semibold text-slate-900">{t("media.rules.title")}</h2>
        <ul className="list-disc pl-5">
          <li>{t("media.rules.wholeDays")}</li>
          <li>{t("media.rules.laterWins")}</li>
          <li>{t("media.rules.reimport")}</li>
          <li>{t("media.rules.column")}</li>
        </ul>
      </section>

      {started && (
        <section aria-labelledby="media-started" className="rounded-lg border border-green-700 bg-white p-4" data-testid="media-started" role="status">
          <h2 id="media-started" className="font-semibold text-slate-900">{t("media.result.title")}</h2>
          <p className="text-sm text-slate-800">{t("media.result.tasks", { count: started.taskIds.length })}</p>
          <ul className="font-mono text-sm tabular-nums" data-testid="media-task-ids">
            {started.taskIds.map((id) => (
              <li key={id}>{id}</li>
            ))}
          </ul>
          <ul className="mt-2">
            {started.files.map((file) => (
              <FileLine key={file.file} file={file} />
            ))}
          </ul>
          <AppLink href={href("/media")} className={`${buttonClass("secondary")} mt-2`}>
            {t("media.result.history")}
          </AppLink>
        </section>
      )}

      <form noValidate onSubmit={(e) => form.submit(e, (v) => send.mutate(v.rows), () => form.setFormError(t("media.problems")))} className="flex flex-col gap-4" aria-busy={send.isPending}>
        <FormAlert message={form.formError} />
        <FormSection title={t("media.col.files")}>
          <ol className="flex flex-col gap-3">
            {values.rows.map((row, i) => (
              <li key={row.key} className="grid items-start gap-2 sm:grid-cols-[1fr_16rem_auto]">
                <TextField label={t("media.file", { n: i + 1 })} help={t("media.fileHelp")} spellCheck={false} value={row.file} {...form.field(`rows.${i}.file`)} onChange={(e) => setRow(i, { file: e.target.value })} />
                <SelectField label={t("media.eventType", { n: i + 1 })} value={row.eventType} onChange={(e) => setRow(i, { eventType: e.target.value as EventChoice })}>
                  {EVENT_CHOICES.map((choice) => (
                    <option key={choice} value={choice}>
                      {t(`media.event.${choice}` as MessageKey)}
                    </option>
                  ))}
                </SelectField>
                <Button className="sm:mt-6" disabled={values.rows.length === 1} onClick={() => form.edit((v) => ({ rows: v.rows.filter((_, j) => j !== i) }), `rows.${i}.file`)}>
                  {t("media.removeFile", { n: i + 1 })}
                </Button>
              </li>
            ))}
          </ol>
          <Button className="mt-3" disabled={values.rows.length >= MAX_IMPORT_FILES} onClick={() => form.edit((v) => ({ rows: [...v.rows, newImportRow(nextKey.current++)] }))}>
            {t("media.addFile")}
          </Button>
        </FormSection>
        <div>
          <Button type="submit" variant="primary" disabled={send.isPending} aria-busy={send.isPending || undefined}>
            {send.isPending ? t("media.submitting") : t("media.submit")}
          </Button>
        </div>
      </form>
    </div>
  );
}
