"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useDraft } from "@/lib/hooks/use-draft";
import { platformQuery } from "@/lib/api/platform-queries";
import { browseProblems, EVENT_MAX_CHOICES, EVENT_SORTS, eventBrowseInput, eventBrowseUrlState, mayHaveMore, type BrowseProblem, type EventBrowseState, type EventSort } from "@/lib/events/event-browse";
import { useListController } from "@/lib/ui/list-controller";
import type { OutputOf } from "@/lib/platform/operations";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { SelectField, TextField } from "@/components/ui/field";
import { QueryView, UpdatingStatus } from "@/components/ui/query-view";
import { TimeText } from "@/components/ui/time-text";
import { eventProblemText } from "@/lib/events/event-problem-text";
import { RecordEvent } from "./record-event";
import { PersonName, usePeople } from "@/components/people/person-name";
import { DateTimeField } from "@/components/ui/date-time-field";
import { LazySavedViews as SavedViews } from "@/components/views/lazy-saved-views";
import { LazyCustomerPicker as CustomerPicker } from "@/components/search/lazy-customer-picker";

/** One event of the §4.3 answer. */
type CustomerEvent = OutputOf<"events.list">[number];
type Draft = Pick<EventBrowseState, "customerId" | "types" | "from" | "to">;
const draftOf = (s: EventBrowseState): Draft => ({ customerId: s.customerId, types: s.types, from: s.from, to: s.to });

/**
 * The event browser of the Events page (§4.3 GET /v1/customerevents): customer,
 * event types, a window on when events entered the system (UTC+8 typed, UTC sent), `max` up to 1000
 * (§8) and the sort, kept in the URL; "Record an event" with the customer chosen in its dialog.
 */
