"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { AppLink } from "@/components/ui/app-link";
import { useState, type ReactNode } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import { usePlatformMutation } from "@/lib/api/platform-mutation";
import { customerDetailInputs } from "@/lib/customers/customer-detail-inputs";
import { orderPath } from "@/lib/orders/order-path";
import { tagNameProblem, tagsOf, withTagAdded, withTagRemoved, type CustomerTagsAnswer } from "@/lib/customers/customer-tags";
import { onlyProblems } from "@/lib/forms/field-errors";
import { useForm } from "@/lib/forms/use-form";
import type { MessageKey } from "@/lib/i18n/messages";
import { LIMITS } from "@/lib/platform/limits";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { TextField } from "@/components/ui/field";
import { TimeText } from "@/components/ui/time-text";
import { RecordEvent } from "@/components/events/record-event";

export function DetailSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-300 bg-white p-4">
      <h2 id={id} className="text-base font-semibold text-slate-900">{title}</h2>
      <div className="mt-2">{children}</div>
    </section>
  );
}

/** A panel's read: why it failed, nothing while it loads, `none` when it found nothing, else what `children` shows. */
export function PanelRead({ query, empty, none, className = "", children }: { query: { isError: boolean; error: unknown; data: unknown }; empty: boolean; none: string; className?: string; children: () => ReactNode }) {
  const { t } = useI18n();
  if (query.isError) return <p className={`text-sm text-red-800 ${className}`}>{errorMessage(query.error, t)}</p>;
  if (query.data === undefined) return null;
  if (empty) return <p className={`text-sm text-slate-700 ${className}`}>{none}</p>;
  return <>{children()}</>;
}

