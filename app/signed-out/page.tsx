import { ForgetStoredSessions } from "@/components/auth/session-marks";
import { startUrl } from "@/lib/auth/session";
import { isOpenAppId } from "@/lib/auth/settings";
import type { PageSearchParams } from "@/lib/auth/page-session";
import { requestTranslate } from "@/lib/i18n/server";

export const dynamic = "force-dynamic";

/**
 * After a sign-out: what was ended (this sign-in, or all of the user's), and the way back in. Outside
 * the console's shell on purpose: the shell asks for the session, and its 401 would send the browser
 * straight back to authorization, signing the user in again.
 */
export default async function SignedOut({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  const t = await requestTranslate();
  const openAppId = typeof params.openAppId === "string" && isOpenAppId(params.openAppId) ? params.openAppId : undefined;
  const everywhere = params.everywhere === "1";
  return (
    <main className="mx-auto max-w-2xl p-4">
      <ForgetStoredSessions />
      <section aria-labelledby="signed-out-heading" className="rounded-lg border border-slate-300 bg-white p-6" data-testid="signed-out">
        <h1 id="signed-out-heading" className="text-2xl font-semibold">
          {t("signedOut.title")}
        </h1>
        <p className="mt-3 text-slate-700">{everywhere ? t("signedOut.everywhere") : t("signedOut.here")}</p>
        {openAppId ? (
          <p className="mt-4">
            <a className="font-medium text-blue-800 underline" href={startUrl(openAppId)}>
              {t("signedOut.again")}
            </a>
          </p>
        ) : (
          <p className="mt-4 text-sm text-slate-700">{t("home.install")}</p>
        )}
      </section>
    </main>
  );
}
