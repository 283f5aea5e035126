import fc from "fast-check";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { captureLogsForTests } from "@/lib/log";
import { findEnvironment, findInstallation } from "@/lib/store/installations";
import { canKeepPreference, readPreferences, writePreference } from "@/lib/preferences/server-preferences";
import { openSqliteTestStore, type TestStore } from "@/lib/store/testing";
import { computeHmac } from "./hmac";
import { installationLifecycle } from "./lifecycle";
import { renewSessionToken, requireApiSession } from "./session";
import { logoutUrl } from "./sign-out";
import { startFakePlatform, type FakePlatform } from "./testing/fake-platform";
import { APP_URL, CLIENT, configureApp, formFields, pageData, TestBrowser, verifierOf } from "./testing/harness";

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
  it("publishes `installed` for the installation before answering (the customer index subscribes; auth imports no feature)", async () => {
    const installed: Array<{ openAppId: string; tenantId: string }> = [];
    installationLifecycle().on("installed", "test-probe", async ({ key }) => void installed.push(key));
    const { response } = await new TestBrowser().install(alpha);
    expect(response.status).toBe(200);
    expect(installed).toEqual([ALPHA_KEY]);
  });

  it("installs: cloudinfo, authorize, HMAC, code exchange, users/current, store, session, marketplace redirect", async () => {
    const browser = new TestBrowser();
    const { entry, response } = await browser.install(alpha);
    expect(entry.status).toBe(302);
    const authorize = new URL(entry.headers.get("location")!);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${alpha.origin}/oauth2/authorize`);
    expect(authorize.searchParams.get("client_id")).toBe("engage-console");
    expect(authorize.searchParams.get("response_type")).toBe("code");
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${APP_URL}/api/auth/callback`);
    expect(authorize.searchParams.get("state")).toMatch(/^install\./);
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

  it("refuses an install whose cloudinfo domain is not an http(s) origin as a platform refusal", async () => {
    alpha.cloudDomains = { authDomain: "ftp://alpha.example", apiDomain: alpha.origin };
    const entry = await new TestBrowser().request(`/api/auth/callback?redirectUrl=x&getOpenAppIdToken=${alpha.installToken()}`);
    expect(entry.status).toBe(400);
    expect(await entry.text()).toContain("The platform refused the environment lookup");
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
    expect((await browser.request(`/api/auth/callback?redirectUrl=x&getOpenAppIdToken=${token}`)).status).toBe(302);
    const replay = await browser.request(`/api/auth/callback?redirectUrl=x&getOpenAppIdToken=${token}`);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toMatch(/refused the environment lookup.*works once, for 10 minutes/s);
    expect((await browser.request(`/api/auth/callback?redirectUrl=x`)).status).toBe(400);
  });
});

