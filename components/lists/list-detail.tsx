"use client";
import { clientOnly } from "@/components/ui/client-only";
import { AppLink } from "@/components/ui/app-link";
import { useState } from "react";
import { useRouter, useSearchParams } from "next/navigation";
import { membersUrlState } from "@/lib/lists/list-members-state";
import { useListController } from "@/lib/ui/list-controller";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { AddMemberForm } from "./add-member-form";
import { MemberCount } from "./member-count";
import { MembersTable } from "./members-table";

// Opens on a click: loaded then (first-load budget).
// Adding many at once (pasted ids, a file) loads after the members list: first-load budget.
const BatchMembers = clientOnly(() => import("./batch-members").then((m) => m.BatchMembers));
const DeleteListDialog = clientOnly(() => import("./delete-list-dialog").then((m) => m.DeleteListDialog));
// The members' export (a background task and its panel) loads after the members list: first-load budget.
const ExportMembers = clientOnly(() => import("./export-members").then((m) => m.ExportMembers));

/**
 * One list: its member count (also by joined date), adding one or many customers, and its members
 * with keyset paging. §4.4 has no endpoint to read one list, so the name comes along in the link
 * from the lists page (`?name=`) and is shown only as a label.
 */
export function ListDetail({ id }: { id: string }) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const router = useRouter();
  const name = useSearchParams().get("name") ?? "";
  const members = useListController(membersUrlState);
  const { state, set: setState } = members;
  const [deleting, setDeleting] = useState(false);
  const onRange = (range: { joinedFrom: string; joinedTo: string }) => setState((s) => ({ ...s, ...range }));
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <div>
          <AppLink href={href("/lists")} className={`rounded text-sm text-blue-800 underline ${focusRing}`}>{t("lists.back")}</AppLink>
          <h1 className="mt-1 text-xl font-semibold break-all text-slate-900">{name || t("lists.listNumber", { id })}</h1>
          <p className="font-mono text-xs text-slate-700">{t("lists.idLabel", { id })}</p>
        </div>
        <Button variant="danger" onClick={() => setDeleting(true)}>{t("lists.delete")}</Button>
      </div>
      <MemberCount listId={id} range={{ joinedFrom: state.joinedFrom, joinedTo: state.joinedTo }} onRange={onRange} />
      <section aria-labelledby="add-title" className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-white p-4">
        <h2 id="add-title" className="text-base font-semibold text-slate-900">{t("lists.addTitle")}</h2>
        <AddMemberForm listId={id} />
        <BatchMembers listId={id} />
      </section>
      <MembersTable listId={id} controller={members} />
      <ExportMembers listId={id} />
      <DeleteListDialog list={deleting ? { id, name } : undefined} onClose={() => setDeleting(false)} onDeleted={() => router.push(href("/lists"))} />
    </div>
  );
}
