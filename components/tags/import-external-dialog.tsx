"use client";
import { useId, useMemo } from "react";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { externalImportRequest, parseExternalTags } from "@/lib/tags/tag-forms";
import { onlyProblems } from "@/lib/forms/field-errors";
import { useForm } from "@/lib/forms/use-form";
import { LIMITS } from "@/lib/platform/limits";
import { DialogActions } from "@/components/forms/confirm-dialog";
import { FormAlert } from "@/components/forms/form-alert";
import { useI18n } from "@/components/i18n/i18n-provider";
import { focusRing } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
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
  const importTags = usePlatformMutation("tags.importExternal", { meta: { silent: true } });
  const max = LIMITS.externalTagName;
  const form = useForm({
    initial: { mode: "named" as Mode, text: "" },
    validate: (v) => {
      const p = parseExternalTags(v.text);
      const problem = p.tooLong.length > 0 ? t("tags.external.tooLong", { max, count: p.tooLong.length }) : p.names.length === 0 ? t("tags.external.none") : undefined;
      return onlyProblems({ tags: v.mode === "named" ? problem : undefined });
    },
  });
  const { mode, text } = form.values;
  const parsed = useMemo(() => parseExternalTags(text), [text]);
  const edit = (patch: Partial<typeof form.values>) => {
    form.edit((v) => ({ ...v, ...patch }));
    importTags.reset();
  };
  const send = () => !importTags.isPending && importTags.mutate(externalImportRequest(mode === "named" ? { mode, names: parsed.names } : { mode }));
  const answer = importTags.data;
  const names = { success: answer?.success ?? [], failed: answer?.failed ?? [] };
  const radio = `h-4 w-4 accent-blue-700 ${focusRing}`;
  const namesError = form.errors.tags;

  return (
    <form onSubmit={(e) => form.submit(e, send)} noValidate className="flex flex-col gap-4">
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-slate-800">{t("tags.external.what")}</legend>
        {(["named", "folder"] as const).map((m) => (
          <label key={m} className="flex items-start gap-2 text-sm text-slate-900">
            <input type="radio" name="mode" value={m} className={`mt-0.5 ${radio}`} checked={mode === m} onChange={() => edit({ mode: m })} />
            <span>
              <span className="font-medium">{t(`tags.external.${m}`)}</span>
              <span className="block text-xs text-slate-700">{t(`tags.external.${m}Help`, { max })}</span>
            </span>
          </label>
        ))}
      </fieldset>

      {mode === "named" ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={namesId} className="text-sm font-medium text-slate-800">{t("tags.external.names")}</label>
          <textarea id={namesId} name="tags" data-field="tags" rows={5} className={inputClass} value={text} aria-invalid={namesError ? true : undefined}
            aria-describedby={`${namesId}-help${namesError ? ` ${namesId}-error` : ""}`} onChange={(e) => edit({ text: e.target.value })} />
          <p id={`${namesId}-help`} className="text-xs text-slate-700" aria-live="polite">
            {t("tags.external.namesCount", { count: parsed.names.length })}
            {parsed.duplicates > 0 && <> · {t("lists.batch.duplicates", { count: parsed.duplicates })}</>}
          </p>
          {namesError && <p id={`${namesId}-error`} className="text-xs font-medium text-red-700">{namesError}</p>}
          {parsed.tooLong.length > 0 && (
            <ul className="max-h-20 list-disc overflow-y-auto pl-5 text-xs break-all text-red-800" data-testid="external-too-long">
              {parsed.tooLong.slice(0, 20).map((n, i) => <li key={i}>{n}</li>)}
            </ul>
          )}
        </div>
      ) : (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-slate-900">{t("tags.external.folderWarning")}</p>
      )}

      <FormAlert error={importTags.error} />
      {answer && (
        <div className="flex flex-col gap-2 rounded-md border border-slate-300 bg-slate-50 p-3" data-testid="external-result" role="status">
          <p className="text-sm text-slate-900">{t("tags.external.answer", { code: answer.code ?? "—", success: names.success.length, failed: names.failed.length })}</p>
          <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
            {(["success", "failed"] as const).map((part) => (
              <div key={part}>
                <h3 className={`text-sm font-semibold ${part === "failed" ? "text-red-800" : "text-slate-900"}`}>{t(`tags.external.${part}`, { count: names[part].length })}</h3>
                <ul className={`max-h-32 list-disc overflow-y-auto pl-5 text-xs break-all ${part === "failed" ? "text-red-800" : "text-slate-900"}`} data-testid={`external-${part}`}>
                  {names[part].map((n, i) => <li key={i}>{n}</li>)}
                </ul>
              </div>
            ))}
          </div>
        </div>
      )}

      <DialogActions cancel={t("tags.close")} onCancel={onClose} pending={importTags.isPending} pendingLabel={t("tags.external.running")}
        confirm={mode === "named" ? t("tags.external.importNamed", { count: parsed.names.length }) : t("tags.external.importFolder")} />
    </form>
  );
}
