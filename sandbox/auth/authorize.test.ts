import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hiddenInput, TestBrowser, startSandboxForFile } from "../testing/harness";

const { alpha, beta } = await startSandboxForFile({ reset: true });
const CALLBACK = "http://localhost:3000/api/auth/callback";

function authorizeUrl(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query.set(k, v);
  return `${alpha}/oauth2/authorize?${query}`;
}
const valid = { client_id: "engage-console", redirect_uri: CALLBACK, response_type: "code", state: "install" };

/** Independent §5.3 verification, as the app does it. */
function verifyCallback(location: string, secret = "sandbox-secret"): boolean {
  const params = new URL(location).searchParams;
  const pairs = [...params].filter(([k]) => k !== "hmac" && k !== "state").sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const esc = (s: string) => s.replace(/%/g, "%25").replace(/&/g, "%26").replace(/=/g, "%3D");
  const canonical = pairs.map(([k, v]) => `${esc(k)}=${esc(v)}`).join("&");
  return createHmac("sha256", secret).update(canonical).digest("hex") === params.get("hmac");
}

/** Logs in and grants consent once; returns the browser. */
async function consentedBrowser(): Promise<TestBrowser> {
  const browser = new TestBrowser();
  expect((await browser.login(alpha, "admin@alpha.test")).status).toBe(303);
  const consent = await browser.get(authorizeUrl(valid));
  const page = await consent.text();
  const res = await browser.postForm(`${alpha}/oauth2/authorize`, { ...valid, csrf: hiddenInput(page, "csrf")!, decision: "allow" });
  expect(res.status).toBe(303);
  return browser;
}

describe("GET /oauth2/authorize: invalid requests get an error page, never a redirect", () => {
  const cases: Array<[string, Record<string, string | undefined>]> = [
    ["client_id missing", { ...valid, client_id: undefined }],
    ["client_id unknown", { ...valid, client_id: "someone-else" }],
    ["redirect_uri missing", { ...valid, redirect_uri: undefined }],
    ["redirect_uri on another origin", { ...valid, redirect_uri: "https://evil.example/api/auth/callback" }],
    ["redirect_uri extends the callback path", { ...valid, redirect_uri: `${CALLBACK}X` }],
    ["redirect_uri has a fragment", { ...valid, redirect_uri: `${CALLBACK}#x` }],
    ["redirect_uri carries a callback key", { ...valid, redirect_uri: `${CALLBACK}?code=abc` }],
    ["response_type missing", { ...valid, response_type: undefined }],
    ["response_type not code", { ...valid, response_type: "token" }],
  ];
  it("a repeated parameter", async () => {
    const browser = await consentedBrowser();
    const res = await browser.get(`${authorizeUrl(valid)}&redirect_uri=${encodeURIComponent("http://localhost:3000/api/auth/callback/other")}`);
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
  });

  it.each(cases)("%s", async (_name, params) => {
    for (const browser of [new TestBrowser(), await consentedBrowser()]) {
      const res = await browser.get(authorizeUrl(params));
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("content-type")).toMatch(/text\/html/);
      expect(await res.text()).toMatch(/Authorization cannot continue/);
    }
  });
});

