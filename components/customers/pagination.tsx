"use client";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";

/**
 * Previous / next paging; first and last when the total is known (§4.1 count), otherwise "next"
 * is offered while a full page came back.
 */
export function Pagination({ page, pages, hasNext, onPage }: { page: number; pages: number | undefined; hasNext: boolean; onPage: (page: number) => void }) {
  const { t } = useI18n();
  return (
    <nav aria-label={t("list.pagination")} className="flex flex-wrap items-center gap-2">
      {pages !== undefined && (
        <Button onClick={() => onPage(1)} disabled={page <= 1}>
          <span aria-hidden="true">«</span>
          <span className="sr-only">{t("list.first")}</span>
        </Button>
      )}
      <Button onClick={() => onPage(page - 1)} disabled={page <= 1}>
        {t("list.previous")}
      </Button>
      <span className="text-sm text-slate-800 tabular-nums" aria-live="polite">
        {pages !== undefined ? t("list.pageOf", { page, pages: Math.max(pages, 1) }) : t("list.page", { page })}
      </span>
      <Button onClick={() => onPage(page + 1)} disabled={!hasNext}>
        {t("list.next")}
      </Button>
      {pages !== undefined && (
        <Button onClick={() => onPage(pages)} disabled={page >= pages}>
          <span aria-hidden="true">»</span>
          <span className="sr-only">{t("list.last")}</span>
        </Button>
      )}
    </nav>
  );
}
