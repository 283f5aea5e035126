"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { clientOnly } from "@/components/ui/client-only";
import { useState } from "react";
import type { ListController } from "@/lib/ui/list-controller";
import { pageSelection } from "@/lib/ui/selection";
import { platformQuery } from "@/lib/api/platform-queries";
import { displayRows, MEMBER_PAGE_SIZES, MEMBER_SORTS_IN_LIST, membersInput, neighbours, type MembersState, type MemberSort } from "@/lib/lists/list-members-state";
import type { MessageKey } from "@/lib/i18n/messages";
import type { ListMember } from "@/lib/platform/resources";
import { PersonName, personText, usePeople, usePerson } from "@/components/people/person-name";
import { LazyCustomerPicker as CustomerPicker } from "@/components/search/lazy-customer-picker";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { ListControls } from "@/components/ui/list-controls";
import { Pagination } from "@/components/ui/pagination";
import { QueryView } from "@/components/ui/query-view";
import { TimeText } from "@/components/ui/time-text";
import type { RemoveMembers } from "./remove-members-dialog";

// The confirmation loads when it opens (the /lists/[id] first load is near its budget).
const RemoveMembersDialog = clientOnly(() => import("./remove-members-dialog").then((m) => m.RemoveMembersDialog));

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
export function MembersTable({ listId, controller }: { listId: string; controller: ListController<MembersState> }) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const { state, set: setState, update, selection } = controller;
  const selected = selection.selected;
  const [confirm, setConfirm] = useState<RemoveMembers | undefined>(undefined);

  const members = useQuery({ ...membersQuery(listId, state), placeholderData: keepPreviousData });
  const rows = displayRows(state, members.data?.items ?? []);
  const names = usePeople(rows.flatMap((r) => (r.customerId ? [r.customerId] : [])));
  // The person looked for, named even when they are not in the list (no row to name them).
  const memberPerson = usePerson(state.member || undefined);
  const { next, previous } = members.isPlaceholderData ? {} : neighbours(state, rows);

  const pending = confirm !== undefined;

  // Members are selected by customer id (what `removeFromList` takes); changing the sort or page size starts again from the first page.
  const selectable = rows.flatMap((r) => (r.customerId ? [{ id: r.customerId, label: r.customerId }] : []));
  const allSelected = selectable.length > 0 && pageSelection(selected, selectable) === "all";
  const columns: Column<ListMember, MemberSort>[] = [
    {
      key: "select",
      header: (
        <input
          type="checkbox"
          className={`h-4 w-4 accent-blue-700 ${focusRing}`}
          checked={allSelected}
          aria-label={t("lists.selectPage")}
          onChange={() => selection.togglePage(selectable)}
        />
      ),
      headClassName: "w-10",
      cell: (m) =>
        m.customerId && <input type="checkbox" className={`h-4 w-4 accent-blue-700 ${focusRing}`} checked={selected.has(m.customerId)} onChange={() => selection.toggle({ id: m.customerId!, label: m.customerId! })} aria-label={t("lists.selectMember", { id: m.customerId })} />,
    },
    {
      key: "customerId",
      header: t("lists.customerId"),
      sortKey: "customerId",
      className: "font-mono text-xs",
      cell: (m) =>
        m.customerId && (
          <PersonName id={m.customerId} hit={names.get(m.customerId)} href={href(`/customers/${m.customerId}`)} />
        ),
    },
    { key: "id", header: t("lists.memberId"), sortKey: "id", className: "font-mono text-xs", cell: (m) => m.id },
    { key: "joined", header: t("lists.joined"), className: "whitespace-nowrap", cell: (m) => <TimeText value={m.dateCreated} /> },
    {
      key: "actions",
      header: t("lists.actions"),
      hideHeader: true,
      align: "right",
      cell: (m) =>
        m.id && (
          <Button variant="ghost" disabled={pending} onClick={() => setConfirm({ kind: "one", memberId: m.id!, customerId: m.customerId ?? "" })} aria-label={t("lists.removeNamed", { id: m.customerId ?? m.id })}>
            {t("lists.remove")}
          </Button>
        ),
    },
  ];

  return (
    <section aria-labelledby="members-title" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="members-title" className="text-base font-semibold text-slate-900">{t("lists.members")}</h2>
        <div className="flex flex-wrap items-end gap-3">
          <ListControls
            sort={{ value: state.sort, order: state.order, options: MEMBER_SORTS_IN_LIST.map((c) => ({ value: c, label: t(SORT_LABELS[c]) })) }}
            {...controller.controls}
            pageSizes={MEMBER_PAGE_SIZES}
          />
          <Button variant="danger" disabled={selected.size === 0 || pending} onClick={() => setConfirm({ kind: "many", customerIds: [...selected.keys()] })}>
            {t("lists.removeSelected", { count: selected.size })}
          </Button>
        </div>
      </div>

      {/* Search inside: one person looked for by name, mobile or email (the index), then asked of the list (§4.4 customerId). */}
      <div className="flex flex-wrap items-end gap-2" data-testid="member-finder">
        <div className="w-80">
          <CustomerPicker label={t("lists.findMember")} help={t("lists.findMemberHelp")} value={state.member} onChange={(member) => update({ member })} testId="member-finder-picker" />
        </div>
        {state.member ? (
          <Button variant="ghost" onClick={() => update({ member: "" })}>
            {t("lists.showAllMembers")}
          </Button>
        ) : null}
      </div>

      <QueryView query={members} hasRows={rows.length > 0} testId="members" loading={t("lists.loadingMembers")} level={3}
        empty={{ title: t("lists.membersEmpty") }}
        noResults={
          state.member
            ? { title: t("lists.notAMember", { name: personText(state.member, names.get(state.member) ?? memberPerson) }), actions: <Button onClick={() => update({ member: "" })}>{t("lists.showAllMembers")}</Button> }
            : state.since
              ? { title: t("lists.membersPastEnd"), onFirstPage: () => update({}) }
              : undefined
        }
      >
        <DataTable rows={rows} rowKey={(m) => m.id ?? m.customerId ?? ""} columns={columns} caption={t("lists.members")} testId="members-table" busy={members.isFetching} sort={{ value: state.sort, order: state.order }} />
      </QueryView>

      <div className="flex justify-end">
        <Pagination
          label={t("lists.membersPaging")}
          onFirst={state.since ? () => update({}) : undefined}
          onPrevious={previous && (() => setState(() => previous))}
          onNext={next && (() => setState(() => next))}
        />
      </div>

      <RemoveMembersDialog listId={listId} confirm={confirm} onClose={() => setConfirm(undefined)} onRemoved={selection.clear} />
    </section>
  );
}
