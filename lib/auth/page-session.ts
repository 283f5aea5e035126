import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { readCookieSessions, selectSession, startUrl, type ConsoleSession } from "./session";
import { isOpenAppId, isPrivateDeployment, PRIVATE_OPEN_APP_ID, safeReturnTo } from "./settings";

/** What a page's `searchParams` resolve to (Next 16 passes them as a promise; await it first). */
export type PageSearchParams = Record<string, string | string[] | undefined>;

export type PageSessionResult = {
  session?: ConsoleSession;
  /** The environment the page is for, when known (query `openAppId`, the only session, or private). */
  openAppId?: string;
  /** Where to authorize (again) for that environment; undefined when no environment is known. */
  startUrl?: string;
};

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The session of a server component's request, by the page's `openAppId` (§5.4.4), from the cookie. */
export async function getPageSession(searchParams: PageSearchParams, returnTo?: string): Promise<PageSessionResult> {
  const given = first(searchParams.openAppId);
  const named = isPrivateDeployment() ? PRIVATE_OPEN_APP_ID : given && isOpenAppId(given) ? given : undefined;
  const sessions = await readCookieSessions(await cookies());
  const { session, openAppId } = await selectSession(sessions, named);
  const back = safeReturnTo(returnTo);
  return { session, openAppId, startUrl: openAppId || isPrivateDeployment() ? startUrl(openAppId, back) : undefined };
}

/**
 * For pages that need a session: the session, or a redirect to authorization (§5.2.9). Pages that
 * must also work where the browser refuses cookies use `getPageSession` and the client fallback
 * (components/auth/session-fallback.tsx) instead, since only the browser holds the fallback token.
 */
export async function requirePageSession(searchParams: PageSearchParams, returnTo?: string): Promise<ConsoleSession> {
  const result = await getPageSession(searchParams, returnTo);
  if (result.session) return result.session;
  redirect(result.startUrl ?? "/");
}

/** The installations this browser is signed in to (its session cookie), for a tab that names none. */
export async function browserSessions(): Promise<ConsoleSession[]> {
  const sessions = await readCookieSessions(await cookies());
  return Object.values(sessions).sort((a, b) => (a.tenantName ?? a.openAppId).localeCompare(b.tenantName ?? b.openAppId));
}
