/**
 * Browser side of the session fallback (ARCHITECTURE.md §4): the callback page stores a short-lived sealed
 * session token in the tab (tab-storage.ts: sessionStorage, else window.name) under
 * `ec.session.<openAppId>`; API calls send it as `Authorization: Bearer` with `X-Open-App-Id`.
 * No platform token ever reaches the browser.
 */

import { tabStorage } from "./tab-storage";

export const SESSION_KEY_PREFIX = "ec.session.";
/** Header of the API calls naming their environment (§5.4.4 leaves the name to the app); the one name, for server and browser. */
export const OPEN_APP_ID_HEADER = "X-Open-App-Id";

type Stored = { token: string; expiresAt: number };

function storage(): typeof tabStorage | undefined {
  return typeof window === "undefined" ? undefined : tabStorage;
}

/** The stored session token of `openAppId` (or of the only stored environment), if unexpired. */
export function storedSession(openAppId?: string): { openAppId: string; token: string } | undefined {
  const s = storage();
  if (!s) return undefined;
  const keys = openAppId ? [`${SESSION_KEY_PREFIX}${openAppId}`] : s.keys().filter((k) => k.startsWith(SESSION_KEY_PREFIX));
  if (keys.length !== 1) return undefined;
  try {
    const value = JSON.parse(s.get(keys[0]!) ?? "null") as Stored | null;
    if (!value || typeof value.token !== "string" || !(value.expiresAt > Date.now())) return undefined;
    return { openAppId: keys[0]!.slice(SESSION_KEY_PREFIX.length), token: value.token };
  } catch {
    return undefined;
  }
}

/** Headers of an API call of the console: the environment, and the fallback token when there is one. */
export function sessionHeaders(openAppId?: string): Record<string, string> {
  const headers: Record<string, string> = {};
  if (openAppId) headers[OPEN_APP_ID_HEADER] = openAppId;
  const stored = storedSession(openAppId);
  if (stored) headers.Authorization = `Bearer ${stored.token}`;
  return headers;
}

/** Renews the stored token when less than `marginMs` is left (POST /api/auth/session); true when a token is live afterwards. */
export async function renewStoredSession(openAppId?: string, marginMs = 5 * 60 * 1000): Promise<boolean> {
  const s = storage();
  const stored = storedSession(openAppId);
  if (!s || !stored) return false;
  const current = JSON.parse(s.get(`${SESSION_KEY_PREFIX}${stored.openAppId}`) ?? "null") as Stored | null;
  if (current && current.expiresAt - Date.now() > marginMs) return true;
  const response = await fetch("/api/auth/session", { method: "POST", headers: sessionHeaders(stored.openAppId), cache: "no-store" }).catch(() => undefined);
  if (!response?.ok) return false;
  const renewed = (await response.json()) as Stored;
  s.set(`${SESSION_KEY_PREFIX}${stored.openAppId}`, JSON.stringify(renewed));
  return true;
}
