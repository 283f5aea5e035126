"use client";
import { useI18n } from "@/components/i18n/i18n-provider";
import type { ReactNode } from "react";

export type SessionSummaryProps = {
  openAppId: string;
  tenantId: string;
  tenantName?: string;
  userId: string;
  userName: string;
  status: "active" | "reauth_required" | "missing";
  /** Where "Authorize again" goes. */
  startUrl?: string;
  /** Shown at the end (e.g. the sign-out form). */
  children?: ReactNode;
};

/** The tenant and user of the console's session; offers re-authorization when the installation needs it. */
export function SessionSummary(props: SessionSummaryProps) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="session-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="session-heading" className="text-lg font-semibold">
        {t("home.signedIn")}
      </h2>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        <dt className="text-slate-600">{t("home.tenant")}</dt>
        <dd data-testid="tenant">
          {props.tenantName ?? "—"} <span className="text-slate-500">({props.tenantId})</span>
        </dd>
        <dt className="text-slate-600">{t("home.user")}</dt>
        <dd data-testid="user">
          {props.userName} {props.userId ? <span className="text-slate-500">({props.userId})</span> : null}
        </dd>
        <dt className="text-slate-600">{t("home.environment")}</dt>
        <dd data-testid="open-app-id">{props.openAppId}</dd>
      </dl>
      {props.status !== "active" ? (
        <p role="alert" className="mt-4 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          {t("home.reauthNeeded")}{" "}
          {props.startUrl ? (
            <a className="font-medium underline" href={props.startUrl}>
              {t("reauth.action")}
            </a>
          ) : null}
        </p>
      ) : null}
      {props.children}
    </section>
  );
}
