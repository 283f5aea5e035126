"use client";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import type { UrlState } from "@/lib/ui/url-params";
import type { ParserMap } from "@/lib/ui/url-parsers";

/**
 * A page's state kept in its URL, declared once with `defineUrlState` (lib/ui/url-params.ts), which
 * the server page parses too; it reads Next's `useSearchParams`, so back/forward and links bring
 * their state. Writes *replace* the history entry (the console runs inside the platform admin's
 * iframe: its history is not ours to fill) and are shallow (the data comes from the query cache, not
 * a server render; a reload renders and prefetches the URL's state), unless `shallow: false`
 * (Activity: the server page reads the store). Lists use it through `useListController`
 * (lib/ui/list-controller.ts). The state shows at once, before Next has read the new URL back; the
 * writes of one tick make one URL change. A written state reads as the URL would give it back
 * (defaults, clamping).
 */
export function useUrlState<P extends ParserMap, S>(spec: UrlState<P, S>, { shallow = true }: { /** false: a write renders the server page again (a list the server draws). */ shallow?: boolean } = {}): [S, (next: S | ((previous: S) => S)) => void] {
  const pathname = usePathname();
  const router = useRouter();
  const urlSearch = useSearchParams().toString();
  const pending = useSyncExternalStore(subscribe, readWritten, noWrite);
  const search = pending?.path === pathname ? pending.search : urlSearch;
  const state = useMemo(() => spec.parse(new URLSearchParams(search)), [spec, search]);

  // Once Next's URL has moved (our write read back, or anything after it), the URL speaks again.
  const seen = useRef(urlSearch);
  useEffect(() => {
    if (seen.current === urlSearch) return;
    seen.current = urlSearch;
    if (written && (written.flushed || written.search === urlSearch)) setWritten(undefined);
  }, [urlSearch]);

  const setState = useCallback(
    (next: S | ((previous: S) => S)) => {
      const path = window.location.pathname;
      const base = new URLSearchParams(written?.path === path ? written.search : window.location.search);
      const value = typeof next === "function" ? (next as (previous: S) => S)(spec.parse(base)) : next;
      setWritten({ path, search: spec.serialize(value, base).toString(), flushed: false });
      if (!shallow) deepWrite = router;
      if (!flushScheduled) {
        flushScheduled = true;
        queueMicrotask(flush);
      }
    },
    [spec, shallow, router],
  );
  return [state, setState];
}

type Written = { path: string; search: string; flushed: boolean };

/** The query written since Next last gave the URL back (module-wide: every hook of the page shares it). */
let written: Written | undefined;
let flushScheduled = false;
/** Set when a write of this tick needs the server page rendered again. */
let deepWrite: { replace: (href: string, options: { scroll: boolean }) => void } | undefined;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (listeners.size === 1) window.addEventListener("popstate", forget);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener("popstate", forget);
  };
}
const readWritten = () => written;
const noWrite = () => undefined;
// Back / forward: the entry's URL is the state.
const forget = () => setWritten(undefined);

function setWritten(next: Written | undefined) {
  written = next;
  for (const listener of listeners) listener();
}

function flush() {
  flushScheduled = false;
  const router = deepWrite;
  deepWrite = undefined;
  if (!written || written.path !== window.location.pathname) return;
  if (written.search === new URLSearchParams(window.location.search).toString()) {
    setWritten(undefined);
    return;
  }
  const url = `${written.path}${written.search ? `?${written.search}` : ""}${window.location.hash}`;
  // In place: the same write, only marked as handed to Next (no render needed).
  written.flushed = true;
  // Next's router patches replaceState: useSearchParams follows (shallow: no server request).
  if (router) router.replace(url, { scroll: false });
  else window.history.replaceState(null, "", url);
}