describe("authorization return checks (§5.3): 4xx page, nothing stored", () => {
  async function startedFlow() {
    const browser = new TestBrowser();
    const entry = await browser.request(`/api/auth/callback?redirectUrl=x&getOpenAppIdToken=${alpha.installToken()}`);
    const location = (await browser.request(entry.headers.get("location")!)).headers.get("location")!;
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

  it("a state of another browser, a wrong flow cookie, a forged state or a swapped purpose is refused", async () => {
    const first = await startedFlow();
    const second = await startedFlow();
    const fields = [...second.returnUrl.searchParams.entries()];
    // second's return, posted by the first browser (no cookie of that flow, no verifier): no session
    const res = await first.browser.postReturn(fields, undefined);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("does not match this browser");
    expect(first.browser.cookies.has("ec_session")).toBe(false);
    // its GET, without the cookie: only the one restart, a new flow of the same purpose
    const page = await first.browser.request(second.returnUrl.pathname + second.returnUrl.search);
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/api/auth/start?openAppId=oa-alpha-test&install=1&restart=1");
    // even framed, a cookie of the flow with another value is a mismatch
    const nonceCookie = [...second.browser.cookies.keys()].find((k) => k.startsWith("ec_flow_"))!;
    second.browser.cookies.set(nonceCookie, "x".repeat(32));
    expect((await second.browser.postReturn(fields, undefined, { "sec-fetch-dest": "iframe" })).status).toBe(400);
    // a state this app never issued
    const now = String(Math.floor(Date.now() / 1000));
    for (const state of ["install", "install.short", `install.Fe26.2**${"A".repeat(40)}`]) {
      expect((await first.browser.request(signedReturn({ code: "c", timestamp: now, state }))).status).toBe(400);
      expect((await first.browser.postReturn([...new URL(signedReturn({ code: "c", timestamp: now, state }), APP_URL).searchParams], undefined)).status).toBe(400);
    }
    // the right sealed flow under another purpose
    const sealed = first.returnUrl.searchParams.get("state")!.slice("install.".length);
    const swapped = signedReturn({ code: first.returnUrl.searchParams.get("code")!, timestamp: first.returnUrl.searchParams.get("timestamp")!, state: `auth.${sealed}` });
    expect((await first.browser.request(swapped)).status).toBe(400);
    expect((await first.browser.postReturn([...new URL(swapped, APP_URL).searchParams], undefined)).status).toBe(400);
    expect(await installationCount()).toBe(0);
    expect(alpha.grants.authorization_code ?? 0).toBe(0);
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
    const value = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom(`install.Fe26.2**${"A".repeat(30)}`, "0", "1700000000", "%", "&=", "\u0000"));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(key, value), { maxLength: 8 }), fc.string({ maxLength: 30 }), fc.boolean(), async (pairs, raw, asPairs) => {
        const query = asPairs ? new URLSearchParams(pairs).toString() : raw.replace(/#/g, "");
        const res = await new TestBrowser().request(`/api/auth/callback?${query}`);
        expect(res.status).toBeGreaterThanOrEqual(200);
        expect(res.status).toBeLessThan(500);
        expect(res.headers.get("content-type")).toContain("text/html");
      }),
      { numRuns: 150 },
    );
    expect(await installationCount()).toBe(0);
  });

  it("never answers 5xx to arbitrary start or logout requests (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60 }), async (openAppId, returnTo) => {
        const q = new URLSearchParams({ openAppId, returnTo }).toString();
        const start = await new TestBrowser().request(`/api/auth/start?${q}`);
        expect([302, 303, 400, 404]).toContain(start.status);
        if (start.status === 302) expect(start.headers.get("location")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth2\/authorize\?/);
        if (start.status === 303) expect(start.headers.get("location")).toMatch(/^\/\?chooseEnvironment=1(&returnTo=%2F(?!%2F).*)?$/);
        const logout = await new TestBrowser().request(`/api/auth/logout?${q}`, { method: "POST", headers: { origin: APP_URL } });
        expect(logout.status).toBe(200);
      }),
      { numRuns: 60 },
    );
  });
});

