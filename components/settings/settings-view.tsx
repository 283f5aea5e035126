"use client";
import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import type { ReactNode } from "react";
import { consoleSessionQuery } from "@/lib/api/console-session";
import { useI18n } from "@/components/i18n/i18n-provider";
import { AppLink } from "@/components/ui/app-link";
import { useConsoleHref } from "@/components/shell/console-href";
import { LanguageSwitch } from "@/components/shell/language-switch";
import { errorMessage } from "@/components/ui/error-message";
import { IndexSettings } from "@/components/search/index-settings";
import { AttrLabelsSettings } from "@/components/preferences/attr-labels-settings";

/** Settings: who and where you are (tenant, user, environment), the language, the time zone. */
export function SettingsView() {
  const { t } = useI18n();
  const openAppId = useSearchParams().get("openAppId");
  // The environment from the page's URL on the server too: the default reads `window`, so the server
  // asked under another key than the one it filled and rendered "—" where the browser had the name.
  const query = useQuery(consoleSessionQuery(openAppId ?? undefined));
  const href = useConsoleHref();
  const session = query.data?.session;
  const account: [string, ReactNode][] = [
    [t("settings.tenantName"), session?.tenantName || "—"],
    [t("settings.tenantId"), session?.tenantId ?? "—"],
    [t("settings.userName"), session?.userName || "—"],
    [t("settings.userId"), session?.userId ?? "—"],
    [t("settings.environment"), session?.openAppId ?? openAppId ?? "—"],
  ];
  const sections: { id: string; title: string; body: ReactNode }[] = [
    {
      id: "settings-account",
      title: t("settings.account"),
      body: query.isError ? (
        <p className="mt-2 text-sm text-red-800">{errorMessage(query.error, t)}</p>
      ) : (
        <dl className="mt-2 divide-y divide-slate-200">
          {account.map(([label, value]) => (
            <div key={label} className="grid grid-cols-1 gap-1 py-2 sm:grid-cols-[12rem_1fr]">
              <dt className="text-sm text-slate-700">{label}</dt>
              <dd className="text-sm break-all text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
      ),
    },
    {
      id: "settings-language",
      title: t("settings.language"),
      body: (
        <>
          <p className="mt-1 mb-3 text-sm text-slate-700">{t("settings.languageHelp")}</p>
          <LanguageSwitch showLabel />
        </>
      ),
    },
    { id: "settings-time", title: t("settings.time"), body: <p className="mt-1 text-sm text-slate-800">{t("settings.timeHelp")}</p> },
    { id: "settings-attrs", title: t("prefs.attrs.title"), body: <AttrLabelsSettings /> },
    { id: "settings-search", title: t("search.settingsTitle"), body: <IndexSettings /> },
    {
      id: "settings-data",
      title: t("tenant.title"),
      body: (
        <p className="mt-1 text-sm text-slate-800">
          <AppLink href={href("/disconnect")} className="rounded text-blue-800 underline underline-offset-2 hover:text-blue-950" data-testid="settings-disconnect">
            {t("tenant.caption")}
          </AppLink>
        </p>
      ),
    },
  ];
  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <h1 className="text-xl font-semibold text-slate-900">{t("settings.title")}</h1>
      {sections.map(({ id, title, body }) => (
        <section key={id} aria-labelledby={id} className="rounded-lg border border-slate-300 bg-white p-4">
          <h2 id={id} className="text-base font-semibold text-slate-900">{title}</h2>
          {body}
        </section>
      ))}
    </div>
  );
}
