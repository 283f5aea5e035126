"use client";

import { useEffect, useState } from "react";
import { createAppCall } from "@/lib/api/browser-fetch";
import { renewStoredSession, storedSession } from "@/lib/auth/client-session";
import { forgetStoredSessions } from "@/lib/auth/sign-out";
import { useI18n } from "@/components/i18n/i18n-provider";
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

/** Keeps the fallback token of a cookie-less console alive (renewed ahead of its 30-minute expiry). */
export function KeepFallbackSessionAlive({ openAppId }: { openAppId?: string }) {
  useEffect(() => {
    const timer = window.setInterval(() => void renewStoredSession(openAppId), 60_000);
    return () => window.clearInterval(timer);
  }, [openAppId]);
  return null;
}

/** After sign-out: forgets the fallback tokens of this tab too. */
export function ForgetStoredSessions() {
  useEffect(() => forgetStoredSessions(), []);
  return null;
}

/** Removes the `authorized` mark of the callback from the address without a history entry. */
export function DropAuthorizedMark() {
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!url.searchParams.has("authorized")) return;
    url.searchParams.delete("authorized");
    window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
  }, []);
  return null;
}
