"use client";
import { useQuery } from "@tanstack/react-query";
import { AppLink } from "@/components/ui/app-link";
import { appQuery } from "@/lib/api/app-queries";
import { useI18n } from "@/components/i18n/i18n-provider";
import { DetailSection } from "@/components/customers/customer-activity";
import { useConsoleHref } from "@/components/shell/console-href";
import { focusRing } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { TimeText } from "@/components/ui/time-text";
import { AuditChanges, AuditOutcome } from "./audit-entry-cells";

/** A customer's own trail: the latest audit entries that name it (an edit, a merge either way, a tag). */
export function CustomerAuditTrail({ id }: { id: string }) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const trail = useQuery(appQuery("audit.list", { query: { target: id, limit: 10 } }));
  return (
    <DetailSection id="detail-audit" title={t("audit.trail.title")}>
      <p className="mb-2 text-xs text-slate-700">{t("audit.trail.intro")}</p>
      {trail.isError ? (
        <p role="alert" className="text-sm text-red-800">{errorMessage(trail.error, t)}</p>
      ) : trail.data && trail.data.entries.length === 0 ? (
        <p className="text-sm text-slate-800">{t("audit.trail.empty")}</p>
      ) : (
        <ul className="divide-y divide-slate-200" data-testid="customer-audit-trail">
          {(trail.data?.entries ?? []).map((entry) => (
            <li key={entry.id} className="flex flex-col gap-1 py-2 text-sm">
              <div className="flex flex-wrap gap-x-3">
                <TimeText value={entry.at} />
                <span className="font-medium">{entry.actorName || entry.actorId}</span>
                <span className="font-mono text-xs">{entry.operation}</span>
                <AuditOutcome entry={entry} />
              </div>
              <AuditChanges entry={entry} />
            </li>
          ))}
        </ul>
      )}
      <AppLink href={href("/audit", { target: id })} className={`mt-2 inline-block rounded text-sm text-blue-800 underline underline-offset-2 ${focusRing}`}>
        {t("audit.trail.all")}
      </AppLink>
    </DetailSection>
  );
}
