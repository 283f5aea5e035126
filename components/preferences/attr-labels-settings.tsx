"use client";
import { useState } from "react";
import { placeErrors, problemText, problemTexts } from "@/lib/forms/field-errors";
import { useForm } from "@/lib/forms/use-form";
import { attrLabelProblems, attrLabelsChanged, attrNumber, isAttrName, MAX_LABEL_LENGTH, type AttrLabels } from "@/lib/preferences/preference-rules";
import { toastStore } from "@/lib/ui/toast-store";
import { FormAlert } from "@/components/forms/form-alert";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { TextField } from "@/components/ui/field";
import { usePreferences, useSavePreference } from "./use-preferences";

/** Settings: staff name the custom attributes (§2.1 `attr`) for the whole tenant (docs/decisions/preferences-in-the-app-store.md). */
export function AttrLabelsSettings() {
  const { t } = useI18n();
  const preferences = usePreferences();
  if (preferences.isPending) return <p role="status" className="mt-2 text-sm text-slate-700">{t("prefs.attrs.loading")}</p>;
  if (preferences.isError) return <p role="alert" className="mt-2 text-sm text-red-800">{errorMessage(preferences.error, t)}</p>;
  return <AttrLabelsForm saved={preferences.data.attrLabels} />;
}

function AttrLabelsForm({ saved }: { saved: AttrLabels }) {
  const { t } = useI18n();
  const save = useSavePreference();
  // The form hook keeps the labels: dirty state (what would be stored differs), the leave guard and the field errors.
  const form = useForm<AttrLabels>({
    initial: saved,
    validate: (labels) => problemTexts(attrLabelProblems(labels), problemText(t, "prefs.attrs")),
    isDirty: attrLabelsChanged,
    guard: true,
  });
  const labels = form.values;
  const [number, setNumber] = useState("");
  const [numberError, setNumberError] = useState<string>();
  const names = Object.keys(labels).sort((a, b) => attrNumber(a) - attrNumber(b));

  const add = () => {
    const name = `attr${number.trim()}`;
    if (!isAttrName(name)) return setNumberError(t("prefs.attrs.badNumber"));
    if (name in labels) return setNumberError(t("prefs.attrs.exists", { name }));
    setNumberError(undefined);
    setNumber("");
    form.edit((l) => ({ ...l, [name]: "" }));
  };
  const send = (value: AttrLabels) => {
    if (save.isPending) return;
    save.mutate(
      { key: "attrLabels", value },
      {
        onSuccess: (answer) => {
          form.reset(answer.attrLabels);
          toastStore.show("success", t("prefs.attrs.saved"));
        },
        // The route names a refused label `value.attrN`: its error goes on that field.
        onError: (error) => form.fail(errorMessage(error, t), placeErrors(error.fieldErrors, (field) => (isAttrName(field.replace(/^value\./, "")) ? field.replace(/^value\./, "") : undefined))),
      },
    );
  };

  return (
    <form noValidate className="mt-2 flex flex-col gap-3" onSubmit={(e) => form.submit(e, send)}>
      <p className="text-sm text-slate-700">{t("prefs.attrs.intro")}</p>
      <FormAlert message={form.formError} />
      {names.length === 0 ? (
        <p className="text-sm text-slate-700">{t("prefs.attrs.none")}</p>
      ) : (
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          {names.map((name) => (
            <TextField
              key={name}
              data-attr={name}
              label={t("prefs.attrs.labelFor", { name })}
              value={labels[name] ?? ""}
              maxLength={MAX_LABEL_LENGTH * 2}
              {...form.field(name)}
              onChange={(e) => form.edit((l) => ({ ...l, [name]: e.target.value }), name)}
            />
          ))}
        </div>
      )}
      <div className="flex flex-wrap items-end gap-2">
        <TextField
          className="w-48"
          label={t("prefs.attrs.addName")}
          help={t("prefs.attrs.addHelp")}
          inputMode="numeric"
          value={number}
          error={numberError}
          onChange={(e) => setNumber(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== "Enter") return;
            e.preventDefault();
            add();
          }}
        />
        <Button onClick={add} className="mb-6">{t("prefs.attrs.add")}</Button>
      </div>
      <div>
        <Button type="submit" variant="primary" disabled={save.isPending}>
          {save.isPending ? t("prefs.attrs.saving") : t("prefs.attrs.save")}
        </Button>
      </div>
    </form>
  );
}
