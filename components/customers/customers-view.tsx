"use client";
import { clientOnly } from "@/components/ui/client-only";
import { AppLink } from "@/components/ui/app-link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { platformQuery } from "@/lib/api/platform-queries";
import {
  countInput,
  EMPTY_FILTERS,
  hasActiveFilters,
  listInput,
  customerListUrlState,
  movePage,
  pageRows,
  searchListInput,
  searchParamsOf,
  serializeListState,
  type CustomerListState,
} from "@/lib/customers/customer-list-state";
import { customerSearchQuery, hitsById, indexStatusQuery, searchCount, tagCountsQuery } from "@/lib/search/search-queries";
import { SORTABLE_COLUMNS } from "@/lib/customers/customer-columns";
import { PAGE_SIZES } from "@/lib/ui/url-params";
import { useListController } from "@/lib/ui/list-controller";
import { hasNextPage, pageCount } from "@/lib/ui/list-state";
import type { MessageKey } from "@/lib/i18n/messages";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button, buttonClass } from "@/components/ui/button";
import { useConsoleHref } from "@/components/shell/console-href";
import { ListControls } from "@/components/ui/list-controls";
import { Pagination } from "@/components/ui/pagination";
import { QueryView, UpdatingStatus } from "@/components/ui/query-view";
import { ColumnChooser } from "./column-chooser";
import { CustomerExportButton } from "./customer-export";
import { CustomerFilters } from "./customer-filters";
import { CustomerTable } from "./customer-table";
import { SearchMatch } from "@/components/search/search-match";
import { LazySavedViews as SavedViews } from "@/components/views/lazy-saved-views";

// Remembering the column choice is not needed to show the list: loaded after it (first-load budget).
// So are the bulk toolbar (it shows once rows are selected) and the index status (a search only).
const BulkActions = clientOnly(() => import("./bulk-actions").then((m) => m.BulkActions));
const IndexStatusLine = clientOnly(() => import("@/components/search/index-status").then((m) => m.IndexStatusLine));
const RememberedColumns = clientOnly(() => import("@/components/preferences/remembered-columns").then((m) => m.default));
// The exports' panel reads its tasks in the browser anyway, and shows nothing until there is one.
const CustomerExportTasks = clientOnly(() => import("./customer-export-tasks").then((m) => m.CustomerExportTasks));

/** The queries of a list state; the server prefetches exactly these (same keys). */
export function customerListQueries(state: CustomerListState) {
  const count = countInput(state);
  return { list: platformQuery("customers.list", listInput(state)), count: count ? platformQuery("customers.count", count) : undefined };
}

/**
 * The customers list (§4.1): filters, sort, page size, columns, total, paging. State lives in the
 * URL; the previous page stays on screen while the next one loads (`keepPreviousData`), and
 * loading indicators appear only when an answer is slow. The selection for bulk actions lives in
 * this component (not the URL), so it survives paging and filter changes while the page is open.
 */
