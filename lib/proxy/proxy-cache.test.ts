import { describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/http/api-error";
import type { ProxyDeps } from "./proxy";
import { SESSION_TTL_MS, TOKEN_TTL_MS, withLookupCache } from "./proxy-cache";
import { silentLog } from "@/lib/platform/testing/silent-log";

function setup(sessionExpiresAt = Number.POSITIVE_INFINITY) {
  let clock = 1_000_000;
  let issued = 0;
  const requireSession = vi.fn(async (request: Request) =>
    request.headers.get("cookie") && !request.headers.get("cookie")!.includes("refused")
      ? { ok: true as const, session: { openAppId: request.headers.get("x-open-app-id") ?? "a", tenantId: "1", expiresAt: sessionExpiresAt } }
      : { ok: false as const, error: new ApiError({ status: 401, code: "reauth_required", message: "sign in" }) },
  );
  const getAccessToken = vi.fn(async () => ({ accessToken: `at_${++issued}`, apiUrl: "http://platform" }));
  const base: ProxyDeps = { requireSession, getAccessToken, isReauthRequired: () => false, log: silentLog };
  const deps = withLookupCache(base, () => clock);
  return { deps, requireSession, getAccessToken, advance: (ms: number) => void (clock += ms), now: () => clock };
}

const req = (cookie?: string, openAppId?: string) =>
  new Request("http://app/api/platform/v1/customers", { headers: { ...(cookie ? { cookie } : {}), ...(openAppId ? { "x-open-app-id": openAppId } : {}) } });
const key = { openAppId: "a", tenantId: "1" };

describe("withLookupCache", () => {
  it("remembers a session per credentials for a few seconds, never past its expiry", async () => {
    const s = setup();
    await s.deps.requireSession(req("ec_session=x"));
    await s.deps.requireSession(req("ec_session=x"));
    expect(s.requireSession).toHaveBeenCalledTimes(1);
    await s.deps.requireSession(req("ec_session=y"));
    await s.deps.requireSession(req("ec_session=x", "other-env"));
    expect(s.requireSession).toHaveBeenCalledTimes(3);
    s.advance(SESSION_TTL_MS);
    await s.deps.requireSession(req("ec_session=x"));
    expect(s.requireSession).toHaveBeenCalledTimes(4);

    const short = setup(1_000_000 + 500);
    await short.deps.requireSession(req("ec_session=x"));
    short.advance(600);
    await short.deps.requireSession(req("ec_session=x"));
    expect(short.requireSession).toHaveBeenCalledTimes(2);
  });

  it("never remembers a refusal or a request without credentials", async () => {
    const s = setup();
    expect((await s.deps.requireSession(req())).ok).toBe(false);
    expect((await s.deps.requireSession(req())).ok).toBe(false);
    expect(s.requireSession).toHaveBeenCalledTimes(2);
  });

  it("shares one lookup among the requests that ask at once, a refusal included (it is not remembered)", async () => {
    const s = setup();
    const all = await Promise.all(Array.from({ length: 5 }, () => s.deps.requireSession(req("ec_session=x"))));
    expect(s.requireSession).toHaveBeenCalledTimes(1);
    expect(all.every((r) => r.ok && r.session.tenantId === "1")).toBe(true);

    const refused = await Promise.all(Array.from({ length: 3 }, () => s.deps.requireSession(req("ec_session=refused"))));
    expect(s.requireSession).toHaveBeenCalledTimes(2);
    expect(refused.map((r) => (r.ok ? undefined : r.error.status))).toEqual([401, 401, 401]);
    await s.deps.requireSession(req("ec_session=refused"));
    expect(s.requireSession).toHaveBeenCalledTimes(3);

    const tokens = await Promise.all(Array.from({ length: 4 }, () => s.deps.getAccessToken(key)));
    expect(s.getAccessToken).toHaveBeenCalledTimes(1);
    expect(tokens.map((t) => t.accessToken)).toEqual(["at_1", "at_1", "at_1", "at_1"]);
  });

  it("remembers the installation's token, and a forced refresh replaces it at once", async () => {
    const s = setup();
    expect((await s.deps.getAccessToken(key)).accessToken).toBe("at_1");
    expect((await s.deps.getAccessToken(key)).accessToken).toBe("at_1");
    expect((await s.deps.getAccessToken(key, { forceRefresh: true, rejectedAccessToken: "at_1" })).accessToken).toBe("at_2");
    expect(s.getAccessToken).toHaveBeenLastCalledWith(key, { forceRefresh: true, rejectedAccessToken: "at_1" });
    expect((await s.deps.getAccessToken(key)).accessToken).toBe("at_2");
    s.advance(TOKEN_TTL_MS);
    expect((await s.deps.getAccessToken(key)).accessToken).toBe("at_3");
    expect((await s.deps.getAccessToken({ openAppId: "b", tenantId: "1" })).accessToken).toBe("at_4");
  });
});
