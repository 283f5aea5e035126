"use client";
import type { ReactNode } from "react";
import { useDelayedFlag } from "@/lib/hooks/use-delayed-flag";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "./button";
import { errorMessage } from "./error-message";

/** What a list view needs of its query (a `useQuery` result). */
export type ViewQuery = { isPending: boolean; isFetching: boolean; isError: boolean; data: unknown; error: unknown; refetch: () => unknown };

/** What an empty list says: a title, a line, and the ways back. */
export type EmptyState = {
  title: string;
  body?: string;
  /** Offers "First page" (a page past the end). */
  onFirstPage?: () => void;
  /** Other ways back (Clear filters, Show all). */
  actions?: ReactNode;
};

type Props = {
  query: ViewQuery;
  /** False when the answer has no rows to show. */
  hasRows?: boolean;
  /** Prefix of the empty state's test id. */
  testId: string;
  /** Said while the first answer is slow (after a delay: no flash for fast answers). */
  loading: string;
  /** Heading of the error box, above the error itself. */
  errorTitle?: string;
  /** No rows, nothing exists yet: `<testId>-empty`. */
  empty?: EmptyState;
  /** No rows for these filters or past the last page: `<testId>-no-results` (wins over `empty`). */
  noResults?: EmptyState;
  /** Heading level of the empty state's title (3 inside a section headed by an h2). */
  level?: 2 | 3;
  children: ReactNode;
};

/**
 * The branches of every query-backed console list: an error with Retry (while nothing was loaded),
 * a delayed loading line, the empty or no-results box, or the table. A refetch keeps the previous
 * rows on screen (`keepPreviousData`), so only the first load shows the loading line.
 */
export function QueryView({ query, hasRows = true, testId, loading, errorTitle, empty, noResults, level = 2, children }: Props) {
  const { t } = useI18n();
  const slow = useDelayedFlag(query.isPending);
  if (query.isError && !query.data) {
    return (
      <div role="alert" className="rounded-lg border border-red-300 bg-white p-4">
        {errorTitle && <p className="font-medium text-slate-900">{errorTitle}</p>}
        <p className="mt-1 text-sm text-slate-800">{errorMessage(query.error, t)}</p>
        <Button className="mt-3" onClick={() => void query.refetch()}>{t("error.retry")}</Button>
      </div>
    );
  }
  if (query.isPending) return <p className="py-8 text-center text-sm text-slate-700" role="status">{slow ? loading : ""}</p>;
  const emptiness = hasRows ? undefined : (noResults ?? empty);
  if (!emptiness) return <>{children}</>;
  const Heading = level === 2 ? "h2" : "h3";
  const { title, body, onFirstPage, actions } = emptiness;
  return (
    <div className="rounded-lg border border-dashed border-slate-400 bg-white p-8 text-center" data-testid={`${testId}-${noResults ? "no-results" : "empty"}`}>
      <Heading className="text-base font-semibold text-slate-900">{title}</Heading>
      {body && <p className="mt-1 text-sm text-slate-800">{body}</p>}
      {(onFirstPage || actions) && (
        <div className="mt-3 flex justify-center gap-2">
          {onFirstPage && <Button onClick={onFirstPage}>{t("list.first")}</Button>}
          {actions}
        </div>
      )}
    </div>
  );
}

/** "Updating…" beside a list's controls while a slow refetch runs (the old rows stay on screen). */
export function UpdatingStatus({ query }: { query: ViewQuery }) {
  const { t } = useI18n();
  const slow = useDelayedFlag(query.isFetching && !query.isPending);
  return <span className="text-sm text-slate-700" role="status">{slow ? t("list.updating") : ""}</span>;
}
