"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { parseTagNames } from "@/lib/customers/bulk-tags";
import { onlyProblems, type FieldErrors } from "@/lib/forms/field-errors";
import { useForm } from "@/lib/forms/use-form";
import { useDelayedFlag } from "@/lib/hooks/use-delayed-flag";
import { LIMITS } from "@/lib/platform/limits";
import { ConfirmDialog, DialogActions } from "@/components/forms/confirm-dialog";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-message";
import { SelectField, TextField } from "@/components/ui/field";

/** Lists shown per page of the picker; §4.4 has no search by name, so they come sorted by name. */
const LISTS_PER_PAGE = 100;

export type ChosenList = { id: string; name: string };

/** Choose an existing list (§4.4 GET /v1/lists, paged) for the selected customers. */
export function AddToListDialog({ open, count, onClose, onSubmit }: { open: boolean; count: number; onClose: () => void; onSubmit: (list: ChosenList) => void }) {
  const { t } = useI18n();
  const [page, setPage] = useState(1);
  const lists = useQuery({
    ...platformQuery("lists.list", { query: { rows: LISTS_PER_PAGE, page, sidx: "name", sord: "asc" } }),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const showLoading = useDelayedFlag(lists.isPending && open);
  const rows = lists.data?.rows ?? [];
  const pages = lists.data?.total ?? 1;
  const records = lists.data?.records ?? rows.length;
  const nameOf = (l: { id: string; name?: string | null }) => (l.name?.trim() ? l.name : t("bulk.list.unnamed", { id: l.id }));

  const chosen = (listId: string) => rows.find((l) => String(l.id) === listId);
  const form = useForm({ initial: "", validate: (listId) => onlyProblems({ list: chosen(listId) ? undefined : t("bulk.list.required") }) });
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = (listId: string) => {
    const list = chosen(listId)!;
    onSubmit({ id: String(list.id), name: nameOf({ id: String(list.id), name: list.name }) });
  };

  return (
    <Dialog open={open} title={t("bulk.list.title")} onClose={close}>
      <form onSubmit={(e) => form.submit(e, submit)} className="flex flex-col gap-4" noValidate>
        <p className="text-sm text-slate-800">{t("bulk.list.body", { count })}</p>
        {lists.isError && !lists.data ? (
          <div role="alert" className="text-sm text-red-800">
            <p>{errorMessage(lists.error, t)}</p>
            <Button className="mt-2" onClick={() => void lists.refetch()}>{t("error.retry")}</Button>
          </div>
        ) : lists.isPending ? (
          <p className="text-sm text-slate-700" role="status">{showLoading ? t("bulk.list.loading") : ""}</p>
        ) : rows.length === 0 && page === 1 ? (
          <p className="text-sm text-slate-800" data-testid="bulk-no-lists">{t("bulk.list.none")}</p>
        ) : (
          <>
            <SelectField label={t("bulk.list.choose")} value={form.values} {...form.field("list")} onChange={(e) => form.edit(e.target.value)} autoFocus>
              <option value="">{t("bulk.list.placeholder")}</option>
              {rows.map((l) => (
                <option key={l.id} value={String(l.id)}>
                  {t("bulk.list.option", { name: nameOf({ id: String(l.id), name: l.name }), id: String(l.id) })}
                </option>
              ))}
            </SelectField>
            {pages > 1 && (
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="text-xs text-slate-700 tabular-nums">
                  {t("bulk.list.pageOf", { from: (page - 1) * LISTS_PER_PAGE + 1, to: (page - 1) * LISTS_PER_PAGE + rows.length, records })}
                </p>
                <div className="flex gap-2">
                  <Button onClick={() => setPage((p) => p - 1)} disabled={page <= 1 || lists.isPlaceholderData}>{t("bulk.list.previous")}</Button>
                  <Button onClick={() => setPage((p) => p + 1)} disabled={page >= pages || lists.isPlaceholderData}>{t("bulk.list.next")}</Button>
                </div>
              </div>
            )}
          </>
        )}
        <DialogActions cancel={t("bulk.cancel")} onCancel={close} confirm={t("bulk.list.submit")} disabled={rows.length === 0} />
      </form>
    </Dialog>
  );
}

/** Tag names for the selected customers (§4.5 addCustomerTag; names ≤ 32, §8). */
export function TagDialog({ open, count, onClose, onSubmit }: { open: boolean; count: number; onClose: () => void; onSubmit: (names: string[]) => void }) {
  const { t } = useI18n();
  const form = useForm({
    initial: "",
    validate: (text): FieldErrors => {
      const p = parseTagNames(text);
      if (p.ok) return {};
      return { names: p.problem === "tooLong" ? t("bulk.tag.error.tooLong", { name: p.name, max: p.max }) : p.problem === "tooMany" ? t("bulk.tag.error.tooMany", { max: p.max }) : t("bulk.tag.error.required") };
    },
  });
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = (text: string) => {
    form.reset("");
    onSubmit((parseTagNames(text) as { names: string[] }).names);
  };
  return (
    <Dialog open={open} title={t("bulk.tag.title")} onClose={close}>
      <form onSubmit={(e) => form.submit(e, submit)} className="flex flex-col gap-4" noValidate>
        <p className="text-sm text-slate-800">{t("bulk.tag.body", { count })}</p>
        <TextField label={t("bulk.tag.names")} help={t("bulk.tag.help", { max: LIMITS.tagName })} value={form.values} {...form.field("names")} onChange={(e) => form.edit(e.target.value)} autoComplete="off" autoFocus />
        <DialogActions cancel={t("bulk.cancel")} onCancel={close} confirm={t("bulk.tag.submit")} />
      </form>
    </Dialog>
  );
}

/** The confirmation for deleting the selected customers (§4.1 DELETE); Cancel has the focus. */
export function DeleteDialog({ open, count, onClose, onConfirm }: { open: boolean; count: number; onClose: () => void; onConfirm: () => void }) {
  const { t } = useI18n();
  return (
    <ConfirmDialog open={open} title={t("bulk.delete.title")} onClose={onClose} cancel={t("bulk.cancel")} confirm={t("bulk.delete.submit", { count })} onConfirm={onConfirm}>
      <p className="text-sm text-slate-800" data-testid="bulk-delete-body">{t("bulk.delete.body", { count })}</p>
    </ConfirmDialog>
  );
}
