"use client";

import { useState, type FormEvent } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { sessionHeaders } from "@/lib/auth/client-session";
import { forgetStoredSessions, logoutUrl, signedOutUrl } from "@/lib/auth/sign-out";

/**
 * The console's sign-out controls: "Sign out" (this sign-in) and "Sign out everywhere" (every
 * sign-in of this user at this installation). Each posts with the tab's fallback token as well as
 * the cookie, so a console without cookies ends its own sign-in too; then forgets the tab's tokens
 * and shows the signed-out page. Without JavaScript the forms still post (cookie sign-ins).
 */
export function SignOutControls({ openAppId }: { openAppId: string }) {
  const { t } = useI18n();
  const [failed, setFailed] = useState(false);

  async function signOut(event: FormEvent<HTMLFormElement>, everywhere: boolean) {
    event.preventDefault();
    setFailed(false);
    const response = await fetch(logoutUrl(openAppId, everywhere), { method: "POST", headers: sessionHeaders(openAppId), cache: "no-store" }).catch(() => undefined);
    if (!response?.ok) {
      setFailed(true);
      return;
    }
    forgetStoredSessions();
    window.location.replace(signedOutUrl(openAppId, everywhere));
  }

  const button = "rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100";
  return (
    <div className="mt-4 flex flex-wrap items-center gap-3">
      <form method="post" action={logoutUrl(openAppId, false)} onSubmit={(e) => void signOut(e, false)}>
        <button type="submit" className={button}>
          {t("home.signOut")}
        </button>
      </form>
      <form method="post" action={logoutUrl(openAppId, true)} onSubmit={(e) => void signOut(e, true)}>
        <button type="submit" className={button}>
          {t("signOut.everywhere")}
        </button>
      </form>
      {failed ? (
        <p role="alert" className="text-sm text-red-800">
          {t("signOut.failed")}
        </p>
      ) : null}
    </div>
  );
}
