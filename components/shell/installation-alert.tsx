"use client";
import { useQuery } from "@tanstack/react-query";
import { consoleSessionQuery } from "@/lib/api/console-session";
import { appRouteUrl } from "@/lib/http/app-routes";
import { pageOpenAppId } from "@/lib/api/browser-fetch";
import { reauthTarget } from "@/lib/api/reauth";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";

/**
 * The re-authorize prompt of an installation whose refresh token the platform refused
 * (`reauth_required`, ARCHITECTURE.md §4 "Tokens"): every platform call would fail until someone
 * authorizes again, so the shell says so above every page.
 */
export function InstallationAlert() {
  const { t } = useI18n();
  const query = useQuery(consoleSessionQuery());
  const status = query.data?.installation.status;
  if (!status || status === "active") return null;
  const authorize = () => {
    const openAppId = query.data?.session.openAppId ?? pageOpenAppId();
    const target = reauthTarget(appRouteUrl("auth.start", { query: { openAppId } }), window.location);
    if (target) window.location.assign(target);
  };
  return (
    <div role="alert" className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950">
      <p>{t("reauth.installation")}</p>
      <Button variant="primary" onClick={authorize}>{t("reauth.action")}</Button>
    </div>
  );
}
