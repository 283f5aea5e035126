import { vi } from "vitest";
import type { ProxyDeps } from "../proxy";

/** The error the fake deps treat as "the installation must authorize again". */
export class Reauth extends Error {}

/**
 * `ProxyDeps` for unit tests of the routes that call the platform for the browser (the proxy, the
 * CSV export, the event import): a fixed session of `alpha-app`, the access token `token` (and
 * `${token}_new` when a refresh is forced) for `apiUrl()`, `Reauth` as the reauth error, and every
 * log line kept in `lines`.
 */
export function fakeProxyDeps(o: { apiUrl: () => string; token: string; client?: ProxyDeps["client"]; overrides?: Partial<ProxyDeps> }) {
  const lines: Array<Record<string, unknown>> = [];
  const push = (obj: object, msg?: string) => void lines.push({ ...obj, msg });
  const getAccessToken = vi.fn(async (_key: { openAppId: string; tenantId: string }, options?: { forceRefresh?: boolean; rejectedAccessToken?: string }) => ({
    accessToken: options?.forceRefresh ? `${o.token}_new` : o.token,
    apiUrl: o.apiUrl(),
  }));
  const deps: ProxyDeps = {
    requireSession: async () => ({ ok: true, session: { openAppId: "alpha-app", tenantId: "1" } }),
    getAccessToken,
    isReauthRequired: (e) => e instanceof Reauth,
    log: { info: push, warn: push, error: push },
    client: o.client,
    ...o.overrides,
  };
  return { deps, lines, getAccessToken };
}
