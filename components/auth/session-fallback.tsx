"use client";

import { useEffect, useState } from "react";
import { sessionHeaders, storedSession } from "@/lib/auth/client-session";
import { SessionSummary, type SessionSummaryProps } from "./session-summary";

/** A redirect to authorization less than this long ago that came back without a session is not repeated. */
const LOOP_GUARD_MS = 15_000;
const ATTEMPT_KEY = "ec.authAttempt";

type State = { kind: "checking" } | { kind: "signed-in"; summary: SessionSummaryProps } | { kind: "stuck" };

/**
 * The page had no session cookie: either the browser refused it (the fallback token in
 * sessionStorage still works) or there is no session (authorize, §5.2.9). Loops are cut after one try.
 */
export function SessionFallback({ openAppId, startUrl }: { openAppId?: string; startUrl: string }) {
  const [state, setState] = useState<State>({ kind: "checking" });

  useEffect(() => {
    let cancelled = false;
    const returnTo = window.location.pathname + window.location.search;
    const target = `${startUrl}${startUrl.includes("?") ? "&" : "?"}returnTo=${encodeURIComponent(returnTo)}`;
    function authorize() {
      const last = Number(sessionStorage.getItem(ATTEMPT_KEY) ?? "0");
      if (Date.now() - last < LOOP_GUARD_MS) {
        if (!cancelled) setState({ kind: "stuck" });
        return;
      }
      sessionStorage.setItem(ATTEMPT_KEY, String(Date.now()));
      window.location.replace(target);
    }
    const stored = storedSession(openAppId);
    if (!stored) {
      authorize();
      return;
    }
    fetch("/api/auth/session", { headers: sessionHeaders(stored.openAppId), cache: "no-store" })
      .then(async (response) => {
        if (!response.ok) return authorize();
        const body = (await response.json()) as {
          session: Omit<SessionSummaryProps, "status" | "startUrl">;
          installation: { status: SessionSummaryProps["status"] };
        };
        sessionStorage.removeItem(ATTEMPT_KEY);
        if (!cancelled) setState({ kind: "signed-in", summary: { ...body.session, status: body.installation.status, startUrl: target } });
      })
      .catch(() => authorize());
    return () => {
      cancelled = true;
    };
  }, [openAppId, startUrl]);

  if (state.kind === "signed-in") return <SessionSummary {...state.summary} />;
  if (state.kind === "stuck") {
    return (
      <p role="alert" className="rounded border border-amber-300 bg-amber-50 p-4 text-sm">
        Signing in did not complete in this browser.{" "}
        <a className="font-medium underline" href={startUrl}>
          Try again
        </a>
      </p>
    );
  }
  return (
    <p role="status" className="text-sm text-slate-600">
      Checking your sign-in…
    </p>
  );
}

/** After sign-out: forgets the fallback tokens of this tab too. */
export function ForgetStoredSessions() {
  useEffect(() => {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith("ec.session.")) sessionStorage.removeItem(key);
  }, []);
  return null;
}
