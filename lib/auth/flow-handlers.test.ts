import fc from "fast-check";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { captureLogsForTests } from "@/lib/log";
import { findEnvironment, findInstallation } from "@/lib/store/installations";
import { openSqliteTestStore, type TestStore } from "@/lib/store/testing";
import { computeHmac } from "./hmac";
import { requireApiSession } from "./session";
import { startFakePlatform, type FakePlatform } from "./testing/fake-platform";
import { APP_URL, CLIENT, configureApp, pageData, TestBrowser } from "./testing/harness";

let alpha: FakePlatform;
let beta: FakePlatform;
let t: TestStore;

beforeAll(async () => {
  alpha = await startFakePlatform({ ...CLIENT, openAppId: "oa-alpha-test", tenantId: 9007199254740993123n });
  beta = await startFakePlatform({ ...CLIENT, openAppId: "oa-beta-test", tenantId: 80000000002n });
  alpha.cloudPeers = [beta];
});
afterAll(async () => {
  await alpha.close();
  await beta.close();
});
beforeEach(async () => {
  t = await openSqliteTestStore();
  configureApp([alpha, beta], t.store);
  alpha.cloudDomains = undefined;
  alpha.grants = {};
  beta.grants = {};
});
afterEach(() => t.cleanup());

const ALPHA_KEY = { openAppId: "oa-alpha-test", tenantId: "9007199254740993123" };

async function installationCount(): Promise<number> {
  const rows = await t.store.db.selectFrom("installations").select("tenant_id").execute();
  return rows.length;
}

function apiRequest(browser: TestBrowser, init: { openAppId?: string; bearer?: string } = {}): Request {
  const headers = new Headers();
  if (browser.cookies.size) headers.set("cookie", browser.cookieHeader());
  if (init.openAppId) headers.set("X-Open-App-Id", init.openAppId);
  if (init.bearer) headers.set("authorization", `Bearer ${init.bearer}`);
  return new Request(`${APP_URL}/api/platform/v1/customers`, { headers });
}

/** A signed authorization return for an existing flow state, with chosen parameters. */
function signedReturn(params: Record<string, string>, secret = CLIENT.clientSecret): string {
  const { state, ...signed } = params;
  const hmac = computeHmac(secret, Object.entries(signed));
  const q = new URLSearchParams({ ...signed, hmac, ...(state ? { state } : {}) });
  return `/api/auth/callback?${q.toString()}`;
}

describe("install (§5.2, §5.4)", () => {
  it("installs: cloudinfo, authorize, HMAC, code exchange, users/current, store, session, marketplace redirect", async () => {
    const browser = new TestBrowser();
    const { entry, response } = await browser.install(alpha);
    expect(entry.status).toBe(200);
    const flowCookie = entry.headers.getSetCookie().find((c) => c.startsWith("ec_flow_"));
    expect(flowCookie).toMatch(/; Path=\/api\/auth; HttpOnly; Secure; SameSite=None; Partitioned; Max-Age=600$/);

    expect(response.status).toBe(200);
    const html = await response.text();
    const data = pageData<{ target: string; token: string; openAppId: string }>(html)!;
    expect(data.target).toBe(`${alpha.origin}/application/mktapp/index.html?install=engage-console#/market`);
    expect(data.openAppId).toBe("oa-alpha-test");

    const session = response.headers.getSetCookie().find((c) => c.startsWith("ec_session="))!;
    const attrs = session.split(";").slice(1).map((a) => a.trim().toLowerCase());
    expect(attrs).toEqual(expect.arrayContaining(["httponly", "secure", "samesite=none", "partitioned", "path=/"]));
    // the flow cookie is spent
    expect(response.headers.getSetCookie().some((c) => /^ec_flow_[\w-]+=;.*Max-Age=0/.test(c))).toBe(true);

    expect(await findEnvironment(t.store, "oa-alpha-test")).toMatchObject({ authDomain: alpha.origin, apiDomain: alpha.origin, productVersion: "5.12.0" });
    const inst = await findInstallation(t.store, ALPHA_KEY);
    expect(inst).toMatchObject({ status: "active", tenantName: "Alpha Retail 阿尔法零售", installedBy: "9007199254740995001" });
    expect(alpha.grants).toMatchObject({ authorization_code: 1 });

    const fromCookie = await requireApiSession(apiRequest(browser));
    expect(fromCookie.ok && fromCookie.session).toMatchObject({ ...ALPHA_KEY, userId: "9007199254740995001", userName: "Alice Admin 王丽" });
    const fromToken = await requireApiSession(apiRequest(new TestBrowser(), { bearer: data.token }));
    expect(fromToken.ok && fromToken.session.tenantId).toBe(ALPHA_KEY.tenantId);
  });

  it("refuses an install whose cloudinfo domain is outside the allowlist, and never calls it", async () => {
    alpha.cloudDomains = { authDomain: "http://127.0.0.1:9", apiDomain: "http://127.0.0.1:9" };
    const browser = new TestBrowser();
    const entry = await browser.request(`/api/auth/callback?redirectUrl=x&getOpenAppIdToken=${alpha.installToken()}`);
    expect(entry.status).toBe(403);
    const html = await entry.text();
    expect(html).toContain("not in this app");
    expect(pageData(html)).toBeUndefined();
    expect(await findEnvironment(t.store, "oa-alpha-test")).toBeUndefined();
  });

  it("refuses an install whose Referer is not the environment's authDomain", async () => {
    const entry = await new TestBrowser().request(`/api/auth/callback?redirectUrl=x&getOpenAppIdToken=${alpha.installToken()}`, {
      headers: { referer: "https://evil.example/page" },
    });
    expect(entry.status).toBe(403);
    expect(await findEnvironment(t.store, "oa-alpha-test")).toBeUndefined();
  });

  it("refuses a replayed or missing getOpenAppIdToken with a 4xx page", async () => {
    const token = alpha.installToken();
    const browser = new TestBrowser();
    expect((await browser.request(`/api/auth/callback?redirectUrl=x&getOpenAppIdToken=${token}`)).status).toBe(200);
    const replay = await browser.request(`/api/auth/callback?redirectUrl=x&getOpenAppIdToken=${token}`);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toMatch(/expired or was already used/);
    expect((await browser.request(`/api/auth/callback?redirectUrl=x`)).status).toBe(400);
  });
});