export function CustomersView() {
  const { t } = useI18n();
  const href = useConsoleHref();
  const controller = useListController(customerListUrlState);
  const { state, set: setState, update, selection } = controller;
  const [filtersReset, setFiltersReset] = useState(0);
  const applyColumns = useCallback((columns: CustomerListState["columns"]) => setState((s) => ({ ...s, columns })), [setState]);

  // The search box or a tag: ids from the customer index, then their live records from the platform.
  const search = searchParamsOf(state);
  const indexStatus = useQuery({ ...indexStatusQuery(), enabled: search !== undefined });
  const building = indexStatus.data?.phase !== "ready";
  // While the index fills, the results are read again as it grows.
  const found = useQuery({ ...customerSearchQuery(search ?? { limit: 1 }), enabled: search !== undefined, placeholderData: keepPreviousData, refetchInterval: building ? 2_000 : false });
  const foundInput = search && found.data ? searchListInput(state, found.data.hits.map((h) => h.id)) : undefined;
  const queries = search ? { list: platformQuery("customers.list", foundInput ?? { query: { idList: "0" } }), count: undefined } : customerListQueries(state);
  const list = useQuery({ ...queries.list, enabled: !search || foundInput !== undefined, placeholderData: keepPreviousData });
  const count = useQuery({ ...(queries.count ?? platformQuery("customers.count", {})), enabled: queries.count !== undefined, placeholderData: keepPreviousData });
  // A search that found nothing is answered by the index alone.
  const shown = search && !foundInput ? found : list;
  // A new query keeps the previous rows on screen (placeholder data): they are marked stale until it answers.
  const searching = Boolean(search) && (found.isPlaceholderData || (foundInput !== undefined && list.isPlaceholderData));
  // A tag alone is counted exactly by the index; otherwise the count is known once the last page is reached.
  const tagOnly = search && !search.q && search.tag && Object.keys(search).every((k) => ["tag", "limit", "offset"].includes(k)) ? search.tag : undefined;
  const tagCount = useQuery({ ...tagCountsQuery(tagOnly ? [tagOnly] : []), enabled: tagOnly !== undefined });
  const foundCount = search && found.data && !found.isPlaceholderData ? searchCount(search, found.data, tagOnly ? tagCount.data?.counts[tagOnly] : undefined) : undefined;
  const hits = hitsById(found.isPlaceholderData ? undefined : found.data?.hits);
  const q = state.filters.q.trim();

  const clearFilters = () => {
    update({ filters: EMPTY_FILTERS });
    setFiltersReset((k) => k + 1);
  };

  const rows = search ? (foundInput ? (list.data?.rows ?? []) : []) : pageRows(state, list.data?.rows ?? []);
  const total = queries.count && count.data !== undefined && !count.isPlaceholderData ? count.data : undefined;
  const pages = pageCount(total, state.rows);
  const hasNext = search ? Boolean(found.data?.hasMore) : hasNextPage(state.page, pages, rows.length, state.rows);
  const filtered = hasActiveFilters(state.filters);

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <div className="flex items-baseline gap-3">
          <h1 className="text-xl font-semibold text-slate-900">{t("customers.title")}</h1>
          <AppLink href={href("/customers/new")} className={buttonClass("primary")} data-testid="new-customer">
            {t("customerEdit.newCustomer")}
          </AppLink>
          <AppLink href={href("/customers/lookup")} className={buttonClass("secondary")} data-testid="md5-lookup">
            {t("md5.open")}
          </AppLink>
        </div>
        <p className="text-sm text-slate-800" aria-live="polite" data-testid="customers-count">
          {total !== undefined ? t("list.total", { count: total }) : foundCount ? t(foundCount.exact ? "search.count" : "search.countAtLeast", { count: foundCount.count }) : null}
        </p>
      </div>

      <SavedViews list="customers" definition={customerListUrlState} state={state} onApply={(next) => setState(next)} />
      <CustomerFilters key={filtersReset} value={state.filters} initial={filtersReset ? EMPTY_FILTERS : state.filters} onChange={(filters) => update({ filters })} />
      {search ? <IndexStatusLine status={indexStatus.data ?? found.data?.status} note /> : !queries.count && <p className="text-xs text-slate-700">{t("list.totalUnavailable")}</p>}

      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-wrap items-end gap-3">
          <ListControls
            sort={{ value: state.sort, order: state.order, options: SORTABLE_COLUMNS.map((c) => ({ value: c, label: t(`field.${c}` as MessageKey) })) }}
            {...controller.controls}
            pageSizes={PAGE_SIZES}
          />
        </div>
        <div className="flex items-center gap-3">
          {searching ? (
            <span className="text-sm font-medium text-slate-800" role="status" data-testid="search-searching">{t("search.searching")}</span>
          ) : (
            <UpdatingStatus query={shown} />
          )}
          <ColumnChooser columns={state.columns} onChange={applyColumns} />
          <RememberedColumns columns={state.columns} apply={applyColumns} />
          <CustomerExportButton list={serializeListState(state).toString()} />
        </div>
      </div>

      <CustomerExportTasks />

      <BulkActions selection={selection.selected} onClear={selection.clear} onRemoved={selection.remove} />

      <QueryView query={shown} hasRows={rows.length > 0} testId="customers" loading={t("list.loading")} errorTitle={t("list.loadError")}
        empty={{ title: t("list.emptyTitle"), body: t("list.emptyBody") }}
        noResults={
          filtered || state.page > 1
            ? {
                title: t("list.noResultsTitle"),
                body: t("list.noResultsBody"),
                onFirstPage: state.page > 1 ? () => update({}) : undefined,
                actions: filtered && <Button onClick={clearFilters}>{t("customers.clearFilters")}</Button>,
              }
            : undefined
        }
      >
        <CustomerTable
          rows={rows}
          state={state}
          busy={list.isFetching || searching}
          matched={q ? (customer) => <SearchMatch hit={hits.get(String(customer.id))} query={q} /> : undefined}
          onSort={update}
          selection={{ selected: selection.selected, onToggle: selection.toggle, onTogglePage: selection.togglePage }}
        />
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-slate-800 tabular-nums">
            {t("list.showing", { from: (state.page - 1) * state.rows + 1, to: (state.page - 1) * state.rows + rows.length })}
          </p>
          <Pagination {...controller.pager({ pages, hasNext: hasNext && !shown.isPlaceholderData, move: (s, page) => movePage(s, page, list.isPlaceholderData || search ? [] : rows) })} />
        </div>
      </QueryView>
    </div>
  );
}
