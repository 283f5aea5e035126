"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { clientOnly } from "@/components/ui/client-only";
import { AppLink } from "@/components/ui/app-link";
import { useEffect, useRef, type ReactNode } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, focusRing } from "@/components/ui/button";
import { useTasks } from "@/components/tasks/use-tasks";
import { QueryView } from "@/components/ui/query-view";
import { appQuery, invalidateAppAfter } from "@/lib/api/app-queries";
import { appCall } from "@/lib/api/browser-fetch";
import { isActive } from "@/lib/tasks/task-api";
import { EMPTY_STAGE, type Breakdown, type DashboardAnswer, type DashboardData, type Figure } from "@/lib/dashboard/dashboard-data";
import { homeClock } from "@/lib/dashboard/home-days";
import type { Translate } from "@/lib/i18n/format";
import { formatMoney, minorOf } from "@/lib/orders/money";
import { SERIES_COLORS } from "./chart-colors";
import type { Column, HBar } from "./charts";
import { DuplicateOverviewLine } from "@/components/duplicates/duplicate-count";

// The charts' code (visx) is fetched after the page's first paint: the figures and their tables come first.
const chartBox = (height: string) => {
  const Placeholder = () => <div className={`${height} w-full rounded bg-slate-50`} aria-hidden="true" />;
  return Placeholder;
};
const ColumnChart = clientOnly(() => import("./charts").then((m) => m.ColumnChart), { loading: chartBox("h-44") });
const BarChart = clientOnly(() => import("./charts").then((m) => m.BarChart), { loading: chartBox("h-32") });

/** The figures' background task (lib/dashboard/figures-task.ts). */
const FIGURES_KINDS = ["dashboard.figures"] as const;

/** `MM-DD` under every 7th column, counted back from today so today always has its label. */
const tickOf = (day: string, index: number, count: number) => ((count - 1 - index) % 7 === 0 ? day.slice(5) : undefined);

/**
 * The home page's overview of the tenant (lib/dashboard/server-dashboard.ts computes it): the
 * customer total, new customers per day, customers by stage, source and gender, events per day by
 * type, orders and amount paid per day, and the top products. Every chart links each bar to its list
 * and has a table alternative; a figure that could not be computed says so.
 */
export function DashboardView({ initial }: { initial?: DashboardAnswer }) {
  const { t, locale } = useI18n();
  const href = useConsoleHref();
  const queryClient = useQueryClient();
  const read = appQuery("dashboard.get", {});
  const key = read.queryKey;
  const query = useQuery({
    ...read,
    initialData: initial,
    // The figures are kept fresh in the background; the page reads them again when a computation it watched ends.
    staleTime: Infinity,
  });
  // The tenant's latest computation (Refresh, the schedule, an install): its progress while it runs.
  const { tasks } = useTasks(FIGURES_KINDS, 1);
  const computing = tasks?.[0] && isActive(tasks[0]) ? tasks[0] : undefined;
  const watched = useRef<string | undefined>(undefined);
  useEffect(() => {
    const latest = tasks?.[0];
    if (computing) watched.current = computing.id;
    else if (latest && watched.current === latest.id) {
      watched.current = undefined;
      void queryClient.invalidateQueries({ queryKey: key });
    }
  }, [tasks, computing, queryClient, key]);
  // Set at once on click: the disabled state arrives a render later, after a double click's second click.
  const refreshing = useRef(false);
  const refresh = useMutation({
    mutationFn: () => appCall("dashboard.refresh", {}),
    meta: { silent: true },
    onSuccess: (answer) => {
      watched.current = answer.task.id;
      void invalidateAppAfter(queryClient, "dashboard.refresh");
    },
    onSettled: () => void (refreshing.current = false),
  });
  const startRefresh = () => {
    if (refreshing.current) return;
    refreshing.current = true;
    refresh.mutate();
  };
  const data = query.data?.data;
  const number = new Intl.NumberFormat(locale);
  const fmt = (n: number | null) => (n === null ? t("dashboard.failedCount") : number.format(n));

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold text-slate-900">{t("dashboard.title")}</h1>
        <div className="flex items-center gap-3">
          <p className="text-sm text-slate-700" data-testid="dashboard-as-of" role="status">
            {data ? t("dashboard.asOf", { time: homeClock(Date.parse(data.asOf)) }) : ""}
            {query.data?.staleSince && !computing ? ` · ${t("dashboard.stale", { time: homeClock(Date.parse(query.data.staleSince)) })}` : ""}
            {computing ? ` · ${t("dashboard.computing", { done: computing.progress.done, total: computing.progress.total ?? 0 })}` : refresh.isPending ? ` · ${t("dashboard.refreshing")}` : ""}
          </p>
          {computing ? <progress className="h-2 w-24 accent-blue-700" aria-label={t("dashboard.computingLabel")} max={computing.progress.total ?? 1} value={computing.progress.done} data-testid="dashboard-computing" /> : null}
          <Button onClick={startRefresh} disabled={refresh.isPending || query.isPending || !!computing} data-testid="dashboard-refresh">
            {t("dashboard.refresh")}
          </Button>
        </div>
      </div>
      {refresh.isError ? (
        <p role="alert" className="rounded border border-red-300 bg-red-50 p-2 text-sm text-red-900">
          {t("dashboard.loadFailed")}
        </p>
      ) : null}
      <DuplicateOverviewLine />
      <QueryView query={query} testId="dashboard" loading={t("dashboard.loading")} errorTitle={t("dashboard.loadFailed")}>
        {data ? <Figures data={data} t={t} fmt={fmt} money={(v, c) => formatMoney(v, locale, c)} href={href} /> : null}
      </QueryView>
    </div>
  );
}

