/**
 * Browser side of the session fallback (DESIGN.md §4): the callback page stores a short-lived sealed
 * session token in sessionStorage under `ec.session.<openAppId>`; API calls send it as
 * `Authorization: Bearer` with `X-Open-App-Id`. A 401 `reauth_required` sends the browser to
 * authorization (§5.2.9). No platform token ever reaches the browser.
 */

export const SESSION_KEY_PREFIX = "ec.session.";
export const OPEN_APP_ID_HEADER = "X-Open-App-Id";

type Stored = { token: string; expiresAt: number };

function storage(): Storage | undefined {
  try {
    return typeof window === "undefined" ? undefined : window.sessionStorage;
  } catch {
    return undefined; // storage refused too
  }
}

/** The stored session token of `openAppId` (or of the only stored environment), if unexpired. */
export function storedSession(openAppId?: string): { openAppId: string; token: string } | undefined {
  const s = storage();
  if (!s) return undefined;
  const keys = openAppId
    ? [`${SESSION_KEY_PREFIX}${openAppId}`]
    : Array.from({ length: s.length }, (_, i) => s.key(i)).filter((k): k is string => Boolean(k?.startsWith(SESSION_KEY_PREFIX)));
  if (keys.length !== 1) return undefined;
  try {
    const value = JSON.parse(s.getItem(keys[0]!) ?? "null") as Stored | null;
    if (!value || typeof value.token !== "string" || !(value.expiresAt > Date.now())) return undefined;
    return { openAppId: keys[0]!.slice(SESSION_KEY_PREFIX.length), token: value.token };
  } catch {
    return undefined;
  }
}

export function forgetStoredSession(openAppId: string): void {
  storage()?.removeItem(`${SESSION_KEY_PREFIX}${openAppId}`);
}

/** Headers of an API call of the console: the environment, and the fallback token when there is one. */
export function sessionHeaders(openAppId?: string): Record<string, string> {
  const headers: Record<string, string> = {};
  if (openAppId) headers[OPEN_APP_ID_HEADER] = openAppId;
  const stored = storedSession(openAppId);
  if (stored) headers.Authorization = `Bearer ${stored.token}`;
  return headers;
}

/** If `response` is the 401 reauth_required of §5.2.9, sends the browser to authorize again and returns true. */
export async function followReauth(response: Response): Promise<boolean> {
  if (response.status !== 401) return false;
  const body = (await response.clone().json().catch(() => null)) as { error?: { code?: string; redirect?: string } } | null;
  const redirect = body?.error?.code === "reauth_required" ? body.error.redirect : undefined;
  if (!redirect || !redirect.startsWith("/")) return false;
  const target = new URL(redirect, window.location.origin);
  if (!target.searchParams.has("returnTo")) target.searchParams.set("returnTo", window.location.pathname + window.location.search);
  window.location.assign(target.pathname + target.search);
  return true;
}
