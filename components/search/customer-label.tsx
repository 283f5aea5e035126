"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { customerLookupQuery, hitContact, hitName, hitsById } from "@/lib/search/search-queries";
import type { SearchHit } from "@/lib/search/types";
import { focusRing } from "@/components/ui/button";

/**
 * The customer index's names and contacts of a page's customer ids, in one batched `ids=` lookup
 * (not one per row). Ids the index does not hold are absent: their rows show the id alone.
 */
export function useCustomerNames(ids: readonly string[]): ReadonlyMap<string, SearchHit> {
  const lookup = useQuery({ ...customerLookupQuery(ids), enabled: ids.length > 0 });
  return hitsById(lookup.data?.hits);
}

/**
 * A customer id with its name and contact beside it when the index knows them; linked to the
 * customer when `href` is given. `data-customer-id` carries the id for tests and tools.
 */
export function CustomerLabel({ id, hit, href }: { id: string; hit: SearchHit | undefined; href?: string }) {
  const name = hit && hitName(hit);
  const contact = hit && hitContact(hit);
  const head = name ? <span className="font-sans text-sm font-medium">{name}</span> : id;
  return (
    <span className="flex flex-col" data-customer-id={id}>
      {href ? (
        <Link href={href} className={`w-fit rounded text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>
          {head}
        </Link>
      ) : (
        <span className="text-slate-900">{head}</span>
      )}
      {name && <span className="text-slate-700">{[contact, id].filter(Boolean).join(" · ")}</span>}
    </span>
  );
}
