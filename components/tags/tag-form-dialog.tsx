"use client";
import { useState, type FormEvent } from "react";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { charCount, placeTagErrors, TAG_DIMENSION_MAX, TAG_NAME_MAX, tagCreateRequest, tagEditProblems, tagProblems, tagUpdateRequest, type TagForm } from "@/lib/console/tag-forms";
import type { Tag, TagDimension } from "@/lib/platform/resources";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-message";
import { SelectField, TextField } from "@/components/ui/field";
import { useProblemText } from "./problem-text";

const FIELDS = ["name", "dimension"] as const;

/** The options of the dimension select: the loaded dimensions, plus `current` when it is not among them. */
function dimensionOptions(dimensions: readonly TagDimension[], current: string) {
  const options = dimensions.filter((d) => d.dimensionKey).map((d) => ({ key: d.dimensionKey!, label: d.name ? `${d.name} (${d.dimensionKey})` : d.dimensionKey! }));
  if (current && !options.some((o) => o.key === current)) options.push({ key: current, label: current });
  return options;
}

type Props = { dimensions: readonly TagDimension[]; onClose: () => void } & ({ mode: "create"; open: boolean; initialDimension: string } | { mode: "edit"; tag: Tag | undefined });

/**
 * Creates a tag in a dimension (§4.5 POST /v1/tags) or edits one (PUT /v1/tags/{id}: rename, move to
 * another dimension, or both; only what changed is sent). Name ≤ 32, dimension ≤ 255 (§8).
 */
export function TagFormDialog(props: Props) {
  const open = props.mode === "create" ? props.open : props.tag !== undefined;
  // Remount per opening, so the form starts from the tag (or the chosen dimension) each time.
  const key = props.mode === "edit" ? `edit-${props.tag?.id ?? ""}` : `create-${String(props.open)}`;
  return <TagFormDialogBody key={key} {...props} open={open} />;
}

function TagFormDialogBody(props: Props & { open: boolean }) {
  const { t } = useI18n();
  const problemText = useProblemText();
  const tag = props.mode === "edit" ? props.tag : undefined;
  const [form, setForm] = useState<TagForm>(() => (tag ? { name: tag.name ?? "", dimension: tag.dimension ?? "" } : { name: "", dimension: props.mode === "create" ? props.initialDimension : "" }));
  const [touched, setTouched] = useState(false);
  const onSaved = (saved: Tag) => {
    toastStore.show("success", t(tag ? "tags.saved" : "tags.created", { name: saved.name ?? "" }));
    props.onClose();
  };
  const create = usePlatformMutation("tags.create", { meta: { silent: true }, onSuccess: onSaved });
  const update = usePlatformMutation("tags.update", { meta: { silent: true }, onSuccess: onSaved });
  const mutation = tag ? update : create;
  const close = () => {
    create.reset();
    update.reset();
    props.onClose();
  };
  const problems = tag ? tagEditProblems(tag, form) : tagProblems(form);
  const placed = placeTagErrors(FIELDS, mutation.error?.fieldErrors ?? []);
  const errorOf = (field: (typeof FIELDS)[number], max: number) => {
    const p = problems[field];
    return touched && p ? problemText(p, max) : placed.byField[field];
  };
  const set = (patch: Partial<TagForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    if (mutation.error) mutation.reset();
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (Object.keys(problems).length > 0) {
      event.currentTarget.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
      return;
    }
    if (mutation.isPending) return;
    if (tag) {
      const request = tagUpdateRequest(tag, form);
      if (request) update.mutate(request);
    } else create.mutate(tagCreateRequest(form));
  };
  const title = tag ? t("tags.editTitle", { name: tag.name || tag.id }) : t("tags.createTitle");
  return (
    <Dialog open={props.open} title={title} onClose={close}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        {tag && <p className="text-sm text-slate-800">{t("tags.editIntro")}</p>}
        <TextField label={t("tags.name")} name="name" data-field="name" required autoFocus value={form.name} onChange={(e) => set({ name: e.target.value })}
          help={t("tags.nameHelp", { max: TAG_NAME_MAX, count: charCount(form.name.trim()) })} error={errorOf("name", TAG_NAME_MAX)} />
        <SelectField label={t("tags.col.dimension")} name="dimension" data-field="dimension" required value={form.dimension} onChange={(e) => set({ dimension: e.target.value })} error={errorOf("dimension", TAG_DIMENSION_MAX)}
          help={tag ? t("tags.moveHelp") : undefined}>
          <option value="">{t("tags.chooseDimension")}</option>
          {dimensionOptions(props.dimensions, form.dimension).map((o) => (
            <option key={o.key} value={o.key}>{o.label}</option>
          ))}
        </SelectField>
        {mutation.error && placed.unplaced.length + Object.keys(placed.byField).length === 0 && <p role="alert" className="text-sm text-red-700">{errorMessage(mutation.error, t)}</p>}
        {placed.unplaced.length > 0 && <p role="alert" className="text-sm text-red-700">{placed.unplaced.join(" ")}</p>}
        <div className="flex justify-end gap-2">
          <Button onClick={close}>{t("tags.cancel")}</Button>
          <Button type="submit" variant="primary" disabled={mutation.isPending}>{mutation.isPending ? t("tags.saving") : tag ? t("tags.save") : t("tags.create")}</Button>
        </div>
      </form>
    </Dialog>
  );
}