describe("authorization return checks (§5.3): 4xx page, nothing stored", () => {
  async function startedFlow() {
    const browser = new TestBrowser();
    const entry = await browser.request(`/api/auth/callback?redirectUrl=x&getOpenAppIdToken=${alpha.installToken()}`);
    const { authorizeUrl } = pageData<{ authorizeUrl: string }>(await entry.text())!;
    const location = (await browser.request(authorizeUrl)).headers.get("location")!;
    return { browser, returnUrl: new URL(location) };
  }

  it("a tampered parameter fails the signature", async () => {
    const { browser, returnUrl } = await startedFlow();
    returnUrl.searchParams.set("code", `${returnUrl.searchParams.get("code")}x`);
    const res = await browser.request(returnUrl.pathname + returnUrl.search);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("signature");
    expect(await installationCount()).toBe(0);
    expect(alpha.grants.authorization_code ?? 0).toBe(0);
  });

  it("an added parameter fails the signature", async () => {
    const { browser, returnUrl } = await startedFlow();
    returnUrl.searchParams.set("tenantId", "1");
    expect((await browser.request(returnUrl.pathname + returnUrl.search)).status).toBe(400);
    expect(await installationCount()).toBe(0);
  });

  it("a stale timestamp is refused even with a valid signature", async () => {
    const { browser, returnUrl } = await startedFlow();
    const stale = String(Math.floor(Date.now() / 1000) - 301);
    const res = await browser.request(signedReturn({ code: returnUrl.searchParams.get("code")!, timestamp: stale, state: returnUrl.searchParams.get("state")! }));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("expired");
    expect(await installationCount()).toBe(0);
  });

  it("a state of another flow (or another browser) is refused", async () => {
    const first = await startedFlow();
    const second = await startedFlow();
    // second's return, presented by the first browser
    const res = await first.browser.request(second.returnUrl.pathname + second.returnUrl.search);
    expect(res.status).toBe(200); // no cookie for that state here: the tab's storage is consulted
    const data = pageData<{ nonce: string; params: [string, string][] }>(await res.text())!;
    // …and a forged flow posted back does not match
    const form = new URLSearchParams([...data.params, ["flow", "Fe26.2**forged"]]);
    const posted = await first.browser.request("/api/auth/callback", { method: "POST", headers: { origin: APP_URL, "content-type": "application/x-www-form-urlencoded" }, body: form.toString() });
    expect(posted.status).toBe(400);
    expect(await posted.text()).toContain("does not match this browser");
    // a state whose nonce is unknown in format
    const bad = signedReturn({ code: "c", timestamp: String(Math.floor(Date.now() / 1000)), state: "install.short" });
    expect((await first.browser.request(bad)).status).toBe(400);
    // a swapped purpose with the right nonce
    const nonce = second.returnUrl.searchParams.get("state")!.split(".")[1]!;
    const swapped = signedReturn({ code: second.returnUrl.searchParams.get("code")!, timestamp: second.returnUrl.searchParams.get("timestamp")!, state: `auth.${nonce}` });
    expect((await second.browser.request(swapped)).status).toBe(400);
    expect(await installationCount()).toBe(0);
  });

  it("missing parameters are named", async () => {
    const res = await new TestBrowser().request("/api/auth/callback?code=abc&state=install.x");
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Missing: timestamp, hmac");
    expect((await new TestBrowser().request("/api/auth/callback")).status).toBe(400);
    expect((await new TestBrowser().request("/api/auth/callback?code=1&code=2")).status).toBe(400);
  });

  it("never answers 5xx to arbitrary query strings, and stores nothing (property)", async () => {
    const key = fc.oneof(fc.constantFrom("code", "timestamp", "hmac", "state", "redirectUrl", "getOpenAppIdToken", "openAppId"), fc.string({ maxLength: 12 }));
    const value = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom("install.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "0", "1700000000", "%", "&=", "\u0000"));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(key, value), { maxLength: 8 }), fc.string({ maxLength: 30 }), async (pairs, raw) => {
        const query = Math.random() < 0.5 ? new URLSearchParams(pairs).toString() : raw.replace(/#/g, "");
        const res = await new TestBrowser().request(`/api/auth/callback?${query}`);
        expect(res.status).toBeGreaterThanOrEqual(200);
        expect(res.status).toBeLessThan(500);
        expect(res.headers.get("content-type")).toContain("text/html");
      }),
      { numRuns: 150 },
    );
    expect(await installationCount()).toBe(0);
  });
});

