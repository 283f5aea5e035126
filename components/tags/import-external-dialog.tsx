"use client";
import { useId, useMemo, useState, type FormEvent } from "react";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { EXTERNAL_TAG_MAX, externalImportRequest, parseExternalTags } from "@/lib/console/tag-forms";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button, focusRing } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-message";
import { inputClass } from "@/components/ui/field";

type Mode = "named" | "folder";

/**
 * §4.5 POST /v1/externalTags: named tags (each ≤ 64, §8) or, with `tags` left out, every tag file
 * of the current day's folder on the platform's storage. The answer's `success` and `failed` names
 * are shown as they come back.
 */
export function ImportExternalDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useI18n();
  return (
    <Dialog open={open} title={t("tags.external.title")} onClose={onClose}>
      {open && <ImportExternalBody onClose={onClose} />}
    </Dialog>
  );
}

function ImportExternalBody({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const namesId = useId();
  const [mode, setMode] = useState<Mode>("named");
  const [text, setText] = useState("");
  const [touched, setTouched] = useState(false);
  const parsed = useMemo(() => parseExternalTags(text), [text]);
  const importTags = usePlatformMutation("tags.importExternal", { meta: { silent: true } });
  const namedProblem = parsed.tooLong.length > 0 ? t("tags.external.tooLong", { max: EXTERNAL_TAG_MAX, count: parsed.tooLong.length }) : parsed.names.length === 0 ? t("tags.external.none") : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (importTags.isPending) return;
    if (mode === "named") {
      if (namedProblem) return;
      importTags.mutate(externalImportRequest({ mode, names: parsed.names }));
    } else importTags.mutate(externalImportRequest({ mode }));
  };
  const answer = importTags.data;
  const success = answer?.success ?? [];
  const failed = answer?.failed ?? [];
  const radio = `h-4 w-4 accent-blue-700 ${focusRing}`;

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-slate-800">{t("tags.external.what")}</legend>
        <label className="flex items-start gap-2 text-sm text-slate-900">
          <input type="radio" name="mode" value="named" className={`mt-0.5 ${radio}`} checked={mode === "named"} onChange={() => { setMode("named"); importTags.reset(); }} />
          <span>
            <span className="font-medium">{t("tags.external.named")}</span>
            <span className="block text-xs text-slate-700">{t("tags.external.namedHelp", { max: EXTERNAL_TAG_MAX })}</span>
          </span>
        </label>
        <label className="flex items-start gap-2 text-sm text-slate-900">
          <input type="radio" name="mode" value="folder" className={`mt-0.5 ${radio}`} checked={mode === "folder"} onChange={() => { setMode("folder"); importTags.reset(); }} />
          <span>
            <span className="font-medium">{t("tags.external.folder")}</span>
            <span className="block text-xs text-slate-700">{t("tags.external.folderHelp")}</span>
          </span>
        </label>
      </fieldset>

      {mode === "named" ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={namesId} className="text-sm font-medium text-slate-800">{t("tags.external.names")}</label>
          <textarea id={namesId} name="tags" rows={5} className={inputClass} value={text} aria-invalid={touched && namedProblem ? true : undefined}
            aria-describedby={`${namesId}-help${touched && namedProblem ? ` ${namesId}-error` : ""}`}
            onChange={(e) => { setText(e.target.value); importTags.reset(); }} />
          <p id={`${namesId}-help`} className="text-xs text-slate-700" aria-live="polite">
            {t("tags.external.namesCount", { count: parsed.names.length })}
            {parsed.duplicates > 0 && <> · {t("lists.batch.duplicates", { count: parsed.duplicates })}</>}
          </p>
          {touched && namedProblem && <p id={`${namesId}-error`} className="text-xs font-medium text-red-700">{namedProblem}</p>}
          {parsed.tooLong.length > 0 && (
            <ul className="max-h-20 list-disc overflow-y-auto pl-5 text-xs break-all text-red-800" data-testid="external-too-long">
              {parsed.tooLong.slice(0, 20).map((n, i) => <li key={i}>{n}</li>)}
            </ul>
          )}
        </div>
      ) : (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-slate-900">{t("tags.external.folderWarning")}</p>
      )}

      {importTags.error && <p role="alert" className="text-sm text-red-700">{errorMessage(importTags.error, t)}</p>}
      {answer && (
        <div className="flex flex-col gap-2 rounded-md border border-slate-300 bg-slate-50 p-3" data-testid="external-result" role="status">
          <p className="text-sm text-slate-900">{t("tags.external.answer", { code: answer.code ?? "—", success: success.length, failed: failed.length })}</p>
          <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
            <div>
              <h3 className="text-sm font-semibold text-slate-900">{t("tags.external.success", { count: success.length })}</h3>
              <ul className="max-h-32 list-disc overflow-y-auto pl-5 text-xs break-all text-slate-900" data-testid="external-success">
                {success.map((n, i) => <li key={i}>{n}</li>)}
              </ul>
            </div>
            <div>
              <h3 className="text-sm font-semibold text-red-800">{t("tags.external.failed", { count: failed.length })}</h3>
              <ul className="max-h-32 list-disc overflow-y-auto pl-5 text-xs break-all text-red-800" data-testid="external-failed">
                {failed.map((n, i) => <li key={i}>{n}</li>)}
              </ul>
            </div>
          </div>
        </div>
      )}

      <div className="flex justify-end gap-2">
        <Button onClick={onClose}>{t("tags.close")}</Button>
        <Button type="submit" variant="primary" disabled={importTags.isPending}>
          {importTags.isPending ? t("tags.external.running") : mode === "named" ? t("tags.external.importNamed", { count: parsed.names.length }) : t("tags.external.importFolder")}
        </Button>
      </div>
    </form>
  );
}
