"use client";
import { useState, type FormEvent } from "react";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { charCount, DIMENSION_KEY_MAX, DIMENSION_NAME_MAX, dimensionProblems, dimensionRequest, placeTagErrors, type DimensionForm } from "@/lib/console/tag-forms";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-message";
import { TextField } from "@/components/ui/field";
import { useProblemText } from "./problem-text";

const EMPTY: DimensionForm = { name: "", dimensionKey: "" };
const FIELDS = ["name", "dimensionKey"] as const;

/** Creates a tag dimension (§4.5 POST /v1/tagdimensions): name and key, each ≤ 255 (§8). */
export function CreateDimensionDialog({ open, knownKeys, onClose }: { open: boolean; knownKeys: readonly string[]; onClose: () => void }) {
  const { t } = useI18n();
  const problemText = useProblemText();
  const [form, setForm] = useState(EMPTY);
  const [touched, setTouched] = useState(false);
  const create = usePlatformMutation("tagDimensions.create", {
    meta: { silent: true },
    onSuccess: (d) => {
      toastStore.show("success", t("tags.dimensions.created", { name: d.name ?? d.dimensionKey ?? "" }));
      close();
    },
  });
  const close = () => {
    setForm(EMPTY);
    setTouched(false);
    create.reset();
    onClose();
  };
  const problems = dimensionProblems(form, knownKeys);
  const placed = placeTagErrors(FIELDS, create.error?.fieldErrors ?? []);
  const errorOf = (field: (typeof FIELDS)[number], max: number) => {
    const p = problems[field];
    if (touched && p) return p === "taken" ? t("tags.dimensions.keyTaken") : problemText(p, max);
    return placed.byField[field];
  };
  const set = (patch: Partial<DimensionForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    if (create.error) create.reset();
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (Object.keys(problems).length > 0) {
      event.currentTarget.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
      return;
    }
    if (!create.isPending) create.mutate(dimensionRequest(form));
  };
  return (
    <Dialog open={open} title={t("tags.dimensions.createTitle")} onClose={close}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <TextField label={t("tags.dimensions.name")} name="name" data-field="name" required autoFocus value={form.name} onChange={(e) => set({ name: e.target.value })}
          help={t("tags.dimensions.nameHelp", { max: DIMENSION_NAME_MAX, count: charCount(form.name.trim()) })} error={errorOf("name", DIMENSION_NAME_MAX)} />
        <TextField label={t("tags.dimensions.key")} name="dimensionKey" data-field="dimensionKey" required value={form.dimensionKey} onChange={(e) => set({ dimensionKey: e.target.value })}
          help={t("tags.dimensions.keyHelp", { max: DIMENSION_KEY_MAX, count: charCount(form.dimensionKey.trim()) })} error={errorOf("dimensionKey", DIMENSION_KEY_MAX)} />
        {create.error && placed.unplaced.length + Object.keys(placed.byField).length === 0 && <p role="alert" className="text-sm text-red-700">{errorMessage(create.error, t)}</p>}
        {placed.unplaced.length > 0 && <p role="alert" className="text-sm text-red-700">{placed.unplaced.join(" ")}</p>}
        <div className="flex justify-end gap-2">
          <Button onClick={close}>{t("tags.cancel")}</Button>
          <Button type="submit" variant="primary" disabled={create.isPending}>{create.isPending ? t("tags.saving") : t("tags.dimensions.create")}</Button>
        </div>
      </form>
    </Dialog>
  );
}
