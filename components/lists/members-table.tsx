"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { displayRows, MEMBER_PAGE_SIZES, MEMBER_SORTS_IN_LIST, membersInput, neighbours, type MembersState, type MemberSort } from "@/lib/console/list-members-state";
import { useDelayedFlag } from "@/lib/hooks/use-delayed-flag";
import type { MessageKey } from "@/lib/i18n/messages";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/error-message";
import { ListControls } from "@/components/ui/list-controls";
import { TimeText } from "@/components/ui/time-text";

const SORT_LABELS: Record<MemberSort, MessageKey> = { customerId: "lists.customerId", id: "lists.memberId", listId: "lists.col.id" };

/** The query of a members state; the server prefetches exactly this (same key). */
export function membersQuery(listId: string, state: MembersState) {
  return platformQuery("listMembers.list", membersInput(listId, state));
}

/**
 * The members of a list with keyset paging in both directions (§4.4 `sinceId`), links to the
 * customers, removal of one (by membership id, DELETE /v1/listMembers/{id}) or of the selected
 * (`removeFromList` with their customer ids), each behind a confirmation.
 */
export function MembersTable({ listId, state, setState }: { listId: string; state: MembersState; setState: (update: (s: MembersState) => MembersState) => void }) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirm, setConfirm] = useState<{ kind: "one"; memberId: string; customerId: string } | { kind: "many"; customerIds: string[] } | undefined>(undefined);

  const members = useQuery({ ...membersQuery(listId, state), placeholderData: keepPreviousData });
  const showLoading = useDelayedFlag(members.isPending);
  const rows = displayRows(state, members.data?.items ?? []);
  const { next, previous } = members.isPlaceholderData ? {} : neighbours(state, rows);

  const done = () => {
    setConfirm(undefined);
    setSelected(new Set());
  };
  const removeOne = usePlatformMutation("listMembers.delete", { onSuccess: () => { toastStore.show("success", t("lists.removedOne")); done(); } });
  const removeMany = usePlatformMutation("listMembers.removeFromList", { onSuccess: (_r, input) => { toastStore.show("success", t("lists.removedMany", { count: input.query.customerIds.split(",").length })); done(); } });
  const pending = removeOne.isPending || removeMany.isPending;

  // Changing the sort or page size starts again from the first page: a boundary belongs to one sort.
  const update = (patch: Partial<MembersState>) => setState((s) => ({ ...s, ...patch, since: undefined, back: false }));
  const toggle = (customerId: string) =>
    setSelected((s) => {
      const out = new Set(s);
      if (out.has(customerId)) out.delete(customerId);
      else out.add(customerId);
      return out;
    });
  const allSelected = rows.length > 0 && rows.every((r) => r.customerId && selected.has(r.customerId));

  return (
    <section aria-labelledby="members-title" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="members-title" className="text-base font-semibold text-slate-900">{t("lists.members")}</h2>
        <div className="flex flex-wrap items-end gap-3">
          <ListControls
            sort={{ value: state.sort, order: state.order, options: MEMBER_SORTS_IN_LIST.map((c) => ({ value: c, label: t(SORT_LABELS[c]) })) }}
            rows={state.rows}
            pageSizes={MEMBER_PAGE_SIZES}
            onChange={update}
          />
          <Button variant="danger" disabled={selected.size === 0 || pending} onClick={() => setConfirm({ kind: "many", customerIds: [...selected] })}>
            {t("lists.removeSelected", { count: selected.size })}
          </Button>
        </div>
      </div>

      {members.isError && !members.data ? (
        <div role="alert" className="rounded-lg border border-red-300 bg-white p-4">
          <p className="text-sm text-slate-800">{errorMessage(members.error, t)}</p>
          <Button className="mt-3" onClick={() => void members.refetch()}>{t("error.retry")}</Button>
        </div>
      ) : members.isPending ? (
        <p className="py-6 text-center text-sm text-slate-700" role="status">{showLoading ? t("lists.loadingMembers") : ""}</p>
      ) : rows.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-400 bg-white p-6 text-center" data-testid={state.since ? "members-no-results" : "members-empty"}>
          <p className="text-sm text-slate-800">{state.since ? t("lists.membersPastEnd") : t("lists.membersEmpty")}</p>
          {state.since && <Button className="mt-3" onClick={() => update({})}>{t("list.first")}</Button>}
        </div>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-300 bg-white" aria-busy={members.isFetching}>
          <table className="min-w-full text-left text-sm" data-testid="members-table">
            <caption className="sr-only">{t("lists.members")}</caption>
            <thead className="border-b border-slate-300 bg-slate-100">
              <tr>
                <th scope="col" className="w-10 px-3 py-2">
                  <input
                    type="checkbox"
                    className={`h-4 w-4 accent-blue-700 ${focusRing}`}
                    checked={allSelected}
                    aria-label={t("lists.selectPage")}
                    onChange={() => setSelected(allSelected ? new Set() : new Set(rows.flatMap((r) => (r.customerId ? [r.customerId] : []))))}
                  />
                </th>
                <th scope="col" aria-sort={state.sort === "customerId" ? (state.order === "asc" ? "ascending" : "descending") : undefined} className="px-3 py-2 font-semibold text-slate-900">{t("lists.customerId")}</th>
                <th scope="col" aria-sort={state.sort === "id" ? (state.order === "asc" ? "ascending" : "descending") : undefined} className="px-3 py-2 font-semibold text-slate-900">{t("lists.memberId")}</th>
                <th scope="col" className="px-3 py-2 font-semibold text-slate-900">{t("lists.joined")}</th>
                <th scope="col" className="px-3 py-2"><span className="sr-only">{t("lists.actions")}</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {rows.map((m) => (
                <tr key={m.id ?? m.customerId} className="hover:bg-slate-50">
                  <td className="px-3 py-2">
                    {m.customerId && (
                      <input type="checkbox" className={`h-4 w-4 accent-blue-700 ${focusRing}`} checked={selected.has(m.customerId)} onChange={() => toggle(m.customerId!)} aria-label={t("lists.selectMember", { id: m.customerId })} />
                    )}
                  </td>
                  <td className="px-3 py-2 font-mono text-xs">
                    {m.customerId && (
                      <Link href={href(`/customers/${m.customerId}`)} className={`rounded text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>{m.customerId}</Link>
                    )}
                  </td>
                  <td className="px-3 py-2 font-mono text-xs text-slate-900">{m.id}</td>
                  <td className="px-3 py-2 whitespace-nowrap text-slate-900"><TimeText value={m.dateCreated} /></td>
                  <td className="px-3 py-2 text-right">
                    {m.id && (
                      <Button variant="ghost" disabled={pending} onClick={() => setConfirm({ kind: "one", memberId: m.id!, customerId: m.customerId ?? "" })} aria-label={t("lists.removeNamed", { id: m.customerId ?? m.id })}>
                        {t("lists.remove")}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <nav aria-label={t("lists.membersPaging")} className="flex flex-wrap items-center justify-end gap-2">
        <Button onClick={() => update({})} disabled={!state.since}>{t("list.first")}</Button>
        <Button onClick={() => previous && setState(() => previous)} disabled={!previous}>{t("list.previous")}</Button>
        <Button onClick={() => next && setState(() => next)} disabled={!next}>{t("list.next")}</Button>
      </nav>

      <Dialog open={confirm !== undefined} title={confirm?.kind === "many" ? t("lists.removeManyTitle", { count: confirm.customerIds.length }) : t("lists.removeOneTitle", { id: confirm?.kind === "one" ? confirm.customerId : "" })} onClose={() => setConfirm(undefined)} role="alertdialog">
        <p className="text-sm text-slate-800">{t("lists.removeBody")}</p>
        <div className="flex justify-end gap-2">
          <Button onClick={() => setConfirm(undefined)} autoFocus>{t("lists.cancel")}</Button>
          <Button
            variant="danger"
            disabled={pending}
            onClick={() => {
              if (confirm?.kind === "one") removeOne.mutate({ params: { id: confirm.memberId } });
              else if (confirm?.kind === "many") removeMany.mutate({ query: { customerIds: confirm.customerIds.join(","), listId } });
            }}
          >
            {t("lists.removeConfirm")}
          </Button>
        </div>
      </Dialog>
    </section>
  );
}
