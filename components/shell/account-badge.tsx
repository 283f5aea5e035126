"use client";
import { useQuery } from "@tanstack/react-query";
import { consoleSessionQuery } from "@/lib/api/console-session";
import { useDelayedFlag } from "@/lib/hooks/use-delayed-flag";
import { useI18n } from "@/components/i18n/i18n-provider";

/** The tenant and user of the console's session (§5.2.6), from app-auth's session (no platform call). */
export function AccountBadge() {
  const { t } = useI18n();
  const query = useQuery(consoleSessionQuery());
  const showLoading = useDelayedFlag(query.isPending);
  if (query.isPending) return <p className="text-sm text-slate-700">{showLoading ? t("shell.loadingAccount") : " "}</p>;
  if (!query.data) return <p className="text-sm text-slate-700">{t("shell.accountUnavailable")}</p>;
  const { session } = query.data;
  return (
    <dl className="flex flex-wrap items-baseline gap-x-4 gap-y-0.5 text-sm">
      <div className="flex gap-1">
        <dt className="text-slate-700">{t("shell.tenant")}:</dt>
        <dd className="font-medium text-slate-900" data-testid="shell-tenant">{session.tenantName || session.tenantId}</dd>
      </div>
      <div className="flex gap-1">
        <dt className="text-slate-700">{t("shell.user")}:</dt>
        <dd className="font-medium text-slate-900" data-testid="shell-user">{session.userName || session.userId}</dd>
      </div>
    </dl>
  );
}
