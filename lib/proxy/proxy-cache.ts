import { OPEN_APP_ID_HEADER } from "@/lib/auth/client-session";
import { sharedLookups, TtlMemory } from "@/lib/ttl-memory";
import type { InstallationKey } from "@/lib/store/installations";
import type { ProxyDeps } from "./proxy";

/**
 * Short-lived memory of the two lookups every proxied request makes (unsealing the session cookie,
 * reading and decrypting the installation's token), which together cost more than the rest of the
 * proxy. Both are pure for a few seconds:
 * - a session is a function of the request's credentials (cookie, bearer session token, named
 *   openAppId) and of its sign-in being live (lib/store/sign-ins.ts): remembered for 3 s at most,
 *   so a logout or "sign out everywhere" on any instance ends proxied calls within
 *   SESSION_TTL_MS + SIGN_IN_CHECK_CACHE_MS (about 5 s); never past the session's own expiry;
 * - an access token stays valid for hours (§8); a token the platform refuses is replaced at once
 *   (`forceRefresh` bypasses and updates the memory) and app-auth refreshes ahead of expiry.
 * Requests that ask while a lookup of the same key runs share it: otherwise every request in
 * flight when a memory expires unseals (or decrypts) the same thing again, all at once.
 */

export const SESSION_TTL_MS = 3_000;
export const TOKEN_TTL_MS = 30_000;
const MAX_ENTRIES = 1_000;

function credentialsOf(request: Request): string | undefined {
  const cookie = request.headers.get("cookie") ?? "";
  const authorization = request.headers.get("authorization") ?? "";
  if (!cookie && !authorization) return undefined;
  const named = request.headers.get(OPEN_APP_ID_HEADER) ?? new URL(request.url).searchParams.get("openAppId") ?? "";
  return `${named}\u0000${authorization}\u0000${cookie}`;
}

/** The deps with the session and token lookups remembered briefly (see above). */
export function withLookupCache(deps: ProxyDeps, now: () => number = Date.now): ProxyDeps {
  type Token = { accessToken: string; apiUrl: string };
  const sessions = new TtlMemory<InstallationKey & { expiresAt?: number }>(MAX_ENTRIES);
  const tokens = new TtlMemory<Token>(MAX_ENTRIES);
  const sessionLookups = sharedLookups<Awaited<ReturnType<ProxyDeps["requireSession"]>>>();
  const tokenLookups = sharedLookups<Token>();
  const tokenKey = (key: InstallationKey) => `${key.openAppId}\u0000${key.tenantId}`;
  return {
    ...deps,
    async requireSession(request) {
      const credentials = credentialsOf(request);
      if (credentials === undefined) return deps.requireSession(request);
      const t = now();
      const known = sessions.get(credentials, t);
      if (known) return { ok: true, session: known };
      return sessionLookups(credentials, async () => {
        const result = await deps.requireSession(request);
        if (result.ok) {
          const expiresAt = (result.session as { expiresAt?: number }).expiresAt;
          sessions.set(credentials, result.session, Math.min(t + SESSION_TTL_MS, expiresAt ?? Number.POSITIVE_INFINITY));
        }
        // A refusal is an error value, not a response: every asker can share it (it is never remembered).
        return result;
      });
    },
    async getAccessToken(key, options) {
      const id = tokenKey(key);
      const t = now();
      const fetchToken = async () => {
        const fresh = await deps.getAccessToken(key, options);
        tokens.set(id, fresh, t + TOKEN_TTL_MS);
        return fresh;
      };
      if (options?.forceRefresh) return fetchToken();
      return tokens.get(id, t) ?? tokenLookups(id, fetchToken);
    },
  };
}
