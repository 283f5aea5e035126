import { afterAll, beforeAll, vi } from "vitest";
import type { ProxyDeps } from "../proxy";
import { signedIn } from "@/lib/platform/testing/fake-session";
import { startFakeUpstream, type FakeUpstream } from "@/lib/platform/testing/fake-upstream";

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
    requireSession: signedIn({ openAppId: "alpha-app", tenantId: "1" }),
    getAccessToken,
    isReauthRequired: (e) => e instanceof Reauth,
    log: { info: push, warn: push, error: push },
    client: o.client,
    ...o.overrides,
  };
  return { deps, lines, getAccessToken };
}

export const APP = "http://app.test";
/** The headers of the console's own mutations (CSRF: the custom header from the app's origin). */
export const SAME_ORIGIN = { "x-engage-request": "1", origin: APP, "sec-fetch-site": "same-origin", "content-type": "application/json" };

/**
 * The preamble of a test file of such a route: a fake platform for the file's tests (started before
 * them, closed after) and `makeDeps` pointing at it with `token`.
 */
export function fakePlatformForRoutes(token: string, client: ProxyDeps["client"]) {
  const fixture = {
    up: undefined as unknown as FakeUpstream,
    makeDeps: (overrides: Partial<ProxyDeps> = {}) => fakeProxyDeps({ apiUrl: () => fixture.up.url, token, client, overrides }),
  };
  beforeAll(async () => {
    fixture.up = await startFakeUpstream();
  });
  afterAll(() => fixture.up.close());
  return fixture;
}