describe("GET /oauth2/authorize: login, consent, signed redirect", () => {
  it("asks for login first, and comes back to the same authorize request", async () => {
    const browser = new TestBrowser();
    const res = await browser.get(authorizeUrl(valid));
    expect(res.status).toBe(302);
    const login = new URL(res.headers.get("location")!, alpha);
    expect(login.pathname).toBe("/login");
    const next = login.searchParams.get("next")!;
    expect(next).toBe(new URL(authorizeUrl(valid)).pathname + new URL(authorizeUrl(valid)).search);
    const page = await (await browser.get(login.toString())).text();
    expect(page).toContain('lang="en"');
    expect(page).toMatch(/<label for="email">/);
    const signedIn = await browser.postForm(`${alpha}/login`, { email: "admin@alpha.test", password: "sandbox", next });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get("location")).toBe(next);
    const cookie = signedIn.headers.getSetCookie().join("\n");
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it("rejects a wrong password and staff of another environment", async () => {
    const browser = new TestBrowser();
    expect((await browser.login(alpha, "admin@alpha.test", "wrong")).status).toBe(401);
    expect((await browser.login(alpha, "admin@beta.test", "sandbox")).status).toBe(401);
    // Still not signed in: authorize asks for login again.
    expect((await browser.get(authorizeUrl(valid))).status).toBe(302);
  });

  it.each(["//evil.example/x", "https://evil.example/", "/\\evil.example", "/\t/evil.example", "javascript:alert(1)"])(
    "never redirects after login to another site (next=%j)",
    async (next) => {
      const browser = new TestBrowser();
      const res = await browser.postForm(`${alpha}/login`, { email: "admin@alpha.test", password: "sandbox", next });
      expect(res.headers.get("location")).toBe("/");
    },
  );

  it("refuses a login form posted from another origin", async () => {
    const browser = new TestBrowser();
    const res = await browser.request(`${alpha}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://evil.example" },
      body: new URLSearchParams({ email: "admin@alpha.test", password: "sandbox" }).toString(),
    });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("timestamp is real time even when the sandbox clock was advanced (the app checks freshness)", async () => {
    const browser = await consentedBrowser();
    await fetch(`${alpha}/__sandbox/clock`, { method: "POST", body: JSON.stringify({ advanceSeconds: 86_400 }) });
    const res = await browser.get(authorizeUrl(valid));
    const timestamp = Number(new URL(res.headers.get("location")!).searchParams.get("timestamp"));
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(5);
  });

  it("asks for consent the first time, then redirects with code, timestamp, hmac and state", async () => {
    const browser = new TestBrowser();
    await browser.login(alpha, "admin@alpha.test");
    const first = await browser.get(authorizeUrl(valid));
    expect(first.status).toBe(200);
    const page = await first.text();
    expect(page).toMatch(/Authorize Engage Console/);
    const granted = await browser.postForm(`${alpha}/oauth2/authorize`, { ...valid, csrf: hiddenInput(page, "csrf")!, decision: "allow" });
    expect(granted.status).toBe(303);
    const location = granted.headers.get("location")!;
    expect(location.startsWith(`${CALLBACK}?`)).toBe(true);
    const params = new URL(location).searchParams;
    expect([...params.keys()].sort()).toEqual(["code", "hmac", "state", "timestamp"]);
    expect(params.get("state")).toBe("install");
    expect(Math.abs(Number(params.get("timestamp")) - Date.now() / 1000)).toBeLessThan(5);
    expect(params.get("hmac")).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyCallback(location)).toBe(true);
    expect(verifyCallback(location, "another-secret")).toBe(false);

    // Remembered: the next authorization (e.g. from inside the app's iframe) returns at once.
    const again = await browser.get(authorizeUrl({ ...valid, state: "nonce-2" }));
    expect(again.status).toBe(302);
    const second = new URL(again.headers.get("location")!);
    expect(second.searchParams.get("state")).toBe("nonce-2");
    expect(second.searchParams.get("code")).not.toBe(params.get("code"));
    expect(verifyCallback(second.toString())).toBe(true);
  });

  it("returns state unchanged, including characters that need escaping", async () => {
    const browser = await consentedBrowser();
    const state = "a b+c&d=e%f/授权";
    const res = await browser.get(authorizeUrl({ ...valid, state }));
    expect(new URL(res.headers.get("location")!).searchParams.get("state")).toBe(state);
  });

  it("keeps query parameters of the redirect_uri and signs them too (§5.3 covers every pair)", async () => {
    const browser = await consentedBrowser();
    const res = await browser.get(authorizeUrl({ ...valid, redirect_uri: `${CALLBACK}?returnTo=%2Fcustomers%3Fpage%3D2` }));
    const location = res.headers.get("location")!;
    expect(new URL(location).searchParams.get("returnTo")).toBe("/customers?page=2");
    expect(verifyCallback(location)).toBe(true);
  });

  it("a declined consent returns error=access_denied with the state, and no code", async () => {
    const browser = new TestBrowser();
    await browser.login(alpha, "admin@alpha.test");
    const page = await (await browser.get(authorizeUrl(valid))).text();
    const res = await browser.postForm(`${alpha}/oauth2/authorize`, { ...valid, csrf: hiddenInput(page, "csrf")!, decision: "deny" });
    const params = new URL(res.headers.get("location")!).searchParams;
    expect(params.get("error")).toBe("access_denied");
    expect(params.get("state")).toBe("install");
    expect(params.get("code")).toBeNull();
    // Not remembered: consent is asked again.
    expect((await browser.get(authorizeUrl(valid))).status).toBe(200);
  });

  it("refuses a consent form without the session's anti-CSRF token", async () => {
    const browser = new TestBrowser();
    await browser.login(alpha, "admin@alpha.test");
    const res = await browser.postForm(`${alpha}/oauth2/authorize`, { ...valid, csrf: "forged", decision: "allow" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
  });

  it("a login on alpha is not a login on beta (cookies are per environment)", async () => {
    const browser = await consentedBrowser();
    const res = await browser.get(`${beta}/oauth2/authorize?${new URLSearchParams(valid)}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/login\?next=/);
  });
});

describe("POST /__sandbox/authorize (the tests' shortcut past login and consent)", () => {
  it("remembers the demo staff's consent, as the consent page does: that staff's browser is not asked again", async () => {
    const browser = new TestBrowser();
    expect((await browser.login(beta, "admin@beta.test")).status).toBe(303);
    const before = await browser.get(`${beta}/oauth2/authorize?${new URLSearchParams(valid)}`);
    expect(before.status).toBe(200);
    expect(await before.text()).toMatch(/Authorize Engage Console/);

    const shortcut = await fetch(`${beta}/__sandbox/authorize`, { method: "POST", body: JSON.stringify({ environment: "beta", install: true }) });
    expect(shortcut.status).toBe(200);

    const after = await browser.get(`${beta}/oauth2/authorize?${new URLSearchParams(valid)}`);
    expect(after.status).toBe(302);
    expect(verifyCallback(after.headers.get("location")!)).toBe(true);
  });
});
