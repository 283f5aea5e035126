import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getPageSession, type PageSearchParams } from "@/lib/auth/page-session";
import type { ConsoleSession } from "@/lib/auth/session";

function queryOf(params: PageSearchParams): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) query.append(key, v);
  }
  const text = query.toString();
  return text ? `?${text}` : "";
}

/**
 * The session of a console page (ARCHITECTURE.md §4, §5.2.9): the cookie's session for the page's
 * `openAppId`; without one, a redirect to authorization that returns to this page — except right
 * after an authorization (`authorized=1`), when the browser refused the cookie and the page runs on
 * the tab's sealed token (the browser's API calls carry it; server prefetch is skipped). Client
 * navigations inside the console (RSC fetches, `Sec-Fetch-Dest: empty`) are not redirected either:
 * a page already running on that token moves on without a round trip to the platform, and its API
 * calls still answer `reauth_required` (followed by the browser) when there is no session at all.
 *
 * The redirect is an HTTP redirect of the document request (nothing may stream before it: no
 * Suspense boundary above pages in the console layout). Inside the platform's iframe this keeps the
 * platform's own SameSite=Lax sign-in visible to its authorize page, which a navigation started by
 * the app's cross-site frame would not.
 */
export async function consolePageSession(params: PageSearchParams, path: string): Promise<ConsoleSession | undefined> {
  const { session, startUrl } = await getPageSession(params, `${path}${queryOf(params)}`);
  if (session || !startUrl || params.authorized || params.signedOut) return session;
  const dest = (await headers()).get("sec-fetch-dest");
  const clientNavigation = dest !== null && dest !== "document" && dest !== "iframe";
  if (!clientNavigation) redirect(startUrl);
  return undefined;
}