export function EventsBrowser() {
  const { t } = useI18n();
  const href = useConsoleHref();
  const controller = useListController(eventBrowseUrlState);
  const { state, update } = controller;
  // The filter boxes follow the URL when it changes elsewhere (a link, Clear).
  const [draft, setDraft] = useDraft<Draft>(draftOf(state));
  const [problems, setProblems] = useState<Record<string, BrowseProblem>>({});
  const events = useQuery({ ...platformQuery("events.list", eventBrowseInput(state)), placeholderData: keepPreviousData });
  const rows = (events.data ?? []) as CustomerEvent[];
  const people = usePeople(rows.map((row) => row.customerId as string | number | undefined));

  const text = (p: BrowseProblem | undefined) => {
    if (!p) return undefined;
    if (p.code === "customerId") return t("eventsBrowse.error.customerId");
    if (p.code === "tooManyTypes") return t("eventsBrowse.error.tooManyTypes", { max: p.max });
    if (p.code === "window") return t("eventsBrowse.error.window");
    return eventProblemText(p, t);
  };

  const onApply = (event: FormEvent) => {
    event.preventDefault();
    const found = browseProblems(draft);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    update({ ...draft, customerId: draft.customerId.trim(), types: draft.types.trim() });
  };
  const filtered = state.customerId !== "" || state.types !== "" || state.from !== "" || state.to !== "";
  const clear = () => {
    setProblems({});
    update({ customerId: "", types: "", from: "", to: "" });
  };

  const columns: Column<CustomerEvent, EventSort>[] = [
    {
      key: "customer",
      header: t("eventsBrowse.col.customer"),
      cell: (row) => (row.customerId ? <PersonName id={String(row.customerId)} hit={people.get(String(row.customerId))} href={href(`/customers/${row.customerId}`)} /> : null),
    },
    { key: "event", header: t("eventsBrowse.col.event"), className: "font-mono text-xs break-all", cell: (row) => String(row.event ?? "") },
    { key: "target", header: t("eventsBrowse.col.target"), className: "max-w-56 break-words", cell: (row) => String((row as Record<string, unknown>).targetName ?? (row as Record<string, unknown>).targetId ?? "") },
    { key: "date", header: t("eventsBrowse.col.date"), sortKey: "date", className: "text-xs", cell: (row) => <TimeText stacked value={typeof row.date === "string" ? row.date : null} /> },
    { key: "lastUpdated", header: t("eventsBrowse.col.lastUpdated"), sortKey: "lastUpdated", className: "text-xs", cell: (row) => <TimeText stacked value={typeof row.lastUpdated === "string" ? row.lastUpdated : null} /> },
    // The event's own id last: staff look for the person and the event first (a 1024-px pane holds them all).
    { key: "id", header: t("eventsBrowse.col.id"), sortKey: "id", className: "font-mono text-xs", cell: (row) => String(row.id ?? "") },
  ];

  return (
    <section aria-labelledby="events-browse-title" className="flex flex-col gap-3" data-testid="events-browser">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="events-browse-title" className="text-lg font-semibold text-slate-900">{t("eventsBrowse.title")}</h2>
        <RecordEvent />
      </div>
      <p className="text-sm text-slate-800">{t("eventsBrowse.intro")}</p>
      <SavedViews list="events" definition={eventBrowseUrlState} state={state} onApply={(next) => controller.set(next)} />
      <form onSubmit={onApply} noValidate className="grid gap-3 rounded-lg border border-slate-300 bg-white p-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="events-filter">
        <CustomerPicker label={t("eventsBrowse.customer")} help={t("eventsBrowse.customerHelp")} value={draft.customerId} error={text(problems.customerId)} onChange={(customerId) => setDraft((d) => ({ ...d, customerId }))} testId="events-customer" />
        <TextField label={t("eventsBrowse.types")} help={t("eventsBrowse.typesHelp")} spellCheck={false} value={draft.types} error={text(problems.types)} onChange={(e) => setDraft({ ...draft, types: e.target.value })} />
        <DateTimeField label={t("eventsBrowse.from")} value={draft.from} error={text(problems.from)} onChange={(from) => setDraft({ ...draft, from })} />
        <DateTimeField label={t("eventsBrowse.to")} value={draft.to} error={text(problems.to)} onChange={(to) => setDraft({ ...draft, to })} />
        <SelectField label={t("eventsBrowse.max")} help={t("eventsBrowse.maxHelp")} value={String(state.max)} onChange={(e) => update({ max: Number(e.target.value) })}>
          {EVENT_MAX_CHOICES.map((n) => <option key={n} value={n}>{n}</option>)}
        </SelectField>
        <SelectField label={t("eventsBrowse.sort")} value={`${state.sort}:${state.order}`} onChange={(e) => {
          const [sort, order] = e.target.value.split(":") as [EventSort, "asc" | "desc"];
          update({ sort, order });
        }}>
          {EVENT_SORTS.flatMap((sort) => (["desc", "asc"] as const).map((order) => (
            <option key={`${sort}:${order}`} value={`${sort}:${order}`}>{t(`eventsBrowse.sort.${sort}.${order}`)}</option>
          )))}
        </SelectField>
        <div className="flex items-end gap-2 pb-5 lg:col-span-2">
          <Button type="submit" variant="primary">{t("eventsBrowse.apply")}</Button>
          {filtered && <Button onClick={clear}>{t("eventsBrowse.clear")}</Button>}
          <UpdatingStatus query={events} />
        </div>
      </form>
      <QueryView query={events} hasRows={rows.length > 0} testId="events" loading={t("eventsBrowse.loading")} errorTitle={t("eventsBrowse.loadError")}
        empty={{ title: t("eventsBrowse.emptyTitle"), body: t("eventsBrowse.emptyBody") }}
        noResults={filtered ? { title: t("eventsBrowse.noResultsTitle"), actions: <Button onClick={clear}>{t("eventsBrowse.clear")}</Button> } : undefined}
      >
        <p className="text-sm text-slate-800" aria-live="polite" data-testid="events-shown">
          {mayHaveMore(rows.length, state) ? t("eventsBrowse.shownCut", { count: rows.length }) : t("eventsBrowse.shown", { count: rows.length })}
        </p>
        <DataTable
          rows={rows}
          rowKey={(row, i) => `${String(row.id ?? "")}:${i}`}
          columns={columns}
          caption={t("eventsBrowse.caption")}
          testId="events-table"
          busy={events.isFetching}
          sort={controller.tableSort}
        />
      </QueryView>
    </section>
  );
}