type Helpers = { t: Translate; fmt: (n: number | null) => string; money: (value: string, currency?: string | null) => string; href: (path: string, extra?: Record<string, string>) => string };

function Figures({ data, t, fmt, money, href }: { data: DashboardData } & Helpers) {
  const { customers, events, orders } = data;
  const helpers = { t, fmt, money, href };
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card id="customers-total" title={t("dashboard.total.title")} notes={[t("dashboard.total.help")]} t={t} figure={customers.total} listHref={href("/customers")}>
        {customers.total.ok ? (
          <p className="text-4xl font-semibold text-slate-900">
            <AppLink href={href("/customers")} className={`hover:underline ${focusRing}`} data-testid="dashboard-total">
              {fmt(customers.total.value)}
            </AppLink>
          </p>
        ) : null}
      </Card>
      <NewCustomers data={data} {...helpers} />
      <BreakdownCard id="stage" title={t("dashboard.stage.title")} note={t("dashboard.stage.note")} figure={customers.byStage} {...helpers}
        labelOf={(k) => (k === EMPTY_STAGE ? t("dashboard.stage.empty") : k)} hrefOf={(k) => href("/customers", { stage: k })} />
      <BreakdownCard id="source" title={t("dashboard.source.title")} note={t("dashboard.source.note")} figure={customers.bySource} {...helpers}
        labelOf={(k) => k} hrefOf={(k) => href("/customers", { source: k })} />
      <BreakdownCard id="gender" title={t("dashboard.gender.title")} note={t("dashboard.gender.note")} figure={customers.byGender} {...helpers}
        labelOf={(k) => t(`gender.${k}` as "gender.0")} hrefOf={(k) => href("/customers", { gender: k })} />
      <EventsCard figure={events} {...helpers} />
      <OrdersCard figure={orders} {...helpers} />
      <ProductsCard figure={orders} {...helpers} />
    </div>
  );
}

