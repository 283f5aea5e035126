import { SESSION_KEY_PREFIX } from "./client-session";
import { tabStorage } from "./tab-storage";

/** Where a sign-out posts: one environment's sign-in, or with `everywhere` every sign-in of its user. */
export function logoutUrl(openAppId: string, everywhere: boolean): string {
  return `/api/auth/logout?openAppId=${encodeURIComponent(openAppId)}${everywhere ? "&everywhere=1" : ""}`;
}

/** The page that says what a sign-out ended. */
export function signedOutUrl(openAppId: string | undefined, everywhere: boolean): string {
  const params = new URLSearchParams();
  if (openAppId) params.set("openAppId", openAppId);
  if (everywhere) params.set("everywhere", "1");
  const query = params.toString();
  return `/signed-out${query ? `?${query}` : ""}`;
}

/** Forgets every fallback token this tab holds (browser only). */
export function forgetStoredSessions(): void {
  if (typeof window === "undefined") return;
  for (const key of tabStorage.keys()) if (key.startsWith(SESSION_KEY_PREFIX)) tabStorage.remove(key);
}
