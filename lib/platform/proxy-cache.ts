import type { InstallationKey, ProxyDeps } from "./proxy";

/**
 * Short-lived memory of the two lookups every proxied request makes (unsealing the session cookie,
 * reading and decrypting the installation's token), which together cost more than the rest of the
 * proxy. Both are pure for a few seconds:
 * - a session is a function of the request's credentials (cookie, bearer session token, named
 *   openAppId); sessions are stateless seals, so remembering one for seconds admits nothing a
 *   replayed cookie would not; never past the session's own expiry;
 * - an access token stays valid for hours (§8); a token the platform refuses is replaced at once
 *   (`forceRefresh` bypasses and updates the memory) and app-auth refreshes ahead of expiry.
 */

export const SESSION_TTL_MS = 10_000;
export const TOKEN_TTL_MS = 30_000;
const MAX_ENTRIES = 1_000;

type Entry<T> = { value: T; until: number };

class TtlMap<T> {
  private readonly entries = new Map<string, Entry<T>>();
  get(key: string, now: number): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }
  set(key: string, value: T, until: number): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, until });
  }
}

function credentialsOf(request: Request): string | undefined {
  const cookie = request.headers.get("cookie") ?? "";
  const authorization = request.headers.get("authorization") ?? "";
  if (!cookie && !authorization) return undefined;
  const named = request.headers.get("x-open-app-id") ?? new URL(request.url).searchParams.get("openAppId") ?? "";
  return `${named}\u0000${authorization}\u0000${cookie}`;
}

/** The deps with the session and token lookups remembered briefly (see above). */
export function withLookupCache(deps: ProxyDeps, now: () => number = Date.now): ProxyDeps {
  const sessions = new TtlMap<InstallationKey & { expiresAt?: number }>();
  const tokens = new TtlMap<{ accessToken: string; apiUrl: string }>();
  const tokenKey = (key: InstallationKey) => `${key.openAppId}\u0000${key.tenantId}`;
  return {
    ...deps,
    async requireSession(request) {
      const credentials = credentialsOf(request);
      const t = now();
      const known = credentials === undefined ? undefined : sessions.get(credentials, t);
      if (known) return { ok: true, session: known };
      const result = await deps.requireSession(request);
      if (result.ok && credentials !== undefined) {
        const expiresAt = (result.session as { expiresAt?: number }).expiresAt;
        sessions.set(credentials, result.session, Math.min(t + SESSION_TTL_MS, expiresAt ?? Number.POSITIVE_INFINITY));
      }
      return result;
    },
    async getAccessToken(key, options) {
      const id = tokenKey(key);
      const t = now();
      if (!options?.forceRefresh) {
        const known = tokens.get(id, t);
        if (known) return known;
      }
      const fresh = await deps.getAccessToken(key, options);
      tokens.set(id, fresh, t + TOKEN_TTL_MS);
      return fresh;
    },
  };
}