function Card({ id, title, notes = [], partial, figure, t, listHref, listLabel, children, wide }: {
  id: string; title: string; notes?: string[]; partial?: boolean; figure: Figure<object>; t: Translate; listHref?: string; listLabel?: string; children?: ReactNode; wide?: boolean;
}) {
  return (
    <section aria-labelledby={`dash-${id}`} data-testid={`dashboard-${id}`} className={`rounded-lg border border-slate-200 bg-white p-4 shadow-sm ${wide ? "lg:col-span-2" : ""}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`dash-${id}`} className="text-base font-semibold text-slate-900">
          {title}
          {partial ? <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900">{t("dashboard.partial")}</span> : null}
        </h2>
        {listHref ? (
          <AppLink href={listHref} className={`text-sm text-blue-800 underline ${focusRing}`}>
            {listLabel ?? t("dashboard.openList")}
          </AppLink>
        ) : null}
      </div>
      {figure.ok ? (
        <div className="mt-2 space-y-2">{children}</div>
      ) : (
        <p className="mt-2 rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900" data-testid={`dashboard-${id}-unavailable`}>
          {t("dashboard.unavailable", { reason: figure.message })}
        </p>
      )}
      {notes.map((note) => (
        <p key={note} className="mt-2 text-xs text-slate-700">
          {note}
        </p>
      ))}
    </section>
  );
}

/** The chart's figures as a table (`head`: its header row; the children: its rows), behind "Show as a table". */
function TableAlternative({ caption, t, head, children }: { caption: string; t: Translate; head: ReactNode; children: ReactNode }) {
  return (
    <details className="text-sm">
      <summary className={`cursor-pointer text-blue-800 ${focusRing}`}>{t("dashboard.showTable")}</summary>
      <div className="mt-2 max-h-72 overflow-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead>{head}</thead>
          <tbody>{children}</tbody>
        </table>
      </div>
    </details>
  );
}

const th = "border-b border-slate-300 px-2 py-1 font-medium text-slate-900";
const td = "border-b border-slate-100 px-2 py-1 text-slate-900";

function NewCustomers({ data, t, fmt, href }: { data: DashboardData } & Helpers) {
  const figure = data.customers.newPerDay;
  const title = t("dashboard.newCustomers.title");
  const link = (day: string) => href("/customers", { createdFrom: `${day}T00:00:00`, createdTo: `${day}T23:59:59` });
  const failed = figure.ok && figure.days.some((d) => d.count === null);
  return (
    <Card id="new-customers" title={title} notes={[t("dashboard.newCustomers.note")]} partial={failed} figure={figure} t={t} listHref={href("/customers")}>
      {figure.ok ? (
        <>
          <ColumnChart
            label={t("dashboard.chartLabel", { title })}
            series={["count"]}
            columns={figure.days.map((d, i) => ({
              key: d.day, label: d.day, tick: tickOf(d.day, i, figure.days.length), href: link(d.day),
              segments: [{ series: "count", value: d.count ?? 0 }], name: t("dashboard.barLabel", { label: d.day, value: fmt(d.count) }),
            } satisfies Column))}
          />
          <TableAlternative caption={title} t={t} head={<tr><th scope="col" className={th}>{t("dashboard.day")}</th><th scope="col" className={`${th} text-right`}>{t("dashboard.count")}</th></tr>}>
            {figure.days.map((d) => (
              <tr key={d.day}><th scope="row" className={`${td} font-normal`}><AppLink href={link(d.day)} className={`underline ${focusRing}`}>{d.day}</AppLink></th><td className={`${td} text-right`}>{fmt(d.count)}</td></tr>
            ))}
          </TableAlternative>
        </>
      ) : null}
    </Card>
  );
}

function BreakdownCard({ id, title, note, figure, t, fmt, labelOf, hrefOf }: { id: string; title: string; note: string; figure: Figure<Breakdown>; labelOf: (key: string) => string; hrefOf: (key: string) => string } & Helpers) {
  const other = figure.ok && figure.other !== null && figure.other > 0 ? figure.other : undefined;
  const notes = [note, ...(other !== undefined && figure.ok ? [t("dashboard.otherHelp", { sampled: figure.sampled })] : [])];
  const partial = figure.ok && (figure.other === null || figure.buckets.some((b) => b.count === null));
  const bars: HBar[] = figure.ok
    ? [
        ...figure.buckets.map((b) => ({ key: b.key, label: labelOf(b.key), value: b.count ?? 0, valueText: fmt(b.count), href: hrefOf(b.key), name: t("dashboard.barLabel", { label: labelOf(b.key), value: fmt(b.count) }) })),
        ...(other !== undefined ? [{ key: "\u0000other", label: t("dashboard.other"), value: other, valueText: fmt(other), name: `${t("dashboard.other")}: ${fmt(other)}` }] : []),
      ]
    : [];
  return (
    <Card id={id} title={title} notes={notes} partial={partial} figure={figure} t={t}>
      {figure.ok ? (
        <>
          <BarChart label={t("dashboard.chartLabel", { title })} bars={bars} />
          <TableAlternative caption={title} t={t} head={<tr><th scope="col" className={th}>{t("dashboard.value")}</th><th scope="col" className={`${th} text-right`}>{t("dashboard.count")}</th></tr>}>
            {bars.map((b) => (
              <tr key={b.key}>
                <th scope="row" className={`${td} font-normal`}>{b.href ? <AppLink href={b.href} className={`underline ${focusRing}`}>{b.label}</AppLink> : b.label}</th>
                <td className={`${td} text-right`}>{b.valueText}</td>
              </tr>
            ))}
          </TableAlternative>
        </>
      ) : null}
    </Card>
  );
}

function EventsCard({ figure, t, fmt, href }: { figure: DashboardData["events"] } & Helpers) {
  const title = t("dashboard.events.title");
  const notes = figure.ok
    ? [
        t("dashboard.events.note", { max: figure.pageSize, fetched: fmt(figure.fetched) }),
        figure.complete ? t("dashboard.events.complete") : figure.completeFrom ? t("dashboard.events.partialFrom", { day: figure.completeFrom }) : t("dashboard.partial"),
        ...(figure.firstDayCut ? [t("dashboard.events.firstDayCut")] : []),
        t("dashboard.events.barNote"),
      ]
    : [];
  // The most frequent types get their own colour; the rest share the last one.
  const shown = figure.ok ? figure.types.slice(0, SERIES_COLORS.length - 1) : [];
  const otherTypes = figure.ok ? figure.types.slice(shown.length) : [];
  const series = otherTypes.length ? [...shown, "\u0000other"] : shown;
  const seriesLabel = (s: string) => (s === "\u0000other" ? t("dashboard.other") : s);
  return (
    <Card id="events" title={title} notes={notes} partial={figure.ok && !figure.complete} figure={figure} t={t} listHref={href("/events")} listLabel={t("dashboard.events.list")} wide>
      {figure.ok ? (
        figure.types.length === 0 ? (
          <p className="text-sm text-slate-700">{t("dashboard.events.none")}</p>
        ) : (
          <>
            <Legend series={series} label={seriesLabel} />
            <ColumnChart
              label={t("dashboard.chartLabel", { title })}
              series={series}
              columns={figure.days.map((day, i) => {
                const counts = figure.counts[day] ?? {};
                const total = Object.values(counts).reduce((s, n) => s + n, 0);
                return {
                  // §4.3 filters on lastUpdated only: the day's window of recorded events, said so in the name.
                  key: day, label: day, tick: tickOf(day, i, figure.days.length), href: href("/events", { from: `${day}T00:00:00`, to: `${day}T23:59:59` }),
                  segments: [...shown.map((s) => ({ series: s, value: counts[s] ?? 0 })), ...(otherTypes.length ? [{ series: "\u0000other", value: otherTypes.reduce((n, s) => n + (counts[s] ?? 0), 0) }] : [])],
                  name: t("dashboard.events.barLabel", { label: day, value: fmt(total) }),
                } satisfies Column;
              })}
            />
            <TableAlternative caption={title} t={t} head={<tr><th scope="col" className={th}>{t("dashboard.day")}</th>{figure.types.map((type) => <th key={type} scope="col" className={`${th} text-right`}>{type}</th>)}</tr>}>
              {figure.days.map((day) => (
                <tr key={day}>
                  <th scope="row" className={`${td} font-normal`}><AppLink href={href("/events", { from: `${day}T00:00:00`, to: `${day}T23:59:59` })} className={`underline ${focusRing}`}>{day}</AppLink></th>
                  {figure.types.map((type) => <td key={type} className={`${td} text-right`}>{fmt(figure.counts[day]?.[type] ?? 0)}</td>)}
                </tr>
              ))}
            </TableAlternative>
          </>
        )
      ) : null}
    </Card>
  );
}

function Legend({ series, label }: { series: string[]; label: (s: string) => string }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-800">
      {series.map((s, i) => (
        <li key={s} className="flex items-center gap-1">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm" style={{ background: SERIES_COLORS[i % SERIES_COLORS.length] }} />
          {label(s)}
        </li>
      ))}
    </ul>
  );
}

function ordersNotes(figure: DashboardData["orders"], t: Translate, fmt: Helpers["fmt"]): string[] {
  if (!figure.ok) return [];
  return [
    t("dashboard.orders.note", { fetched: fmt(figure.fetched), records: fmt(figure.records), cancelled: fmt(figure.cancelled) }),
    figure.complete ? t("dashboard.orders.complete") : figure.completeFrom ? t("dashboard.orders.partialFrom", { day: figure.completeFrom }) : t("dashboard.partial"),
    ...(figure.skippedAmounts ? [t("dashboard.orders.skipped", { count: fmt(figure.skippedAmounts) })] : []),
    ...(figure.firstDayCut ? [t("dashboard.events.firstDayCut")] : []),
    t("dashboard.orders.barNote"),
  ];
}

function OrdersCard({ figure, t, fmt, money, href }: { figure: DashboardData["orders"] } & Helpers) {
  const title = t("dashboard.orders.title");
  const currency = figure.ok ? figure.currency : null;
  return (
    <Card id="orders" title={title} notes={ordersNotes(figure, t, fmt)} partial={figure.ok && !figure.complete} figure={figure} t={t} listHref={href("/orders")} listLabel={t("dashboard.orders.list")} wide>
      {figure.ok ? (
        <>
          <ColumnChart
            label={t("dashboard.chartLabel", { title })}
            series={["orders"]}
            columns={figure.days.map((d, i) => ({
              // §4.2 lists orders by customer only: no link that would open an unfiltered list.
              key: d.day, label: d.day, tick: tickOf(d.day, i, figure.days.length),
              segments: [{ series: "orders", value: d.orders }],
              name: t("dashboard.orders.barLabel", { label: d.day, value: `${fmt(d.orders)} · ${money(d.amountPaid, currency)}` }),
            } satisfies Column))}
          />
          <TableAlternative caption={title} t={t} head={<tr><th scope="col" className={th}>{t("dashboard.day")}</th><th scope="col" className={`${th} text-right`}>{t("dashboard.orders.orders")}</th><th scope="col" className={`${th} text-right`}>{t("dashboard.orders.amountPaid")}</th></tr>}>
            {figure.days.map((d) => (
              <tr key={d.day}><th scope="row" className={`${td} font-normal`}>{d.day}</th><td className={`${td} text-right`}>{fmt(d.orders)}</td><td className={`${td} text-right`}>{money(d.amountPaid, currency)}</td></tr>
            ))}
          </TableAlternative>
        </>
      ) : null}
    </Card>
  );
}

function ProductsCard({ figure, t, fmt, money, href }: { figure: DashboardData["orders"] } & Helpers) {
  const title = t("dashboard.products.title");
  const currency = figure.ok ? figure.currency : null;
  const products = figure.ok ? figure.topProducts : [];
  // Bars are drawn in whole currency units; the text keeps the exact amount.
  const bars: HBar[] = products.map((p) => ({
    key: p.key, label: p.name, value: Number((minorOf(p.amount) ?? 0n) / 100n), valueText: money(p.amount, currency),
    name: t("dashboard.products.barLabel", { label: p.name, value: money(p.amount, currency) }),
  }));
  return (
    <Card id="products" title={title} notes={[t("dashboard.products.note"), t("dashboard.products.barNote")]} partial={figure.ok && !figure.complete} figure={figure} t={t} listHref={href("/orders")} listLabel={t("dashboard.orders.list")} wide>
      {figure.ok ? (
        products.length === 0 ? (
          <p className="text-sm text-slate-700">{t("dashboard.products.none")}</p>
        ) : (
          <>
            <BarChart label={t("dashboard.chartLabel", { title })} bars={bars} />
            <TableAlternative caption={title} t={t} head={<tr><th scope="col" className={th}>{t("dashboard.products.product")}</th><th scope="col" className={`${th} text-right`}>{t("dashboard.products.amount")}</th><th scope="col" className={`${th} text-right`}>{t("dashboard.products.qty")}</th></tr>}>
              {products.map((p) => (
                <tr key={p.key}><th scope="row" className={`${td} font-normal`}>{p.name}</th><td className={`${td} text-right`}>{money(p.amount, currency)}</td><td className={`${td} text-right`}>{fmt(p.qty)}</td></tr>
              ))}
            </TableAlternative>
          </>
        )
      ) : null}
    </Card>
  );
}
