"use client";
import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import type { ReactNode } from "react";
import { consoleSessionQuery } from "@/lib/api/console-session";
import { useI18n } from "@/components/i18n/i18n-provider";
import { LanguageSwitch } from "@/components/shell/language-switch";
import { errorMessage } from "@/components/ui/error-message";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-1 gap-1 py-2 sm:grid-cols-[12rem_1fr]">
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="text-sm break-all text-slate-900">{children}</dd>
    </div>
  );
}

/** Settings: who and where you are (tenant, user, environment), the language, the time zone. */
export function SettingsView() {
  const { t } = useI18n();
  const openAppId = useSearchParams().get("openAppId");
  const query = useQuery(consoleSessionQuery());
  const session = query.data?.session;
  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <h1 className="text-xl font-semibold text-slate-900">{t("settings.title")}</h1>
      <section aria-labelledby="settings-account" className="rounded-lg border border-slate-300 bg-white p-4">
        <h2 id="settings-account" className="text-base font-semibold text-slate-900">
          {t("settings.account")}
        </h2>
        {query.isError ? (
          <p className="mt-2 text-sm text-red-800">{errorMessage(query.error, t)}</p>
        ) : (
          <dl className="mt-2 divide-y divide-slate-200">
            <Row label={t("settings.tenantName")}>{session?.tenantName || "—"}</Row>
            <Row label={t("settings.tenantId")}>{session?.tenantId ?? "—"}</Row>
            <Row label={t("settings.userName")}>{session?.userName || "—"}</Row>
            <Row label={t("settings.userId")}>{session?.userId ?? "—"}</Row>
            <Row label={t("settings.environment")}>{session?.openAppId ?? openAppId ?? "—"}</Row>
          </dl>
        )}
      </section>
      <section aria-labelledby="settings-language" className="rounded-lg border border-slate-300 bg-white p-4">
        <h2 id="settings-language" className="text-base font-semibold text-slate-900">
          {t("settings.language")}
        </h2>
        <p className="mt-1 mb-3 text-sm text-slate-700">{t("settings.languageHelp")}</p>
        <LanguageSwitch showLabel />
      </section>
      <section aria-labelledby="settings-time" className="rounded-lg border border-slate-300 bg-white p-4">
        <h2 id="settings-time" className="text-base font-semibold text-slate-900">
          {t("settings.time")}
        </h2>
        <p className="mt-1 text-sm text-slate-800">{t("settings.timeHelp")}</p>
      </section>
    </div>
  );
}