describe("cookies refused (the fallback of ARCHITECTURE.md §4)", () => {
  it("completes a framed authorization without the flow cookie and works with the sealed session token", async () => {
    const browser = new TestBrowser();
    await browser.install(alpha);
    const framed = new TestBrowser();
    framed.refuseCookies = true;
    const start = await framed.request("/api/auth/start?openAppId=oa-alpha-test", { headers: { "sec-fetch-dest": "iframe" } });
    expect(start.status).toBe(302);
    // the start's redirect carries the verifier in its fragment, never in what a server sees
    const authorize = new URL(start.headers.get("location")!);
    expect(authorize.hash).toMatch(/^#ecv=[\w-]{43}$/);
    expect(authorize.search).not.toContain(authorize.hash.slice(5));
    // no flow cookie comes back: the callback starts once more, the fragment's verifier comes along, and
    // since a link could carry one too, the user confirms who signs in before anything is stored
    const { response: confirmation } = await framed.authorizeFrom(start, { "sec-fetch-dest": "iframe" });
    const asked = await confirmation.clone().text();
    expect(asked).toContain("Continue as Alice Admin 王丽 at Alpha Retail 阿尔法零售?");
    expect(pageData(asked)).toBeUndefined();
    expect((await findInstallation(t.store, ALPHA_KEY))!.tokenGeneration).toBe(1);
    const response = await framed.answer(confirmation, "continue", { "sec-fetch-dest": "iframe" });
    expect(response.status).toBe(200);
    expect(framed.cookies.size).toBe(0);
    expect(alpha.grants).toMatchObject({ authorization_code: 2 }); // the install's and this one's: the first return was never exchanged
    const complete = pageData<{ token: string; expiresAt: number; target: string }>(await response.text())!;
    expect(complete.target).toBe("/?openAppId=oa-alpha-test&authorized=1");
    expect(complete.expiresAt - Date.now()).toBeLessThanOrEqual(30 * 60 * 1000);
    const api = await requireApiSession(apiRequest(framed, { bearer: complete.token, openAppId: "oa-alpha-test" }));
    expect(api.ok && api.session.tenantId).toBe(ALPHA_KEY.tenantId);
    // bound to its openAppId
    expect((await requireApiSession(apiRequest(framed, { bearer: complete.token, openAppId: "oa-beta-test" }))).ok).toBe(false);
    // a tampered token is no session
    expect((await requireApiSession(apiRequest(framed, { bearer: `${complete.token.slice(0, -2)}xx`, openAppId: "oa-alpha-test" }))).ok).toBe(false);
    // the answer is single use
    expect((await framed.answer(new Response(asked), "continue")).status).toBe(400);
  });

  it("an install whose flow cookie is refused completes through the fragment's verifier and the confirmation", async () => {
    const refusing = new TestBrowser();
    refusing.refuseCookies = true;
    const entry = await refusing.request(`/api/auth/callback?redirectUrl=x&getOpenAppIdToken=${alpha.installToken()}`);
    const { response: confirmation } = await refusing.authorizeFrom(entry);
    expect(await installationCount()).toBe(0);
    const response = await refusing.answer(confirmation, "continue");
    expect(response.status).toBe(200);
    expect(pageData<{ target: string }>(await response.text())!.target).toContain("/application/mktapp/index.html?install=engage-console");
    expect(await installationCount()).toBe(1);
  });
});

describe("login CSRF: a sign-in completes only in the browser that started it", () => {
  const MALLORY = { id: 9007199254740995666n, name: "Mallory 马洛", tenantName: "Alpha Retail 阿尔法零售" };
  afterEach(() => {
    alpha.user = { id: 9007199254740995001n, name: "Alice Admin 王丽", tenantName: "Alpha Retail 阿尔法零售" };
  });

  /** The attacker starts a flow (restart=1, as the red team did), authorizes as himself and keeps the return unopened. */
  async function attackersReturn(): Promise<string> {
    if (!(await findInstallation(t.store, ALPHA_KEY))) await new TestBrowser().install(alpha);
    const attacker = new TestBrowser();
    attacker.refuseCookies = true;
    alpha.user = MALLORY;
    const start = await attacker.request("/api/auth/start?openAppId=oa-alpha-test&restart=1&returnTo=%2Fcustomers%2Fnew");
    const authorizeUrl = start.headers.get("location")!;
    const back = (await attacker.request(authorizeUrl)).headers.get("location")!;
    alpha.user = { id: 9007199254740995001n, name: "Alice Admin 王丽", tenantName: "Alpha Retail 阿尔法零售" };
    // the link carries the attacker's own verifier in its fragment, as the red team's did
    return `${back}${new URL(authorizeUrl).hash}`;
  }

  it("the victim, signed in as herself, gets a 'Continue as Mallory?' page, not Mallory's session; Cancel leaves her session unchanged", async () => {
    const victim = new TestBrowser();
    await victim.install(alpha);
    const herCookie = victim.cookieHeader();
    const installed = (await findInstallation(t.store, ALPHA_KEY))!;
    const link = await attackersReturn();
    const confirmation = await victim.returnTo(link);
    const html = await confirmation.clone().text();
    expect(confirmation.headers.getSetCookie().some((c) => c.startsWith("ec_session="))).toBe(false);
    expect(pageData<{ token?: string }>(html)?.token).toBeUndefined();
    expect(html).toContain("Continue as Mallory 马洛 at Alpha Retail 阿尔法零售?");
    expect(html).toContain("This browser is signed in as Alice Admin 王丽 at Alpha Retail 阿尔法零售");
    expect(victim.cookieHeader()).toBe(herCookie);
    // nothing stored: the installation keeps its tokens and who installed it
    expect(await findInstallation(t.store, ALPHA_KEY)).toMatchObject({ tokenGeneration: installed.tokenGeneration, installedBy: installed.installedBy });
    const declined = await victim.answer(confirmation, "cancel");
    expect(await declined.text()).toContain("Nothing was changed");
    expect(victim.cookieHeader()).toBe(herCookie);
    const session = await requireApiSession(apiRequest(victim, { openAppId: "oa-alpha-test" }));
    expect(session.ok && session.session).toMatchObject({ userId: "9007199254740995001", userName: "Alice Admin 王丽" });
  });

  it("the link's fragment, query or restart mark never completes a sign-in without the answer", async () => {
    for (const headers of [{}, { "sec-fetch-dest": "iframe" }] as Array<Record<string, string>>) {
      const victim = new TestBrowser();
      victim.refuseCookies = true;
      const link = await attackersReturn();
      const response = await victim.returnTo(link, headers);
      expect(pageData<{ token?: string }>(await response.clone().text())?.token).toBeUndefined();
      expect(response.headers.getSetCookie().some((c) => c.startsWith("ec_session="))).toBe(false);
      // a forged or guessed answer is refused
      for (const id of ["A".repeat(43), "", "../x"]) {
        const forged = await victim.postReturn([["confirm", id], ["decision", "continue"]], undefined, headers);
        expect(forged.status).toBe(400);
        expect(pageData(await forged.text())).toBeUndefined();
      }
    }
  });

  it("a callback post with the app's Origin but Sec-Fetch-Site cross-site is refused before anything is done", async () => {
    await new TestBrowser().install(alpha);
    alpha.grants = {};
    const victim = new TestBrowser();
    const start = await victim.request("/api/auth/start?openAppId=oa-alpha-test");
    const back = new URL((await victim.request(start.headers.get("location")!)).headers.get("location")!);
    for (const site of ["cross-site", "same-site", "none"]) {
      const refused = await victim.postReturn([...back.searchParams], undefined, { "sec-fetch-site": site });
      expect(refused.status).toBe(403);
    }
    expect(alpha.grants.authorization_code ?? 0).toBe(0);
    expect((await victim.postReturn([...back.searchParams], undefined)).status).toBe(200);
  });
});

describe("the callback is bound to the browser that started it (docs/decisions/sign-in-hardening.md)", () => {
  /** A flow started by `victim` and authorized at the platform, its return not yet used. */
  /** The return URL (with the fragment the browser carries) of a flow `victim` started; `cookieless`: one refused flow cookie. */
  async function unusedReturn(victim: TestBrowser, cookieless = false) {
    victim.refuseCookies = cookieless;
    const start = await victim.request(`/api/auth/start?openAppId=oa-alpha-test${cookieless ? "&restart=1" : ""}`);
    const authorizeUrl = start.headers.get("location")!;
    const authorize = await victim.request(authorizeUrl);
    const returned = new URL(authorize.headers.get("location")!);
    returned.hash = new URL(authorizeUrl).hash;
    return returned;
  }

  async function expectNoSession(response: Response, browser: TestBrowser) {
    const html = await response.text();
    expect(response.headers.getSetCookie().some((c) => c.startsWith("ec_session="))).toBe(false);
    expect(browser.cookies.has("ec_session")).toBe(false);
    expect(pageData<{ token?: string }>(html)?.token).toBeUndefined();
  }

  beforeEach(async () => {
    await new TestBrowser().install(alpha);
    alpha.grants = {};
  });

  it("another client with the callback URL and any headers gets no session and the code is never exchanged", async () => {
    for (const cookieless of [false, true]) {
      const returned = await unusedReturn(new TestBrowser(), cookieless);
      const attacker = new TestBrowser();
      const headerSets: Array<Record<string, string>> = [{}, { "sec-fetch-dest": "iframe" }, { "sec-fetch-dest": "iframe", "sec-fetch-site": "same-origin", referer: `${APP_URL}/` }];
      for (const headers of headerSets) {
        const page = await attacker.request(returned.pathname + returned.search, { headers });
        expect([200, 302]).toContain(page.status);
        await expectNoSession(page, attacker);
        const posted = await attacker.postReturn([...returned.searchParams], undefined, headers);
        expect([200, 400]).toContain(posted.status);
        await expectNoSession(posted, attacker);
        // a guessed verifier is no proof either
        const guessed = await attacker.postReturn([...returned.searchParams], "A".repeat(43), headers);
        expect(guessed.status).toBe(400);
        await expectNoSession(guessed, attacker);
      }
    }
    expect(alpha.grants.authorization_code ?? 0).toBe(0);
  });

  it("the browser that started the flow still completes it after an attacker's tries", async () => {
    const victim = new TestBrowser();
    const returned = await unusedReturn(victim, true);
    const attacker = new TestBrowser();
    await attacker.postReturn([...returned.searchParams], undefined);
    const asked = await victim.postReturn([...returned.searchParams], verifierOf(returned.toString()));
    const done = await victim.answer(asked, "continue");
    expect(done.status).toBe(200);
    expect(pageData<{ token?: string }>(await done.text())?.token).toBeTruthy();
    expect(alpha.grants).toEqual({ authorization_code: 1 });
  });

  it("a replayed return is refused without calling the token endpoint, and the installation keeps working", async () => {
    const victim = new TestBrowser();
    const returned = await unusedReturn(victim);
    const flowCookie = [...victim.cookies].find(([k]) => k.startsWith("ec_flow_"))!;
    const page = await victim.request(returned.pathname + returned.search);
    const fields = formFields(await page.text())!;
    expect((await victim.postReturn(fields, undefined)).status).toBe(200);
    const before = (await findInstallation(t.store, ALPHA_KEY))!;
    // the same post again, with the flow cookie put back (a saved copy)
    victim.cookies.set(flowCookie[0], flowCookie[1]);
    const replay = await victim.postReturn(fields, undefined);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain("already used");
    expect(alpha.grants).toEqual({ authorization_code: 1 });
    const after = (await findInstallation(t.store, ALPHA_KEY))!;
    expect(after.status).toBe("active");
    expect(after.tokens.accessToken).toBe(before.tokens.accessToken);
  });

  it("a second code for the same state, with the saved flow cookie, gives no session", async () => {
    const victim = new TestBrowser();
    const start = await victim.request("/api/auth/start?openAppId=oa-alpha-test");
    const authorizeUrl = start.headers.get("location")!;
    const first = new URL((await victim.request(authorizeUrl)).headers.get("location")!);
    const second = new URL((await victim.request(authorizeUrl)).headers.get("location")!);
    expect(second.searchParams.get("code")).not.toBe(first.searchParams.get("code"));
    const flowCookie = [...victim.cookies].find(([k]) => k.startsWith("ec_flow_"))!;
    expect((await victim.postReturn([...first.searchParams], undefined)).status).toBe(200);
    victim.cookies.set(flowCookie[0], flowCookie[1]);
    const again = new TestBrowser();
    again.cookies.set(flowCookie[0], flowCookie[1]);
    const refused = await again.postReturn([...second.searchParams], undefined);
    expect(refused.status).toBe(400);
    await expectNoSession(refused, again);
    expect(alpha.grants).toEqual({ authorization_code: 1 });
  });

  it("the GET of a return never exchanges the code, and a cross-site post is refused", async () => {
    const victim = new TestBrowser();
    const returned = await unusedReturn(victim);
    const page = await victim.request(returned.pathname + returned.search);
    expect(page.status).toBe(200);
    expect(formFields(await page.text())).toEqual([...returned.searchParams]);
    const crossSite = await victim.request("/api/auth/callback", {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: returned.searchParams.toString(),
    });
    expect(crossSite.status).toBe(403);
    expect(alpha.grants.authorization_code ?? 0).toBe(0);
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
    if (!none.ok) expect(none.error).toMatchObject({ status: 401, code: "reauth_required" });
  });

  it("answers an API request without a session with 401 reauth_required and a redirect", async () => {
    const result = await requireApiSession(apiRequest(new TestBrowser(), { openAppId: "oa-alpha-test" }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ status: 401, code: "reauth_required", redirect: "/api/auth/start?openAppId=oa-alpha-test" });
  });

  it("starts authorization again for a known environment and returns to a safe returnTo only", async () => {
    const browser = new TestBrowser();
    await browser.install(alpha);
    const start = await browser.request("/api/auth/start?openAppId=oa-alpha-test&returnTo=%2Fcustomers%3Fpage%3D2");
    expect(start.status).toBe(302);
    const { response } = await browser.authorizeFrom(start);
    expect(pageData<{ target: string }>(await response.text())!.target).toBe("/customers?page=2&authorized=1");
    const evil = await browser.request("/api/auth/start?openAppId=oa-alpha-test&returnTo=%2F%2Fevil.example%2F");
    const back = await browser.authorizeFrom(evil);
    expect(pageData<{ target: string }>(await back.response.text())!.target).toBe("/?openAppId=oa-alpha-test&authorized=1");
    expect((await browser.request("/api/auth/start?openAppId=oa-unknown")).status).toBe(404);
    // No environment named (a plain tab): the home page's chooser, keeping a safe returnTo only.
    const plain = await browser.request("/api/auth/start?returnTo=%2Fcustomers%3Fpage%3D2");
    expect(plain.status).toBe(303);
    expect(plain.headers.get("location")).toBe("/?chooseEnvironment=1&returnTo=%2Fcustomers%3Fpage%3D2");
    expect((await browser.request("/api/auth/start?returnTo=%2F%2Fevil.example%2F")).headers.get("location")).toBe("/?chooseEnvironment=1");
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

  it("after logout the saved cookie and the fallback token are refused and cannot be renewed", async () => {
    const browser = new TestBrowser();
    const { response } = await browser.install(alpha);
    const { token } = pageData<{ token: string }>(await response.text())!;
    const savedCookie = browser.cookieHeader();
    const saved = () => new Request(`${APP_URL}/api/platform/v1/customers`, { headers: { cookie: savedCookie, "X-Open-App-Id": "oa-alpha-test" } });
    const bearer = () => new Request(`${APP_URL}/api/auth/session`, { method: "POST", headers: { authorization: `Bearer ${token}`, "X-Open-App-Id": "oa-alpha-test" } });
    expect((await requireApiSession(saved())).ok).toBe(true);
    expect((await requireApiSession(bearer())).ok).toBe(true);
    expect(await renewSessionToken(bearer())).toBeDefined();
    const out = await browser.request("/api/auth/logout?openAppId=oa-alpha-test", { method: "POST", headers: { origin: APP_URL } });
    expect(await out.json()).toMatchObject({ signedOut: true, ended: 1 });
    expect((await requireApiSession(saved())).ok).toBe(false);
    expect((await requireApiSession(bearer())).ok).toBe(false);
    expect(await renewSessionToken(bearer())).toBeUndefined();
  });

  it("the console's sign-out (token and cookie in one post) ends the token's sign-in, renewal fails, and the form's answer is the signed-out page", async () => {
    const browser = new TestBrowser();
    const { response } = await browser.install(alpha);
    const { token } = pageData<{ token: string }>(await response.text())!;
    const bearer = () => new Request(`${APP_URL}/api/auth/session`, { method: "POST", headers: { authorization: `Bearer ${token}`, "X-Open-App-Id": "oa-alpha-test" } });
    // what SignOutControls sends from a cookie-less frame: a same-origin fetch with the tab's token
    const framed = new TestBrowser();
    const out = await framed.request(logoutUrl("oa-alpha-test", false), { method: "POST", headers: { origin: APP_URL, "sec-fetch-site": "same-origin", authorization: `Bearer ${token}`, "X-Open-App-Id": "oa-alpha-test" } });
    expect(await out.json()).toMatchObject({ signedOut: true, ended: 1 });
    expect((await requireApiSession(bearer())).ok).toBe(false);
    expect(await renewSessionToken(bearer())).toBeUndefined();
    // without JavaScript, the form's post lands on the page that says what ended
    for (const everywhere of [false, true]) {
      const form = await browser.request(logoutUrl("oa-alpha-test", everywhere), { method: "POST", headers: { origin: APP_URL, "content-type": "application/x-www-form-urlencoded" }, body: "" });
      expect(form.status).toBe(303);
      expect(form.headers.get("location")).toBe(everywhere ? "/signed-out?openAppId=oa-alpha-test&everywhere=1" : "/signed-out?openAppId=oa-alpha-test");
    }
  });

  it("logout by the fallback token alone ends that sign-in; ?everywhere=1 ends the user's other sign-ins", async () => {
    await new TestBrowser().install(alpha);
    const one = new TestBrowser();
    const two = new TestBrowser();
    const tokenOf = async (b: TestBrowser) => pageData<{ token: string }>(await (await b.authorizeFrom(await b.request("/api/auth/start?openAppId=oa-alpha-test"))).response.text())!.token;
    const [a, b] = [await tokenOf(one), await tokenOf(two)];
    const check = (token: string) => requireApiSession(new Request(`${APP_URL}/x`, { headers: { authorization: `Bearer ${token}`, "X-Open-App-Id": "oa-alpha-test" } }));
    const cookieless = new TestBrowser();
    await cookieless.request("/api/auth/logout?openAppId=oa-alpha-test", { method: "POST", headers: { origin: APP_URL, authorization: `Bearer ${a}` } });
    expect((await check(a)).ok).toBe(false);
    expect((await check(b)).ok).toBe(true);
    const three = new TestBrowser();
    const c = await tokenOf(three);
    const everywhere = await three.request("/api/auth/logout?openAppId=oa-alpha-test&everywhere=1", { method: "POST", headers: { origin: APP_URL } });
    expect(await everywhere.json()).toMatchObject({ ended: 3 }); // the install's, two's and three's
    expect((await check(b)).ok).toBe(false);
    expect((await check(c)).ok).toBe(false);
    expect((await requireApiSession(apiRequest(two, { openAppId: "oa-alpha-test" }))).ok).toBe(false);
  });
});

describe("staff without a user id (users/current as the real platform answers it)", () => {
  const observed = (login: string | undefined, name: string) => ({ ...(login ? { email: login, loginName: login } : {}), name, tname: "Beta Foods 贝塔食品", tid: "80000000002" });
  const BOB = observed("admin@beta.test", "Bob Admin 李博");
  const CAROL = observed("carol@beta.test", "Carol Clerk 陈洁");
  const DEFAULT_BETA_USER = beta?.user;
  afterEach(() => {
    beta.user = DEFAULT_BETA_USER ?? { id: 9007199254740995001n, name: "Alice Admin 王丽", tenantName: "Alpha Retail 阿尔法零售" };
  });

  async function signInAs(user: Record<string, unknown>) {
    beta.user = user;
    const browser = new TestBrowser();
    const { response } = await browser.authorizeFrom(await browser.request("/api/auth/start?openAppId=oa-beta-test"));
    const { token } = pageData<{ token: string }>(await response.text())!;
    const check = await requireApiSession(apiRequest(browser, { openAppId: "oa-beta-test" }));
    if (!check.ok) throw new Error("no session");
    return { browser, token, session: check.session };
  }
  const live = (token: string) => requireApiSession(new Request(`${APP_URL}/x`, { headers: { authorization: `Bearer ${token}`, "X-Open-App-Id": "oa-beta-test" } })).then((r) => r.ok);

  it("two staff get two stable keys; one's 'sign out everywhere' ends only hers; their remembered columns stay apart", async () => {
    beta.user = BOB;
    await new TestBrowser().install(beta);
    const bob = await signInAs(BOB);
    const bobAgain = await signInAs({ ...BOB, loginName: "Admin@Beta.test" });
    const carol = await signInAs(CAROL);
    expect(bob.session.userId).toMatch(/^k-[\w-]{27}$/);
    expect(bobAgain.session.userId).toBe(bob.session.userId);
    expect(carol.session.userId).toMatch(/^k-[\w-]{27}$/);
    expect(carol.session.userId).not.toBe(bob.session.userId);

    await writePreference(t.store, bob.session, "customerColumns", ["name"], bob.session.userName);
    await writePreference(t.store, carol.session, "customerColumns", ["email"], carol.session.userName);
    expect((await readPreferences(t.store, bob.session)).customerColumns).toEqual(["name"]);
    expect((await readPreferences(t.store, carol.session)).customerColumns).toEqual(["email"]);

    const out = await bob.browser.request("/api/auth/logout?openAppId=oa-beta-test&everywhere=1", { method: "POST", headers: { origin: APP_URL } });
    expect(await out.json()).toMatchObject({ ended: 3 }); // the install's, bob's and bobAgain's
    expect(await live(bob.token)).toBe(false);
    expect(await live(bobAgain.token)).toBe(false);
    expect(await live(carol.token)).toBe(true);
  });

  it("a user with neither id nor login gets no key: 'everywhere' ends only that sign-in and no personal preference is kept", async () => {
    beta.user = BOB;
    await new TestBrowser().install(beta);
    const first = await signInAs(observed(undefined, "Nobody 无名"));
    const second = await signInAs(observed(undefined, "Nobody 无名"));
    expect(first.session.userId).toBe("");
    const out = await first.browser.request("/api/auth/logout?openAppId=oa-beta-test&everywhere=1", { method: "POST", headers: { origin: APP_URL } });
    expect(await out.json()).toMatchObject({ ended: 1 });
    expect(await live(first.token)).toBe(false);
    expect(await live(second.token)).toBe(true);
    expect(canKeepPreference(second.session, "customerColumns")).toBe(false);
    expect(canKeepPreference(second.session, "attrLabels")).toBe(true);
  });
});

describe("logs", () => {
  it("contain no token, code, secret, hmac or session value during a whole install", async () => {
    const capture = captureLogsForTests();
    let secrets: string[] = [];
    try {
      const browser = new TestBrowser();
      const { callbackUrl, response } = await browser.install(alpha);
      const returned = new URL(callbackUrl);
      const inst = (await findInstallation(t.store, ALPHA_KEY))!;
      const done = pageData<{ token: string }>(await response.text())!;
      secrets = [
        returned.searchParams.get("code")!,
        returned.searchParams.get("hmac")!,
        inst.tokens.accessToken,
        inst.tokens.refreshToken,
        CLIENT.clientSecret,
        process.env.SESSION_PASSWORD!,
        returned.searchParams.get("state")!.slice("install.".length),
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
    expect(entry.status).toBe(302);
    const { response } = await browser.authorizeFrom(entry);
    expect(response.status).toBe(200);
    expect(pageData<{ target: string }>(await response.text())!.target).toBe(`${alpha.origin}/application/mktapp/index.html?install=engage-console#/market`);
    expect(alpha.calls.some((c) => c.includes("cloudinfo"))).toBe(false);
    expect(await findInstallation(t.store, { openAppId: "private", tenantId: ALPHA_KEY.tenantId })).toMatchObject({ status: "active" });
    // a later request without any session of its own acts as the installation
    const later = await requireApiSession(apiRequest(new TestBrowser()));
    expect(later.ok && later.session).toMatchObject({ openAppId: "private", tenantId: ALPHA_KEY.tenantId, userName: "Alice Admin 王丽" });
    // start needs no openAppId
    expect((await browser.request("/api/auth/start")).status).toBe(302);
  });

  it("has no session before the installation", async () => {
    const none = await requireApiSession(apiRequest(new TestBrowser()));
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.error).toMatchObject({ redirect: "/api/auth/start" });
  });
});
