"use client";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "./button";

/** A list paged by number: the page shown, the page count where known, and whether a next page exists. */
type Numbered = { page: number; pages: number | undefined; hasNext: boolean; onPage: (page: number) => void };
/** A keyset list (no page numbers): each step, or undefined where there is none. */
type Keyset = { onFirst?: () => void; onPrevious?: () => void; onNext?: () => void };

/**
 * The paging control of every console list: « first, previous, "Page x of y", next, last » (the
 * ends and the count when the total is known; otherwise "next" is offered while a full page came
 * back). A keyset list steps first / previous / next without page numbers.
 */
export function Pagination({ label, ...paging }: { label?: string } & (Numbered | Keyset)) {
  const { t } = useI18n();
  const numbered = "page" in paging ? paging : undefined;
  const steps: Keyset & { onLast?: () => void } = numbered
    ? {
        onFirst: numbered.page > 1 ? () => numbered.onPage(1) : undefined,
        onPrevious: numbered.page > 1 ? () => numbered.onPage(numbered.page - 1) : undefined,
        onNext: numbered.hasNext ? () => numbered.onPage(numbered.page + 1) : undefined,
        onLast: numbered.pages !== undefined && numbered.page < numbered.pages ? () => numbered.onPage(numbered.pages!) : undefined,
      }
    : (paging as Keyset);
  const ends = !numbered || numbered.pages !== undefined;
  return (
    <nav aria-label={label ?? t("list.pagination")} className="flex flex-wrap items-center gap-2">
      {ends && (
        <Button onClick={steps.onFirst} disabled={!steps.onFirst}>
          <span aria-hidden="true">«</span>
          <span className="sr-only">{t("list.first")}</span>
        </Button>
      )}
      <Button onClick={steps.onPrevious} disabled={!steps.onPrevious}>
        {t("list.previous")}
      </Button>
      {numbered && (
        <span className="text-sm text-slate-800 tabular-nums" aria-live="polite">
          {numbered.pages !== undefined ? t("list.pageOf", { page: numbered.page, pages: Math.max(numbered.pages, 1) }) : t("list.page", { page: numbered.page })}
        </span>
      )}
      <Button onClick={steps.onNext} disabled={!steps.onNext}>
        {t("list.next")}
      </Button>
      {numbered?.pages !== undefined && (
        <Button onClick={steps.onLast} disabled={!steps.onLast}>
          <span aria-hidden="true">»</span>
          <span className="sr-only">{t("list.last")}</span>
        </Button>
      )}
    </nav>
  );
}
