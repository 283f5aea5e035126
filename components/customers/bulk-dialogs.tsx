"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { parseTagNames } from "@/lib/console/bulk-tags";
import { TAG_NAME_MAX } from "@/lib/console/customer-tags";
import { useDelayedFlag } from "@/lib/hooks/use-delayed-flag";
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
  const { t, locale } = useI18n();
  const [page, setPage] = useState(1);
  const [listId, setListId] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
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

  const close = () => {
    setError(undefined);
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = rows.find((l) => String(l.id) === listId);
    if (!chosen) {
      setError(t("bulk.list.required"));
      return;
    }
    setError(undefined);
    onSubmit({ id: String(chosen.id), name: nameOf({ id: String(chosen.id), name: chosen.name }) });
  };

  return (
    <Dialog open={open} title={t("bulk.list.title")} onClose={close}>
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <p className="text-sm text-slate-800">{t("bulk.list.body", { count: count.toLocaleString(locale) })}</p>
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
            <SelectField label={t("bulk.list.choose")} value={listId} error={error} onChange={(e) => setListId(e.target.value)} autoFocus>
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
        <div className="flex justify-end gap-2">
          <Button onClick={close}>{t("bulk.cancel")}</Button>
          <Button type="submit" variant="primary" disabled={rows.length === 0}>{t("bulk.list.submit")}</Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Tag names for the selected customers (§4.5 addCustomerTag; names ≤ 32, §8). */
export function TagDialog({ open, count, onClose, onSubmit }: { open: boolean; count: number; onClose: () => void; onSubmit: (names: string[]) => void }) {
  const { t, locale } = useI18n();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const close = () => {
    setError(undefined);
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseTagNames(text);
    if (!parsed.ok) {
      setError(
        parsed.problem === "tooLong"
          ? t("bulk.tag.error.tooLong", { name: parsed.name, max: parsed.max })
          : parsed.problem === "tooMany"
            ? t("bulk.tag.error.tooMany", { max: parsed.max })
            : t("bulk.tag.error.required"),
      );
      return;
    }
    setError(undefined);
    setText("");
    onSubmit(parsed.names);
  };
  return (
    <Dialog open={open} title={t("bulk.tag.title")} onClose={close}>
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <p className="text-sm text-slate-800">{t("bulk.tag.body", { count: count.toLocaleString(locale) })}</p>
        <TextField
          label={t("bulk.tag.names")}
          help={t("bulk.tag.help", { max: TAG_NAME_MAX })}
          error={error}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            if (error) setError(undefined);
          }}
          autoComplete="off"
          autoFocus
        />
        <div className="flex justify-end gap-2">
          <Button onClick={close}>{t("bulk.cancel")}</Button>
          <Button type="submit" variant="primary">{t("bulk.tag.submit")}</Button>
        </div>
      </form>
    </Dialog>
  );
}

/** The confirmation for deleting the selected customers (§4.1 DELETE); Cancel has the focus. */
export function DeleteDialog({ open, count, onClose, onConfirm }: { open: boolean; count: number; onClose: () => void; onConfirm: () => void }) {
  const { t, locale } = useI18n();
  const n = count.toLocaleString(locale);
  return (
    <Dialog open={open} role="alertdialog" title={t("bulk.delete.title")} onClose={onClose}>
      <p className="text-sm text-slate-800" data-testid="bulk-delete-body">{count === 1 ? t("bulk.delete.bodyOne") : t("bulk.delete.body", { count: n })}</p>
      <div className="flex justify-end gap-2">
        <Button onClick={onClose} autoFocus>{t("bulk.cancel")}</Button>
        <Button variant="danger" onClick={onConfirm}>{count === 1 ? t("bulk.delete.submitOne") : t("bulk.delete.submit", { count: n })}</Button>
      </div>
    </Dialog>
  );
}
