"use client";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { appQuery } from "@/lib/api/app-queries";
import { AppLink } from "@/components/ui/app-link";
import { useMemo, useState } from "react";
import { isPlatformId } from "@/lib/platform/ids";
import { customerLookupQuery, hitContact, hitName, LOOKUP_MAX } from "@/lib/search/search-queries";
import type { SearchHit } from "@/lib/search/types";
import { useI18n } from "@/components/i18n/i18n-provider";
import { focusRing } from "@/components/ui/button";

const NOBODY: ReadonlyMap<string, SearchHit> = new Map();

/** The hits of a lookup in one map (a stable function: the map is made again only when the answer changes). */
function byId(answer: { hits: readonly SearchHit[] }): ReadonlyMap<string, SearchHit> {
  return new Map(answer.hits.map((hit) => [hit.id, hit]));
}

/** One query for a page's ids: the lookup itself, or, past one lookup's worth, its parts read one by one. */
function peopleQuery(queryClient: QueryClient, unique: readonly string[]) {
  const whole = customerLookupQuery(unique);
  if (unique.length <= LOOKUP_MAX) return whole;
  const parts: string[][] = [];
  for (let i = 0; i < unique.length; i += LOOKUP_MAX) parts.push(unique.slice(i, i + LOOKUP_MAX));
  return {
    ...whole,
    // The whole id list names the entry (the route reads at most LOOKUP_MAX, so no lookup has this key).
    queryKey: appQuery("search.customers", { query: { ids: unique.join(",") } }).queryKey,
    queryFn: async () => {
      const answers = await Promise.all(parts.map((part) => queryClient.fetchQuery(customerLookupQuery(part))));
      return { ...answers[0]!, hits: answers.flatMap((a) => a.hits) };
    },
  };
}

/**
 * People by id, named from the customer index: a page's ids in one batched `ids=` lookup per 200
 * (not one per row). Ids the index does not hold are absent: they show as the id alone. One
 * `useQuery`, not `useQueries` (about 1.2 kB gzip more in the first load of every page that names people).
 */
export function usePeople(ids: readonly (string | number | null | undefined)[]): ReadonlyMap<string, SearchHit> {
  const unique = useMemo(() => [...new Set(ids.map((id) => (id === null || id === undefined ? "" : String(id))).filter(isPlatformId))].sort(), [ids]);
  const queryClient = useQueryClient();
  return useQuery({ ...peopleQuery(queryClient, unique), select: byId }).data ?? NOBODY;
}

/** A person already looked up on this page (the picker's choice), for a toast written at once. */
export function cachedPerson(queryClient: QueryClient, id: string): SearchHit | undefined {
  return queryClient.getQueryData(customerLookupQuery([id]).queryKey)?.hits.find((hit) => hit.id === id);
}

/** One person by id (a page that names one customer: an order, a merge result). */
export function usePerson(id: string | number | null | undefined): SearchHit | undefined {
  const ids = useMemo(() => [id], [id]);
  return usePeople(ids).get(String(id ?? ""));
}

type Named = { displayName?: unknown; name?: unknown; nickName?: unknown };
const text = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v : undefined);

/** What a person is called in running text: "name (id)", else the id; from an index hit or a live record. */
export function personText(id: string, person: Named | undefined): string {
  const name = person && (text(person.displayName) ?? text(person.name) ?? text(person.nickName));
  return name ? `${name} (${id})` : id;
}

/** The id as secondary text with a button that copies it (staff paste ids into tickets and other tools). */
export function CopyId({ id }: { id: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  return (
    <span className="inline-flex items-center gap-1">
      <span className="font-mono text-xs text-slate-700">{id}</span>
      <button
        type="button"
        className={`rounded px-1 text-xs text-blue-800 underline-offset-2 hover:underline ${focusRing}`}
        aria-label={copied ? undefined : t("people.copyIdNamed", { id })}
        onClick={() => {
          void navigator.clipboard?.writeText(id).then(() => setCopied(true), () => setCopied(false));
        }}
      >
        {copied ? t("people.copied") : t("people.copyId")}
      </button>
    </span>
  );
}

/**
 * A person where one is meant: the name (linked to the customer with `href`), then mobile or email,
 * then the id, secondary and copyable. Without a name in the index, the id stands in for it.
 * `inline` keeps it on one line, for sentences and confirmations. `data-customer-id` carries the id
 * for tests and tools.
 */
export function PersonName({ id, hit, href, inline = false, copy = true }: { id: string; hit: SearchHit | undefined; href?: string; inline?: boolean; copy?: boolean }) {
  const name = hit && hitName(hit);
  const contact = hit && hitContact(hit);
  const head = name ? <span className="font-medium">{name}</span> : <span className="font-mono text-xs">{id}</span>;
  const linked = href ? (
    <AppLink href={href} className={`w-fit rounded text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>
      {head}
    </AppLink>
  ) : (
    <span className="text-slate-900">{head}</span>
  );
  return (
    <span className={inline ? "inline-flex flex-wrap items-baseline gap-x-1.5" : "flex flex-col"} data-customer-id={id} data-testid="person-name">
      {linked}
      {name && (
        <span className="inline-flex flex-wrap items-baseline gap-x-1.5 text-xs text-slate-700">
          {contact && <span>{contact}</span>}
          {copy ? <CopyId id={id} /> : <span className="font-mono">{id}</span>}
        </span>
      )}
    </span>
  );
}