/** The small table of a panel: its column headers (the last one right-aligned with `numeric`), then `children`'s rows. */
export function PanelTable({ headers, numeric = false, testId, className = "", children }: { headers: string[]; numeric?: boolean; testId?: string; className?: string; children: ReactNode }) {
  return (
    <table className={`w-full text-left text-sm ${className}`} data-testid={testId}>
      <thead>
        <tr className="border-b border-slate-200">
          {headers.map((header, i) => (
            <th key={header} scope="col" className={`py-1 font-semibold ${numeric && i === headers.length - 1 ? "text-right" : ""}`}>{header}</th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/**
 * Tags of a customer (§4.5 tagservice), added and removed OPTIMISTICALLY: the chip list changes at
 * once; if the platform refuses, it goes back to what it was and an error toast says why.
 */
export function CustomerTags({ id }: { id: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const query = platformQuery("customerTags.get", customerDetailInputs(id).tags);
  const tags = useQuery(query);
  const current = tagsOf(tags.data, id);
  const form = useForm({ initial: "", validate: (name) => onlyProblems({ name: problemOf(name) }) });
  const problemOf = (name: string) => {
    const p = tagNameProblem(name, current);
    return p && t(`customerDetail.tags.error.${p}`, { max: LIMITS.tagName });
  };

  const optimistic = (change: (answer: CustomerTagsAnswer | undefined) => CustomerTagsAnswer) => async () => {
    await queryClient.cancelQueries({ queryKey: query.queryKey });
    const previous = queryClient.getQueryData<CustomerTagsAnswer>(query.queryKey);
    queryClient.setQueryData<CustomerTagsAnswer>(query.queryKey, change(previous));
    return { previous };
  };
  const rollback = (message: MessageKey) => (error: unknown, _input: unknown, context: { previous?: CustomerTagsAnswer } | undefined) => {
    queryClient.setQueryData(query.queryKey, context?.previous);
    void queryClient.invalidateQueries({ queryKey: query.queryKey });
    toastStore.show("error", `${t(message)} ${errorMessage(error, t)}`);
  };

  const [pendingName, setPendingName] = useState("");
  const add = usePlatformMutation<"customerTags.add", { previous?: CustomerTagsAnswer }>("customerTags.add", {
    meta: { silent: true },
    onMutate: (input) => optimistic((a) => withTagAdded(a, id, input.body.tags[0]!.name))(),
    onError: rollback("customerDetail.tags.addFailed"),
  });
  const remove = usePlatformMutation<"customerTags.remove", { previous?: CustomerTagsAnswer }>("customerTags.remove", {
    meta: { silent: true },
    onMutate: (input) => optimistic((a) => withTagRemoved(a, id, input.body.tags[0]!))(),
    onError: rollback("customerDetail.tags.removeFailed"),
  });

  const onAdd = (draft: string) => {
    const name = draft.trim();
    form.reset("");
    setPendingName(name);
    add.mutate({ body: { customerId: id, tags: [{ name }] } });
  };

  return (
    <DetailSection id="detail-tags" title={t("customerDetail.tags")}>
      {tags.isError ? (
        <p className="text-sm text-red-800">{errorMessage(tags.error, t)}</p>
      ) : (
        <ul className="flex flex-wrap gap-2" aria-label={t("customerDetail.tags")} data-testid="customer-tags" data-pending={pendingName && add.isPending ? "1" : undefined}>
          {current.length === 0 && tags.data && <li className="text-sm text-slate-700">{t("customerDetail.tags.none")}</li>}
          {current.map((name) => (
            <li key={name} className="inline-flex items-center gap-1 rounded-full border border-slate-400 bg-slate-50 py-0.5 pr-1 pl-2 text-sm text-slate-900">
              {name}
              <Button variant="ghost" className="px-1 py-0" aria-label={t("customerDetail.tags.remove", { name })} onClick={() => remove.mutate({ body: { customerId: id, tags: [name] } })}>
                ×
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={(e) => form.submit(e, onAdd)} noValidate className="mt-3 flex items-end gap-2">
        <TextField label={t("customerDetail.tags.new")} value={form.values} {...form.field("name")} onChange={(e) => form.edit(e.target.value)} className="flex-1" />
        <Button type="submit">{t("customerDetail.tags.add")}</Button>
      </form>
    </DetailSection>
  );
}

/** Lists the customer belongs to (§4.4 GET /v1/listMembers by customerId), named from GET /v1/lists. */
export function CustomerMemberships({ id }: { id: string }) {
  const { t } = useI18n();
  const inputs = customerDetailInputs(id);
  const members = useQuery(platformQuery("listMembers.list", inputs.memberships));
  const lists = useQuery(platformQuery("lists.list", inputs.lists));
  const names = new Map((lists.data?.rows ?? []).map((l) => [String(l.id), String((l as { name?: unknown }).name ?? "")]));
  const items = members.data?.items ?? [];
  return (
    <DetailSection id="detail-lists" title={t("customerDetail.lists")}>
      <PanelRead query={members} empty={items.length === 0} none={t("customerDetail.lists.none")}>
        {() => (
          <ul className="text-sm" data-testid="customer-lists">
            {items.map((m) => (
              <li key={String(m.id)} className="flex justify-between gap-3 border-b border-slate-100 py-1">
                <span>{names.get(String(m.listId)) || t("customerDetail.lists.unnamed", { id: String(m.listId) })}</span>
                <span className="text-slate-700">
                  <TimeText value={typeof m.dateCreated === "string" ? m.dateCreated : null} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </PanelRead>
    </DetailSection>
  );
}

/** Events of the last month (§4.3; the platform returns no older ones), filtered by type id(s). */
export function CustomerEvents({ id }: { id: string }) {
  const { t } = useI18n();
  const [draft, setDraft] = useState("");
  const [type, setType] = useState("");
  const events = useQuery(platformQuery("events.list", customerDetailInputs(id, type).events));
  return (
    <DetailSection id="detail-events" title={t("customerDetail.events")}>
      <p className="text-xs text-slate-700">{t("customerDetail.lastMonth")}</p>
      <RecordEvent customerId={id} />
      <form
        className="mt-2 flex items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          setType(draft.trim());
        }}
      >
        <TextField label={t("customerDetail.events.type")} help={t("customerDetail.events.typeHelp")} value={draft} onChange={(e) => setDraft(e.target.value)} className="flex-1" />
        <Button type="submit">{t("customerDetail.events.filter")}</Button>
      </form>
      <PanelRead query={events} empty={events.data?.length === 0} none={t("customerDetail.events.none")} className="mt-2">
        {() => (
          <PanelTable headers={[t("customerDetail.events.when"), t("customerDetail.events.type"), t("customerDetail.events.target")]} testId="customer-events" className="mt-2">
            {events.data!.map((e) => {
              const ev = e as { id?: unknown; event?: unknown; targetName?: unknown; date?: unknown };
              return (
                <tr key={String(ev.id)} className="border-b border-slate-100">
                  <td className="py-1 pr-2"><TimeText value={typeof ev.date === "string" ? ev.date : null} /></td>
                  <td className="py-1 pr-2 font-mono text-xs">{String(ev.event ?? "")}</td>
                  <td className="py-1 break-all">{String(ev.targetName ?? "")}</td>
                </tr>
              );
            })}
          </PanelTable>
        )}
      </PanelRead>
    </DetailSection>
  );
}

/** Orders of the last month (§4.2 GET /v1/deals by customerId; §8: only the last month). */
export function CustomerOrders({ id }: { id: string }) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const orders = useQuery(platformQuery("deals.list", customerDetailInputs(id).orders));
  const rows = orders.data?.rows ?? [];
  return (
    <DetailSection id="detail-orders" title={t("customerDetail.orders")}>
      <p className="text-xs text-slate-700">{t("customerDetail.lastMonth")}</p>
      <AppLink href={href("/orders", { customerId: id })} className={`text-sm text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>{t("customerDetail.orders.all")}</AppLink>
      <PanelRead query={orders} empty={rows.length === 0} none={t("customerDetail.orders.none")} className="mt-2">
        {() => (
          <PanelTable headers={[t("customerDetail.orders.orderNo"), t("customerDetail.orders.date"), t("customerDetail.orders.total")]} numeric testId="customer-orders" className="mt-2">
            {rows.map((o, i) => {
              const order = o as { orderNo?: unknown; dateOrder?: unknown; amountTotal?: unknown };
              return (
                <tr key={`${String(order.orderNo)}:${i}`} className="border-b border-slate-100">
                  <td className="py-1 pr-2 break-all">
                    <AppLink href={href(orderPath(String(order.orderNo ?? "")))} className={`text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>{String(order.orderNo ?? "")}</AppLink>
                  </td>
                  <td className="py-1 pr-2"><TimeText value={typeof order.dateOrder === "string" ? order.dateOrder : null} /></td>
                  <td className="py-1 text-right">{String(order.amountTotal ?? "")}</td>
                </tr>
              );
            })}
          </PanelTable>
        )}
      </PanelRead>
    </DetailSection>
  );
}
