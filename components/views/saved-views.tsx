"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { invalidateAppAfter, appQuery } from "@/lib/api/app-queries";
import { appCall } from "@/lib/api/browser-fetch";
import { ApiError } from "@/lib/http/api-error";
import type { ListDefinition } from "@/lib/ui/list-state";
import type { ParserMap } from "@/lib/ui/url-parsers";
import { MAX_VIEW_NAME, viewNameOf, type ViewList } from "@/lib/views/view-rules";
import type { SavedView } from "@/lib/views/views-api";
import { ConfirmDialog, DialogActions } from "@/components/forms/confirm-dialog";
import { FormAlert } from "@/components/forms/form-alert";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { CheckboxField, TextField } from "@/components/ui/field";

/** A list's state as a view holds it: its first page, written by the list's own serializer. */
export function viewQueryOf<P extends ParserMap, S>(definition: ListDefinition<P, S>, state: S): string {
  return definition.serialize(definition.firstPage(state)).toString();
}

/**
 * The saved views of a list page: choose one (the list's filters, sort and columns become the
 * view's), save the page as it is under a name (for oneself or shared with the tenant; a name in use
 * asks before replacing), delete the view shown. The views are the app's (the admin's iframe
 * partitions browser storage), so they follow staff to any browser.
 */
export function SavedViews<P extends ParserMap, S>({ list, definition, state, onApply }: { list: ViewList; definition: ListDefinition<P, S>; state: S; onApply: (state: S) => void }) {
  const { t } = useI18n();
  const selectId = useId();
  const queryClient = useQueryClient();
  const views = useQuery({ ...appQuery("views.list", { query: { list } }), staleTime: 30_000 });
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState<SavedView | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const current = viewQueryOf(definition, state);
  const all = views.data?.views ?? [];
  const shown = all.find((v) => v.query === current);
  const mine = all.filter((v) => !v.shared);
  const shared = all.filter((v) => v.shared);

  const remove = useMutation({
    mutationFn: (view: SavedView) => appCall("views.delete", { params: { id: view.id } }),
    meta: { silent: true },
    onSuccess: () => {
      setDeleting(undefined);
      void invalidateAppAfter(queryClient, "views.delete");
    },
  });

  const choose = (id: string) => {
    const view = all.find((v) => v.id === id);
    if (!view) return;
    setNotice(undefined);
    onApply(definition.parse(new URLSearchParams(view.query)));
  };

  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="saved-views">
      <label htmlFor={selectId} className="sr-only">
        {t("views.choose")}
      </label>
      <select
        id={selectId}
        className="max-w-56 truncate rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm text-slate-900"
        value={shown?.id ?? ""}
        onChange={(e) => choose(e.target.value)}
        disabled={views.isLoading || all.length === 0}
      >
        <option value="">{t("views.none")}</option>
        {mine.length > 0 && (
          <optgroup label={t("views.mine")}>
            {mine.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name}
              </option>
            ))}
          </optgroup>
        )}
        {shared.length > 0 && (
          <optgroup label={t("views.shared")}>
            {shared.map((v) => (
              <option key={v.id} value={v.id}>
                {t("views.by", { name: v.name, who: v.createdBy.name || v.createdBy.userId })}
              </option>
            ))}
          </optgroup>
        )}
      </select>
      <Button onClick={() => (setNotice(undefined), setSaving(true))}>{t("views.save")}</Button>
      {shown?.deletable && <Button onClick={() => setDeleting(shown)}>{t("views.delete")}</Button>}
      {notice && (
        <span className="text-sm text-slate-800" role="status">
          {notice}
        </span>
      )}
      {saving && (
        <SaveViewDialog
          list={list}
          query={current}
          initialName={shown?.name ?? ""}
          onClose={() => setSaving(false)}
          onSaved={(view) => {
            setSaving(false);
            setNotice(t("views.saved", { name: view.name }));
            void invalidateAppAfter(queryClient, "views.save");
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== undefined}
        title={t("views.deleteTitle", { name: deleting?.name ?? "" })}
        onClose={() => setDeleting(undefined)}
        cancel={t("views.cancel")}
        confirm={t("views.delete")}
        pendingLabel={t("views.deleting")}
        onConfirm={() => deleting && remove.mutate(deleting)}
        call={remove}
      >
        <p className="text-sm text-slate-800">{t("views.deleteBody")}</p>
      </ConfirmDialog>
    </div>
  );
}

function SaveViewDialog({ list, query, initialName, onClose, onSaved }: { list: ViewList; query: string; initialName: string; onClose: () => void; onSaved: (view: SavedView) => void }) {
  const { t } = useI18n();
  const [name, setName] = useState(initialName);
  const [shared, setShared] = useState(false);
  const [existing, setExisting] = useState<string | undefined>();
  const save = useMutation({
    mutationFn: (replace: boolean) => appCall("views.save", { body: { list, name, query, shared, replace } }),
    meta: { silent: true },
    onSuccess: (answer) => onSaved(answer.view),
    onError: (error) => {
      if (error instanceof ApiError && error.code === "view_exists") setExisting(viewNameOf(name));
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // A second press while the first is on its way saves once.
    if (save.isPending) return;
    save.mutate(existing !== undefined);
  };
  const nameError = save.error instanceof ApiError && save.error.code !== "view_exists" ? save.error.fieldErrors?.find((f) => f.field.endsWith("name"))?.message : undefined;
  return (
    <Dialog open title={t("views.saveTitle")} onClose={onClose}>
      <form className="flex flex-col gap-3" onSubmit={submit} noValidate>
        <p className="text-sm text-slate-800">{t("views.saveIntro")}</p>
        <TextField
          label={t("views.name")}
          value={name}
          maxLength={MAX_VIEW_NAME}
          required
          autoFocus
          onChange={(e) => {
            setName(e.target.value);
            setExisting(undefined);
          }}
          error={nameError}
        />
        <CheckboxField
          label={t("views.share")}
          checked={shared}
          onChange={(e) => {
            setShared(e.target.checked);
            setExisting(undefined);
          }}
        />
        {existing !== undefined && (
          <p className="rounded-md border border-amber-600 bg-amber-50 p-2 text-sm text-slate-900" role="alert">
            {t("views.exists", { name: existing })}
          </p>
        )}
        {!(save.error instanceof ApiError && save.error.code === "view_exists") && !nameError && <FormAlert error={save.error} />}
        <DialogActions cancel={t("views.cancel")} onCancel={onClose} confirm={existing !== undefined ? t("views.replace") : t("views.save")} pending={save.isPending} pendingLabel={t("views.saving")} disabled={viewNameOf(name) === ""} />
      </form>
    </Dialog>
  );
}
