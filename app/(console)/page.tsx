import { redirect } from "next/navigation";
import { SessionFallback } from "@/components/auth/session-fallback";
import { DropAuthorizedMark, ForgetStoredSessions } from "@/components/auth/session-marks";
import { SessionSummary } from "@/components/auth/session-summary";
import { SignOutControls } from "@/components/auth/sign-out";
import { DashboardView } from "@/components/dashboard/dashboard-view";
import { installationStatus } from "@/lib/auth/installation-status";
import { browserSessions, getPageSession, type PageSearchParams } from "@/lib/auth/page-session";
import { safeReturnTo } from "@/lib/auth/settings";
import { storedDashboard } from "@/lib/dashboard/server-dashboard";
import { requestTranslate } from "@/lib/i18n/server";

export const dynamic = "force-dynamic";

/**
 * The console's home: the overview of the session's tenant (components/dashboard/), then the tenant
 * and user (§5.2.6). The figures stored for the tenant arrive with the HTML; a tenant without any
 * yet has the page ask `/api/dashboard`. Without a session it redirects to authorization on the server (§5.2.9),
 * except right after an authorization (`authorized=1`): then the browser refused the cookie and the
 * client fallback uses the sealed token of the tab.
 */
export default async function ConsoleHome({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  const { session, openAppId, startUrl } = await getPageSession(params);
  if (!session && startUrl && !params.authorized && !params.signedOut) redirect(startUrl);
  const t = await requestTranslate();
  if (session) {
    // The figures kept in the store (computed in the background) arrive with the HTML.
    const stored = await storedDashboard(session).catch(() => undefined);
    return (
      <div className="mx-auto max-w-6xl space-y-6">
        <DashboardView initial={stored} />
        <SessionSummary {...session} status={await installationStatus(session)} startUrl={startUrl}>
          <DropAuthorizedMark />
          <SignOutControls openAppId={session.openAppId} />
        </SessionSummary>
      </div>
    );
  }
  // A plain tab (no openAppId) with no single session to assume: choose the installation.
  const choosing = !session && !openAppId && !params.signedOut && !params.authorized;
  const returnTo = safeReturnTo(typeof params.returnTo === "string" ? params.returnTo : undefined) ?? "/";
  const choices = choosing ? await browserSessions() : [];
  const chooseHref = (id: string) => `${returnTo}${returnTo.includes("?") ? "&" : "?"}openAppId=${encodeURIComponent(id)}`;
  return (
    <div className="mx-auto max-w-2xl p-4">
      <h1 className="text-2xl font-semibold">{t("app.name")}</h1>
      <div className="mt-6">
        {choosing ? (
          <section aria-labelledby="choose-heading" className="rounded-lg border border-slate-300 bg-white p-6" data-testid="choose-environment">
            <h2 id="choose-heading" className="text-lg font-semibold">
              {t("home.choose.title")}
            </h2>
            {choices.length > 0 ? (
              <>
                <p className="mt-2 text-sm text-slate-700">{t("home.choose.body")}</p>
                <ul className="mt-3 flex flex-col gap-2">
                  {choices.map((choice) => (
                    <li key={choice.openAppId}>
                      <a className="text-sm font-medium text-blue-800 underline" href={chooseHref(choice.openAppId)}>
                        {t("home.choose.item", { tenant: choice.tenantName ?? choice.tenantId, user: choice.userName, environment: choice.openAppId })}
                      </a>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
            <p className="mt-3 text-sm text-slate-700">{t("home.choose.fromAdmin")}</p>
          </section>
        ) : startUrl && params.authorized ? (
          <SessionFallback openAppId={openAppId} startUrl={startUrl} />
        ) : (
          <p className="text-slate-700">
            {params.signedOut ? <ForgetStoredSessions /> : null}
            {params.signedOut ? `${t("home.signedOut")} ` : ""}
            {t("home.install")}
          </p>
        )}
      </div>
    </div>
  );
}
