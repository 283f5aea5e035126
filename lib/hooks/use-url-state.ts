"use client";
import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo, useState } from "react";

/**
 * List state kept in the page URL (DESIGN.md §5). Writes *replace* the current history entry, so
 * the host page's history (the platform admin around the iframe) is not polluted. It uses
 * `history.replaceState`, which Next keeps in sync with `useSearchParams`, rather than
 * `router.replace`: the same replace semantics without a server round trip per keystroke; the
 * data comes from the query cache, and a reload renders (and prefetches) the URL's state.
 *
 * Next applies the new search params in a transition; until then the written state is shown, so a
 * controlled checkbox or select never snaps back for a frame.
 */
export function useUrlState<S>(
  parse: (params: URLSearchParams) => S,
  serialize: (state: S, keep: URLSearchParams) => URLSearchParams,
): [S, (next: S | ((previous: S) => S)) => void] {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const urlQuery = searchParams.toString();
  const fromUrl = useMemo(() => parse(new URLSearchParams(urlQuery)), [parse, urlQuery]);
  const [pending, setPending] = useState<{ before: string; state: S } | null>(null);
  const state = pending && pending.before === urlQuery ? pending.state : fromUrl;

  const setState = useCallback(
    (next: S | ((previous: S) => S)) => {
      // Read the live URL: several updates may land before React re-renders.
      const current = new URLSearchParams(window.location.search);
      const value = typeof next === "function" ? (next as (previous: S) => S)(parse(current)) : next;
      const query = serialize(value, current).toString();
      if (query === current.toString()) return;
      setPending({ before: urlQuery, state: parse(new URLSearchParams(query)) });
      window.history.replaceState(null, "", query ? `${pathname}?${query}` : pathname);
    },
    [parse, serialize, pathname, urlQuery],
  );
  return [state, setState];
}
