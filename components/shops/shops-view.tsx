"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AppLink } from "@/components/ui/app-link";
import { useRouter } from "next/navigation";
import { useEffect, useState, type FormEvent } from "react";
import type { ApiError } from "@/lib/http/api-error";
import { useDebouncedValue } from "@/lib/hooks/use-debounced-value";
import type { MessageKey } from "@/lib/i18n/messages";
import { shopListState, shopQueryOf } from "@/lib/shops/shop-list-query";
import { useListController } from "@/lib/ui/list-controller";
import { shopKeys, shopsApi } from "@/lib/shops/shop-queries";
import { SHOP_SORTS, SHOP_STATES, shopLabel, type RegisteredShop, type ShopSort, type ShopState } from "@/lib/shops/shops-api";
import { toastStore } from "@/lib/ui/toast-store";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, buttonClass, focusRing } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { errorMessage } from "@/components/ui/error-message";
import { SelectField, TextField } from "@/components/ui/field";
import { QueryView, UpdatingStatus } from "@/components/ui/query-view";
import { TimeText } from "@/components/ui/time-text";
import { TruncatedText } from "@/components/ui/truncated-text";
import { PageHeader } from "@/components/ui/page-header";
import { ShopStatus } from "./shop-status";
import { isPlatformId } from "@/lib/platform/ids";
import { LazySavedViews as SavedViews } from "@/components/views/lazy-saved-views";


/**
 * The register of shops the app knows (§4.8 has no shop list): search, sort and what to show, kept
 * in the URL (the list controller), then two ways to bring shops in that the platform allows: a
 * shop id typed by staff, and a group opened by id (its read returns its shops).
 */
