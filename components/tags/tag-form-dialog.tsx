"use client";
import type { ApiError } from "@/lib/http/api-error";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { placeTagErrors, tagCreateRequest, tagEditProblems, tagProblems, tagUpdateRequest, type TagForm } from "@/lib/tags/tag-forms";
import { onlyProblems } from "@/lib/forms/field-errors";
import { useForm } from "@/lib/forms/use-form";
import { charLength, LIMITS } from "@/lib/platform/limits";
import type { Tag, TagDimension } from "@/lib/platform/resources";
import { toastStore } from "@/lib/ui/toast-store";
import { DialogActions } from "@/components/forms/confirm-dialog";
import { FormAlert } from "@/components/forms/form-alert";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-message";
import { SelectField, TextField } from "@/components/ui/field";

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
  const tag = props.mode === "edit" ? props.tag : undefined;
  const form = useForm<TagForm>({
    initial: () => (tag ? { name: tag.name ?? "", dimension: tag.dimension ?? "" } : { name: "", dimension: props.mode === "create" ? props.initialDimension : "" }),
    validate: (v) => {
      const p = tag ? tagEditProblems(tag, v) : tagProblems(v);
      return onlyProblems({ name: p.name && t(`tags.error.${p.name}`, { max: LIMITS.tagName }), dimension: p.dimension && t(`tags.error.${p.dimension}`, { max: LIMITS.tagDimension }) });
    },
  });
  const onSaved = (saved: Tag) => {
    toastStore.show("success", t(tag ? "tags.saved" : "tags.created", { name: saved.name ?? "" }));
    props.onClose();
  };
  const mutation = { meta: { silent: true }, onSuccess: onSaved, onError: (error: ApiError) => form.fail(errorMessage(error, t), placeTagErrors(["name", "dimension"], error.fieldErrors)) };
  const create = usePlatformMutation("tags.create", mutation);
  const update = usePlatformMutation("tags.update", mutation);
  const pending = create.isPending || update.isPending;
  const save = (v: TagForm) => {
    if (pending) return;
    const request = tag && tagUpdateRequest(tag, v);
    if (request) update.mutate(request);
    else if (!tag) create.mutate(tagCreateRequest(v));
  };
  const set = (field: keyof TagForm) => (e: { target: { value: string } }) => form.edit((v) => ({ ...v, [field]: e.target.value }), field);
  const title = tag ? t("tags.editTitle", { name: tag.name || tag.id }) : t("tags.createTitle");
  return (
    <Dialog open={props.open} title={title} onClose={props.onClose}>
      <form onSubmit={(e) => form.submit(e, save)} noValidate className="flex flex-col gap-4">
        {tag && <p className="text-sm text-slate-800">{t("tags.editIntro")}</p>}
        <TextField label={t("tags.name")} name="name" required autoFocus value={form.values.name} onChange={set("name")} {...form.field("name")}
          help={t("tags.nameHelp", { max: LIMITS.tagName, count: charLength(form.values.name.trim()) })} />
        <SelectField label={t("tags.col.dimension")} name="dimension" required value={form.values.dimension} onChange={set("dimension")} {...form.field("dimension")} help={tag ? t("tags.moveHelp") : undefined}>
          <option value="">{t("tags.chooseDimension")}</option>
          {dimensionOptions(props.dimensions, form.values.dimension).map((o) => (
            <option key={o.key} value={o.key}>{o.label}</option>
          ))}
        </SelectField>
        <FormAlert message={form.formError} />
        <DialogActions cancel={t("tags.cancel")} onCancel={props.onClose} confirm={tag ? t("tags.save") : t("tags.create")} pending={pending} pendingLabel={t("tags.saving")} />
      </form>
    </Dialog>
  );
}
