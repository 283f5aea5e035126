"use client";

import { useEffect } from "react";
import { renewStoredSession } from "@/lib/auth/client-session";
import { forgetStoredSessions } from "@/lib/auth/sign-out";

/*
 * The session's small effects every console page runs (the shell's). Apart from the home page's
 * SessionFallback (session-fallback.tsx) so that its summary and sign-out controls are not in the
 * shell's JavaScript, which every route loads first.
 */

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
