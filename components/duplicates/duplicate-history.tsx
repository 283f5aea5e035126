"use client";
import { useQuery } from "@tanstack/react-query";
import { appQuery } from "@/lib/api/app-queries";
import type { MessageKey } from "@/lib/i18n/messages";
import { useI18n } from "@/components/i18n/i18n-provider";
import { TimeText } from "@/components/ui/time-text";

/** What was merged into what (or refused, or skipped, with the reason), newest first: all, or one bulk run's. */
export function DuplicateHistory({ taskId, refreshing = false }: { taskId?: string; refreshing?: boolean }) {
  const { t } = useI18n();
  const history = useQuery({ ...appQuery("duplicates.history", { query: taskId ? { taskId, limit: 200 } : { limit: 50 } }), refetchInterval: refreshing ? 1000 : false });
  const merges = history.data?.merges ?? [];
  const Heading = taskId ? "h3" : "h2";
  return (
    <section className="flex flex-col gap-2" data-testid={taskId ? "duplicate-run-history" : "duplicate-history"}>
      <Heading className="text-sm font-semibold text-slate-900">{taskId ? t("duplicates.runHistory") : t("duplicates.history")}</Heading>
      {merges.length === 0 ? (
        <p className="text-sm text-slate-700">{t("duplicates.historyEmpty")}</p>
      ) : (
        <table className="w-full text-left text-xs">
          <caption className="sr-only">{t("duplicates.history")}</caption>
          <thead>
            <tr className="border-b border-slate-200">
              <th scope="col" className="py-1">{t("duplicates.col.when")}</th>
              <th scope="col" className="py-1">{t("duplicates.col.what")}</th>
              <th scope="col" className="py-1">{t("duplicates.col.outcome")}</th>
              <th scope="col" className="py-1">{t("duplicates.col.by")}</th>
            </tr>
          </thead>
          <tbody>
            {merges.map((m) => (
              <tr key={m.id} className="border-b border-slate-100" data-testid="duplicate-history-row">
                <td className="py-1 pr-2 whitespace-nowrap"><TimeText value={m.mergedAt} /></td>
                <td className="py-1 pr-2">{t("duplicates.planItem", { from: m.fromId, to: m.toId })}{m.rule ? ` (${t(`duplicates.rule.${m.rule}` as MessageKey)})` : ""}</td>
                <td className="py-1 pr-2">
                  {t(`duplicates.outcome.${m.outcome}` as MessageKey)}
                  {m.identitiesRestored > 0 ? ` · ${t("duplicates.restored", { count: m.identitiesRestored })}` : ""}
                  {m.reason ? ` — ${m.reason}` : ""}
                </td>
                <td className="py-1 pr-2">{m.mergedBy ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
