"use client";
import { useQueryStates, type inferParserType, type ParserMap, type Values } from "nuqs";
import { useCallback, useMemo } from "react";
import type { UrlState } from "@/lib/ui/url-params";

/**
 * A page's state kept in its URL by nuqs (`NuqsAdapter` in components/providers.tsx), declared once
 * with `defineUrlState` (lib/ui/url-params.ts), which the server page parses too. Writes
 * *replace* the history entry (the console runs inside the platform admin's iframe: its history is
 * not ours to fill) and are shallow (the data comes from the query cache, not a server render; a
 * reload renders and prefetches the URL's state), unless `shallow: false` (Activity: the server
 * page reads the store). Lists use it through `useListController` (lib/ui/list-controller.ts). The state shows at once; nuqs batches the URL
 * writes of one tick. A written state reads as the URL would give it back (defaults, clamping).
 */
export function useUrlState<P extends ParserMap, S>(spec: UrlState<P, S>, { shallow = true }: { /** false: a write renders the server page again (a list the server draws). */ shallow?: boolean } = {}): [S, (next: S | ((previous: S) => S)) => void] {
  const [values, setValues] = useQueryStates(spec.parsers, { urlKeys: spec.urlKeys, history: "replace", shallow });
  const state = useMemo(() => spec.fromValues(values as inferParserType<P>), [spec, values]);
  const setState = useCallback(
    (next: S | ((previous: S) => S)) =>
      void setValues((current) => {
        const value = typeof next === "function" ? (next as (previous: S) => S)(spec.fromValues(current as inferParserType<P>)) : next;
        return spec.toValues(spec.settle(value)) as Values<P>;
      }),
    [spec, setValues],
  );
  return [state, setState];
}