describe("cookies refused (the fallback of DESIGN.md §4)", () => {
  it("completes through the tab's sessionStorage and works with the sealed session token", async () => {
    const browser = new TestBrowser();
    browser.refuseCookies = true;
    const entry = await browser.request(`/api/auth/callback?redirectUrl=x&getOpenAppIdToken=${alpha.installToken()}`);
    const start = pageData<{ nonce: string; sealed: string; authorizeUrl: string }>(await entry.text())!;
    const sessionStorage = new Map([[`ec.flow.${start.nonce}`, start.sealed]]);
    const location = (await browser.request(start.authorizeUrl)).headers.get("location")!;
    const resume = await browser.request(location);
    expect(resume.status).toBe(200);
    const data = pageData<{ nonce: string; params: [string, string][] }>(await resume.text())!;
    expect(data.nonce).toBe(start.nonce);
    // what the resume page's script does: POST the return with the stored flow
    const form = new URLSearchParams([...data.params, ["flow", sessionStorage.get(`ec.flow.${data.nonce}`)!]]);
    const crossSite = await browser.request("/api/auth/callback", { method: "POST", headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" }, body: form.toString() });
    expect(crossSite.status).toBe(403);
    const done = await browser.request("/api/auth/callback", { method: "POST", headers: { origin: APP_URL, "content-type": "application/x-www-form-urlencoded" }, body: form.toString() });
    expect(done.status).toBe(200);
    const complete = pageData<{ token: string; expiresAt: number }>(await done.text())!;
    expect(complete.expiresAt - Date.now()).toBeLessThanOrEqual(30 * 60 * 1000);
    const api = await requireApiSession(apiRequest(browser, { bearer: complete.token, openAppId: "oa-alpha-test" }));
    expect(api.ok && api.session.tenantId).toBe(ALPHA_KEY.tenantId);
    // bound to its openAppId
    const other = await requireApiSession(apiRequest(browser, { bearer: complete.token, openAppId: "oa-beta-test" }));
    expect(other.ok).toBe(false);
  });
});

describe("sessions per openAppId, start, logout (§5.2.9)", () => {
  it("keeps two environments apart in one browser", async () => {
    const browser = new TestBrowser();
    await browser.install(alpha);
    await browser.install(beta);
    const a = await requireApiSession(apiRequest(browser, { openAppId: "oa-alpha-test" }));
    const b = await requireApiSession(apiRequest(browser, { openAppId: "oa-beta-test" }));
    expect(a.ok && a.session.tenantId).toBe("9007199254740993123");
    expect(b.ok && b.session.tenantId).toBe("80000000002");
    // naming none with two sessions is ambiguous: 401 reauth_required
    const none = await requireApiSession(apiRequest(browser));
    expect(none.ok).toBe(false);
    if (!none.ok) {
      expect(none.response.status).toBe(401);
      expect((await none.response.json()).error.code).toBe("reauth_required");
    }
  });

  it("answers an API request without a session with 401 reauth_required and a redirect", async () => {
    const result = await requireApiSession(apiRequest(new TestBrowser(), { openAppId: "oa-alpha-test" }));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.response.status).toBe(401);
      expect(await result.response.json()).toEqual({
        error: { code: "reauth_required", message: expect.any(String), redirect: "/api/auth/start?openAppId=oa-alpha-test" },
      });
    }
  });

  it("starts authorization again for a known environment and returns to a safe returnTo only", async () => {
    const browser = new TestBrowser();
    await browser.install(alpha);
    const start = await browser.request("/api/auth/start?openAppId=oa-alpha-test&returnTo=%2Fcustomers%3Fpage%3D2");
    expect(start.status).toBe(200);
    const { response } = await browser.authorizeFrom(start);
    expect(pageData<{ target: string }>(await response.text())!.target).toBe("/customers?page=2");
    const evil = await browser.request("/api/auth/start?openAppId=oa-alpha-test&returnTo=%2F%2Fevil.example%2F");
    const back = await browser.authorizeFrom(evil);
    expect(pageData<{ target: string }>(await back.response.text())!.target).toBe("/?openAppId=oa-alpha-test");
    expect((await browser.request("/api/auth/start?openAppId=oa-unknown")).status).toBe(404);
    expect((await browser.request("/api/auth/start")).status).toBe(400);
  });

  it("logs out one environment", async () => {
    const browser = new TestBrowser();
    await browser.install(alpha);
    await browser.install(beta);
    const refused = await browser.request("/api/auth/logout?openAppId=oa-alpha-test", { method: "POST", headers: { origin: "https://evil.example" } });
    expect(refused.status).toBe(403);
    const out = await browser.request("/api/auth/logout?openAppId=oa-alpha-test", { method: "POST", headers: { origin: APP_URL } });
    expect(out.status).toBe(200);
    expect((await requireApiSession(apiRequest(browser, { openAppId: "oa-alpha-test" }))).ok).toBe(false);
    expect((await requireApiSession(apiRequest(browser, { openAppId: "oa-beta-test" }))).ok).toBe(true);
  });
});

