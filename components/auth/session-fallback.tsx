"use client";

import { useEffect, useState } from "react";
import { createAppCall } from "@/lib/api/browser-fetch";
import { storedSession } from "@/lib/auth/client-session";
import { useI18n } from "@/components/i18n/i18n-provider";
import { DropAuthorizedMark, KeepFallbackSessionAlive } from "./session-marks";
import { SessionSummary, type SessionSummaryProps } from "./session-summary";
import { SignOutControls } from "./sign-out";

type State = { kind: "checking" } | { kind: "signed-in"; summary: SessionSummaryProps } | { kind: "failed" };

/**
 * Right after an authorization the page found no session cookie: the browser refused it. The
 * callback left a sealed session token in this tab (client-session.ts); the console works with it
 * as `Authorization: Bearer`. If there is none, the user can start again (no automatic loop).
 */
export function SessionFallback({ openAppId, startUrl }: { openAppId?: string; startUrl: string }) {
  const { t } = useI18n();
  const [state, setState] = useState<State>({ kind: "checking" });

  useEffect(() => {
    let cancelled = false;
    const stored = storedSession(openAppId);
    if (!stored) {
      queueMicrotask(() => !cancelled && setState({ kind: "failed" }));
      return;
    }
    // A refusal offers to start again here (no automatic loop), so no reauth redirect is followed.
    createAppCall({ openAppId: () => stored.openAppId, onReauth: () => {} })("auth.session", {})
      .then((body) => {
        if (!cancelled) setState({ kind: "signed-in", summary: { ...(body.session as Omit<SessionSummaryProps, "status" | "startUrl">), status: body.installation.status, startUrl } });
      })
      .catch(() => !cancelled && setState({ kind: "failed" }));
    return () => {
      cancelled = true;
    };
  }, [openAppId, startUrl]);

  if (state.kind === "signed-in") {
    return (
      <>
        <KeepFallbackSessionAlive openAppId={state.summary.openAppId} />
        <DropAuthorizedMark />
        <SessionSummary {...state.summary}>
          <SignOutControls openAppId={state.summary.openAppId} />
        </SessionSummary>
      </>
    );
  }
  if (state.kind === "failed") {
    return (
      <p role="alert" className="rounded border border-amber-300 bg-amber-50 p-4 text-sm">
        {t("home.fallbackFailed")}{" "}
        <a className="font-medium underline" href={startUrl}>
          {t("error.retry")}
        </a>
      </p>
    );
  }
  return (
    <p role="status" className="text-sm text-slate-600">
      {t("home.checking")}
    </p>
  );
}