export function ShopsView() {
  const { t } = useI18n();
  const href = useConsoleHref();
  const { state, update, set } = useListController(shopListState);
  /** The choices of a select, each worded by its message `<prefix>.<value>`. */
  const options = (values: readonly string[], prefix: string) =>
    values.map((value) => (
      <option key={value} value={value}>
        {t(`${prefix}.${value}` as MessageKey)}
      </option>
    ));
  // The search box keeps what is typed (spaces too); the URL gets it once typing pauses, and the box
  // follows the URL when it changes elsewhere (Clear).
  const [draft, setDraft] = useState(state.q);
  const [shownFor, setShownFor] = useState(state.q);
  if (shownFor !== state.q) {
    setShownFor(state.q);
    if (draft.trim() !== state.q) setDraft(state.q);
  }
  const settled = useDebouncedValue(draft);
  useEffect(() => {
    if (settled.trim() !== state.q) update({ q: settled });
    // Only a new settled draft writes the URL.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);
  const query = shopQueryOf(state);
  const list = useQuery({ queryKey: shopKeys.list(query), queryFn: ({ signal }) => shopsApi.list(query, signal), placeholderData: keepPreviousData });
  const rows = list.data?.shops ?? [];
  const filtered = Boolean(query.q) || query.state !== undefined;

  const columns: Column<RegisteredShop>[] = [
    // The shop first, its platform id last, tight padding: the table fits the admin's 1024-px iframe (a 732-px pane).
    { key: "name", header: t("shops.col.name"), headClassName: "px-2! whitespace-normal!", className: "px-2!", cell: (row) => { const label = shopLabel(row); return label ? <TruncatedText text={label} className="max-w-40" /> : <span className="text-slate-700">{t("shops.unnamed")}</span>; } },
    { key: "sid", header: t("shops.col.sid"), headClassName: "px-2! whitespace-normal!", className: "px-2! font-mono text-xs", cell: (row) => row.sid ?? "—" },
    { key: "status", header: t("shops.col.status"), headClassName: "px-2! whitespace-normal!", className: "px-2!", cell: (row) => <ShopStatus shop={row} /> },
    { key: "source", header: t("shops.col.source"), headClassName: "px-2! whitespace-normal!", className: "px-2!", cell: (row) => t(`shops.source.${row.source}` as MessageKey) },
    {
      key: "seen",
      header: t("shops.col.seen"),
      headClassName: "px-2! whitespace-normal!",
      className: "px-2! text-xs",
      cell: (row) => (row.seenAt ? <TimeText stacked value={row.seenAt} /> : t("shops.notSeen")),
    },
    { key: "id", header: t("shops.col.id"), headClassName: "px-2! whitespace-normal!", className: "px-2! font-mono text-xs tabular-nums", cell: (row) => row.id },
    {
      key: "actions",
      header: t("shops.actions"),
      hideHeader: true,
      align: "right",
      className: "px-1!",
      cell: (row) => (
        <AppLink href={href(`/shops/${row.id}/edit`)} className={buttonClass("ghost")} aria-label={t("shops.editNamed", { name: shopLabel(row) ?? row.id })}>
          {t("shops.edit")}
        </AppLink>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={t("shops.title")}
        aside={
          <div className="flex gap-2">
            <AppLink href={href("/shops/groups")} className={buttonClass("secondary")}>
              {t("shops.groups")}
            </AppLink>
            <AppLink href={href("/shops/new")} className={buttonClass("primary")}>
              {t("shops.new")}
            </AppLink>
          </div>
        }
        intro={t("shops.intro")}
      />
      <SavedViews list="shops" definition={shopListState} state={state} onApply={set} />

      <div className="flex flex-wrap items-end gap-3">
        <TextField className="w-64" type="search" label={t("shops.search")} help={t("shops.searchHelp")} value={draft} onChange={(e) => setDraft(e.target.value)} />
        <SelectField className="w-40" label={t("shops.sort")} value={state.sort} onChange={(e) => update({ sort: e.target.value as ShopSort })}>
          {options(SHOP_SORTS, "shops.sort")}
        </SelectField>
        <SelectField className="w-32" label={t("shops.order")} value={state.order} onChange={(e) => update({ order: e.target.value === "asc" ? "asc" : "desc" })}>
          {options(["desc", "asc"], "shops.order")}
        </SelectField>
        <SelectField className="w-56" label={t("shops.state")} value={state.state} onChange={(e) => update({ state: e.target.value as ShopState })}>
          {options(SHOP_STATES, "shops.state")}
        </SelectField>
        <UpdatingStatus query={list} />
      </div>
      <p className="text-sm text-slate-800" aria-live="polite" data-testid="shops-total">
        {list.data ? t("shops.total", { count: rows.length, total: list.data.total }) : null}
      </p>

      <QueryView
        query={list}
        hasRows={rows.length > 0}
        testId="shops"
        loading={t("shops.loading")}
        empty={{ title: t("shops.emptyTitle"), body: t("shops.emptyBody") }}
        noResults={filtered ? { title: t("shops.noResultsTitle"), actions: <Button onClick={() => { setDraft(""); update(shopListState.defaults); }}>{t("shops.clear")}</Button> } : undefined}
      >
        <DataTable rows={rows} rowKey={(row) => row.id} columns={columns} caption={t("shops.caption")} testId="shops-table" busy={list.isFetching} />
      </QueryView>

      <div className="grid gap-4 md:grid-cols-2">
        <AddKnownShop />
        <OpenGroupById />
      </div>
    </div>
  );
}

/** A shop id staff add to the register (the platform reads no shop by id: details come with a group read). */
function AddKnownShop() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [id, setId] = useState("");
  const [problem, setProblem] = useState<string | undefined>();
  const add = useMutation({
    mutationFn: (shopId: string) => shopsApi.addKnown(shopId),
    meta: { silent: true },
    onSuccess: (answer) => {
      toastStore.show("success", answer.added ? t("shops.addKnown.added", { id: answer.shop.id }) : t("shops.addKnown.exists", { id: answer.shop.id }));
      setId("");
      void queryClient.invalidateQueries({ queryKey: shopKeys.all });
    },
    onError: (error: ApiError) => setProblem(errorMessage(error, t)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = id.trim();
    if (!isPlatformId(value)) return setProblem(t("shops.addKnown.invalid"));
    setProblem(undefined);
    add.mutate(value);
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-2 rounded-lg border border-slate-300 bg-white p-4" aria-labelledby="add-known-title">
      <h2 id="add-known-title" className="text-base font-semibold text-slate-900">
        {t("shops.addKnown.title")}
      </h2>
      <TextField label={t("shops.addKnown.label")} help={t("shops.addKnown.help")} inputMode="numeric" value={id} error={problem} onChange={(e) => setId(e.target.value)} />
      <Button type="submit" className="self-start" disabled={add.isPending} aria-busy={add.isPending || undefined}>
        {t("shops.addKnown.submit")}
      </Button>
    </form>
  );
}

/** Opens `/shops/groups/{id}`: the platform's read of a group the app may never have seen. */
export function OpenGroupById() {
  const { t } = useI18n();
  const href = useConsoleHref();
  const router = useRouter();
  const [id, setId] = useState("");
  const [problem, setProblem] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = id.trim();
    if (!isPlatformId(value)) return setProblem(t("groups.open.invalid"));
    setProblem(undefined);
    router.push(href(`/shops/groups/${value}`));
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-2 rounded-lg border border-slate-300 bg-white p-4" aria-labelledby="open-group-title">
      <h2 id="open-group-title" className="text-base font-semibold text-slate-900">
        {t("groups.open.title")}
      </h2>
      <TextField label={t("groups.open.label")} inputMode="numeric" value={id} error={problem} onChange={(e) => setId(e.target.value)} />
      <button type="submit" className={`${buttonClass("secondary")} self-start ${focusRing}`}>
        {t("groups.open.submit")}
      </button>
    </form>
  );
}