describe("logs", () => {
  it("contain no token, code, secret, hmac or session value during a whole install", async () => {
    const capture = captureLogsForTests();
    let secrets: string[] = [];
    try {
      const browser = new TestBrowser();
      const { entry, callbackUrl, response } = await browser.install(alpha);
      const returned = new URL(callbackUrl);
      const inst = (await findInstallation(t.store, ALPHA_KEY))!;
      const start = pageData<{ sealed: string }>(await entry.clone().text())!;
      const done = pageData<{ token: string }>(await response.text())!;
      secrets = [
        returned.searchParams.get("code")!,
        returned.searchParams.get("hmac")!,
        inst.tokens.accessToken,
        inst.tokens.refreshToken,
        CLIENT.clientSecret,
        process.env.SESSION_PASSWORD!,
        start.sealed,
        done.token,
        ...response.headers.getSetCookie().map((c) => c.split(";")[0]!.split("=").slice(1).join("=")).filter((v) => v.length > 8),
      ];
    } finally {
      capture.restore();
    }
    const text = capture.lines.join("\n");
    expect(capture.lines.length).toBeGreaterThan(3);
    expect(text).toContain("authorization completed");
    for (const secret of secrets) expect(text).not.toContain(secret);
  });
});

describe("DEPLOYMENT_MODE=private (§5.2.9)", () => {
  beforeEach(() => configureApp([alpha], t.store, { DEPLOYMENT_MODE: "private" }));
  afterEach(() => configureApp([alpha, beta], t.store, { DEPLOYMENT_MODE: "public" }));

  it("installs from configuration without cloudinfo and authorizes only at installation", async () => {
    alpha.calls.length = 0;
    const browser = new TestBrowser();
    const entry = await browser.request(`/api/auth/callback?redirectUrl=${encodeURIComponent(`${alpha.origin}/market`)}`, { headers: { referer: `${alpha.origin}/x` } });
    expect(entry.status).toBe(200);
    const { response } = await browser.authorizeFrom(entry);
    expect(response.status).toBe(200);
    expect(pageData<{ target: string }>(await response.text())!.target).toBe(`${alpha.origin}/application/mktapp/index.html?install=engage-console#/market`);
    expect(alpha.calls.some((c) => c.includes("cloudinfo"))).toBe(false);
    expect(await findInstallation(t.store, { openAppId: "private", tenantId: ALPHA_KEY.tenantId })).toMatchObject({ status: "active" });
    // a later request without any session of its own acts as the installation
    const later = await requireApiSession(apiRequest(new TestBrowser()));
    expect(later.ok && later.session).toMatchObject({ openAppId: "private", tenantId: ALPHA_KEY.tenantId, userName: "Alice Admin 王丽" });
    // start needs no openAppId
    expect((await browser.request("/api/auth/start")).status).toBe(200);
  });

  it("has no session before the installation", async () => {
    const none = await requireApiSession(apiRequest(new TestBrowser()));
    expect(none.ok).toBe(false);
    if (!none.ok) expect((await none.response.json()).error.redirect).toBe("/api/auth/start");
  });
});
