"use client";
import { AppLink } from "@/components/ui/app-link";
import { usePathname, useSearchParams } from "next/navigation";
import type { ReactNode } from "react";
import type { MessageKey } from "@/lib/i18n/messages";
import { useI18n } from "@/components/i18n/i18n-provider";
import { focusRing } from "@/components/ui/button";
import { clientOnly } from "@/components/ui/client-only";
import { AccountBadge } from "./account-badge";
import { useConsoleHref } from "./console-href";
import { LanguageSwitch } from "./language-switch";
import { ReauthPrompt } from "./reauth-prompt";

// Every console route loads the shell first: what it shows only after a query answers (the
// duplicates count, an installation's alert) or never draws (ShellServices) loads after the page.
const DuplicateNavBadge = clientOnly(() => import("@/components/duplicates/duplicate-count").then((m) => m.DuplicateNavBadge));
const InstallationAlert = clientOnly(() => import("./installation-alert").then((m) => m.InstallationAlert));
const ShellServices = clientOnly(() => import("./shell-services").then((m) => m.default));

export const NAV_ITEMS: readonly { path: string; label: MessageKey }[] = [
  { path: "/", label: "nav.overview" },
  { path: "/customers", label: "nav.customers" },
  { path: "/duplicates", label: "duplicates.nav" },
  { path: "/lists", label: "nav.lists" },
  { path: "/segments", label: "nav.segments" },
  { path: "/tags", label: "nav.tags" },
  { path: "/orders", label: "nav.orders" },
  { path: "/events", label: "nav.events" },
  { path: "/shops", label: "nav.shops" },
  { path: "/media", label: "nav.media" },
  { path: "/activity", label: "nav.activity" },
  { path: "/audit", label: "nav.audit" },
  { path: "/settings", label: "nav.settings" },
];

/**
 * The console's frame: skip link, header (app, tenant and user, language), navigation, the page,
 * the re-authorize prompt and the toasts. Works from 1024 px iframes down to narrow windows
 * (the navigation moves above the page below the `md` breakpoint).
 */
export function ConsoleShell({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  const pathname = usePathname();
  const href = useConsoleHref();
  const openAppId = useSearchParams().get("openAppId") ?? undefined;
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className={`sr-only rounded bg-white px-3 py-2 text-blue-800 focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 ${focusRing}`}>
        {t("shell.skipToContent")}
      </a>
      <header className="flex flex-wrap items-center justify-between gap-x-6 gap-y-2 border-b border-slate-300 bg-white px-4 py-2">
        <p className="text-base font-semibold text-slate-900">{t("app.name")}</p>
        <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
          <AccountBadge />
          <LanguageSwitch />
        </div>
      </header>
      <div className="flex flex-1 flex-col md:flex-row">
        <nav aria-label={t("shell.mainNav")} className="border-b border-slate-300 bg-white md:w-44 md:shrink-0 md:border-r md:border-b-0">
          <ul className="flex gap-1 overflow-x-auto p-2 md:flex-col">
            {NAV_ITEMS.map((item) => {
              const current = pathname === item.path || (item.path !== "/" && pathname.startsWith(`${item.path}/`));
              return (
                <li key={item.path}>
                  <AppLink
                    href={href(item.path)}
                    aria-current={current ? "page" : undefined}
                    className={`block rounded-md px-3 py-2 text-sm whitespace-nowrap ${focusRing} ${current ? "bg-blue-50 font-semibold text-blue-900" : "text-slate-800 hover:bg-slate-100"}`}
                  >
                    {t(item.label)}
                    {item.path === "/duplicates" && <DuplicateNavBadge openAppId={openAppId} />}
                  </AppLink>
                </li>
              );
            })}
          </ul>
        </nav>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 p-4 focus:outline-none">
          <InstallationAlert />
          {children}
        </main>
      </div>
      <ReauthPrompt />
      <ShellServices openAppId={openAppId} />
    </div>
  );
}
