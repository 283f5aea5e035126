"use client";
import { useQuery } from "@tanstack/react-query";
import { platformQuery } from "@/lib/api/platform-queries";
import { useDelayedFlag } from "@/lib/hooks/use-delayed-flag";
import { useI18n } from "@/components/i18n/i18n-provider";

/** §4.7 users/current: the spec shows only `tenantId`; names are read where the platform gives them. */
export type CurrentUserView = { tenantId: string; tenantName?: string; userName?: string; email?: string };

export function currentUserView(raw: unknown): CurrentUserView | undefined {
  if (!raw || typeof raw !== "object") return undefined;
  const o = raw as Record<string, unknown>;
  const text = (...keys: string[]) => keys.map((k) => o[k]).find((v): v is string => typeof v === "string" && v.trim() !== "");
  const tenantId = o.tenantId === undefined || o.tenantId === null ? undefined : String(o.tenantId);
  if (!tenantId) return undefined;
  return { tenantId, tenantName: text("tenantName"), userName: text("name", "userName", "username"), email: text("email") };
}

export const currentUserQuery = () => platformQuery("users.current", {});

export function AccountBadge() {
  const { t } = useI18n();
  const query = useQuery({ ...currentUserQuery(), staleTime: 10 * 60_000 });
  const showLoading = useDelayedFlag(query.isPending);
  const user = currentUserView(query.data);
  if (query.isPending) return <p className="text-sm text-slate-700">{showLoading ? t("shell.loadingAccount") : " "}</p>;
  if (!user) return <p className="text-sm text-slate-700">{t("shell.accountUnavailable")}</p>;
  return (
    <dl className="flex flex-wrap items-baseline gap-x-4 gap-y-0.5 text-sm">
      <div className="flex gap-1">
        <dt className="text-slate-700">{t("shell.tenant")}:</dt>
        <dd className="font-medium text-slate-900">{user.tenantName ?? user.tenantId}</dd>
      </div>
      <div className="flex gap-1">
        <dt className="text-slate-700">{t("shell.user")}:</dt>
        <dd className="font-medium text-slate-900">{user.userName ?? user.email ?? "—"}</dd>
      </div>
    </dl>
  );
}
