import { describe, expect, it } from "vitest";
import { appPageUrl } from "./routes";
import { hiddenInput, postJson, TestBrowser, tokenRequest, startSandboxForFile } from "../testing/harness";

const { alpha, beta } = await startSandboxForFile({ reset: true });
const CALLBACK = "http://localhost:3000/api/auth/callback";
const MARKET = "/application/mktapp/index.html?install=engage-console";


async function clickInstall(browser: TestBrowser, origin: string): Promise<URL> {
  const page = await (await browser.get(`${origin}${MARKET}`)).text();
  expect(page).toMatch(/<button class="primary" type="submit">Install<\/button>/);
  const res = await browser.postForm(`${origin}/application/mktapp/install`, { csrf: hiddenInput(page, "csrf")!, app: "engage-console" });
  expect(res.status).toBe(303);
  return new URL(res.headers.get("location")!);
}

const cloudinfo = (token: string) => fetch(`${alpha}/extension/cloudinfo?token=${encodeURIComponent(token)}`);

describe("admin shell and marketplace", () => {
  it("asks for login, then shows the marketplace with a left nav and the app card", async () => {
    const browser = new TestBrowser();
    const res = await browser.get(`${alpha}${MARKET}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/login?next=${encodeURIComponent(MARKET)}`);
    await browser.login(alpha, "admin@alpha.test");
    const page = await (await browser.get(`${alpha}${MARKET}`)).text();
    expect(page).toContain('<html lang="en">');
    expect(page).toMatch(/<nav class="sidenav" aria-label="Main">/);
    expect(page).toMatch(/<main/);
    expect(page).toContain("Engage Console");
    expect(page).toContain(">Install<");
    expect(page).not.toContain(">Open<");
  });

  it("Install sends the browser to the callback with redirectUrl and getOpenAppIdToken (§5.2.1)", async () => {
    const browser = new TestBrowser();
    await browser.login(alpha, "admin@alpha.test");
    const target = await clickInstall(browser, alpha);
    expect(`${target.origin}${target.pathname}`).toBe(CALLBACK);
    expect([...target.searchParams.keys()].sort()).toEqual(["getOpenAppIdToken", "redirectUrl"]);
    expect(target.searchParams.get("redirectUrl")).toBe(`${alpha}${MARKET}#/market`);
    const info = await cloudinfo(target.searchParams.get("getOpenAppIdToken")!);
    expect(info.status).toBe(200);
    expect(await info.json()).toEqual({
      openAppId: "oa-alpha-7f3c9e21",
      authDomain: alpha,
      apiDomain: alpha,
      productType: "cep-cloud",
      productVersion: "5.12.0",
    });
  });

  it("refuses an Install without the session's anti-CSRF token", async () => {
    const browser = new TestBrowser();
    await browser.login(alpha, "admin@alpha.test");
    const res = await browser.postForm(`${alpha}/application/mktapp/install`, { csrf: "forged", app: "engage-console" });
    expect(res.headers.get("location")).toBe(`${MARKET}#/market`);
  });

  it("becomes installed when the app exchanges the code of the install authorization; then Open shows it in an iframe with openAppId", async () => {
    const browser = new TestBrowser();
    await browser.login(beta, "admin@beta.test");
    await clickInstall(browser, beta);
    // The app sends the user to authorize on beta (its authDomain); consent; code back.
    const authorize = `${beta}/oauth2/authorize?${new URLSearchParams({ client_id: "engage-console", redirect_uri: CALLBACK, response_type: "code", state: "install" })}`;
    const consent = await (await browser.get(authorize)).text();
    const granted = await browser.postForm(`${beta}/oauth2/authorize`, {
      client_id: "engage-console", redirect_uri: CALLBACK, response_type: "code", state: "install", csrf: hiddenInput(consent, "csrf")!, decision: "allow",
    });
    const code = new URL(granted.headers.get("location")!).searchParams.get("code")!;
    // Not installed until the app completes the flow.
    expect(await (await browser.get(`${beta}${MARKET}`)).text()).toContain(">Install<");
    const tokens = await tokenRequest(beta, { client_id: "engage-console", client_secret: "sandbox-secret", grant_type: "authorization_code", code, redirect_uri: CALLBACK });
    expect(tokens.status).toBe(200);
    const market = await (await browser.get(`${beta}${MARKET}`)).text();
    expect(market).toContain(">Open<");
    expect(market).toContain("Installed apps");
    const open = await (await browser.get(`${beta}/application/mktapp/open?app=engage-console`)).text();
    expect(open).toMatch(/<iframe class="app-frame" title="Engage Console" src="http:\/\/localhost:3000\/\?openAppId=oa-beta-2d81b6a4"/);
    // Installed for beta's tenant only.
    const installations = await (await fetch(`${alpha}/__sandbox/installations`)).json();
    expect(installations.installations).toEqual([expect.objectContaining({ environment: "beta", tenantId: 80000000002, appId: "engage-console" })]);
  });

  it("an authorization without an Install click does not install", async () => {
    const res = await postJson(`${alpha}/__sandbox/authorize`, { environment: "alpha" });
    const code = new URL((await res.json()).callbackUrl).searchParams.get("code")!;
    await tokenRequest(alpha, { client_id: "engage-console", client_secret: "sandbox-secret", grant_type: "authorization_code", code, redirect_uri: CALLBACK });
    expect((await (await fetch(`${alpha}/__sandbox/installations`)).json()).installations).toEqual([]);
  });

  it("Open redirects to the marketplace when the app is not installed; uninstall works", async () => {
    const browser = new TestBrowser();
    await browser.login(alpha, "admin@alpha.test");
    const res = await browser.get(`${alpha}/application/mktapp/open?app=engage-console`);
    expect(res.status).toBe(302);
    await postJson(`${alpha}/__sandbox/installations`, { environment: "alpha", installed: true });
    const page = await (await browser.get(`${alpha}${MARKET}`)).text();
    expect(page).toContain(">Open<");
    await browser.postForm(`${alpha}/application/mktapp/uninstall`, { csrf: hiddenInput(page, "csrf")!, app: "engage-console" });
    expect(await (await browser.get(`${alpha}${MARKET}`)).text()).toContain(">Install<");
  });
});

describe("opening the app at a page (sandbox deep link ?path=)", () => {
  it("opens the given path of the app, with openAppId added and the path's own query kept", async () => {
    await postJson(`${alpha}/__sandbox/installations`, { environment: "alpha", installed: true });
    const browser = new TestBrowser();
    await browser.login(alpha, "admin@alpha.test");
    const page = await (await browser.get(`${alpha}/application/mktapp/open?app=engage-console&path=${encodeURIComponent("/customers?lang=zh-CN")}`)).text();
    expect(page).toContain('src="http://localhost:3000/customers?lang=zh-CN&amp;openAppId=oa-alpha-7f3c9e21"');
  });

  it("anything but a path on the app's origin opens the app's home", () => {
    for (const path of [undefined, "", "customers", "//evil.test/x", "/\\evil.test", "https://evil.test/"]) {
      expect(appPageUrl(CALLBACK, path).toString(), String(path)).toBe("http://localhost:3000/");
    }
    expect(appPageUrl(CALLBACK, "/customers/1").toString()).toBe("http://localhost:3000/customers/1");
  });
});

describe("admin pages for vendors", () => {
  it("the overview shows the environment's ids and domains but never the client secret", async () => {
    const browser = new TestBrowser();
    await browser.login(alpha, "admin@alpha.test");
    const page = await (await browser.get(`${alpha}/`)).text();
    expect(page).toContain("oa-alpha-7f3c9e21");
    expect(page).toContain(`${alpha}/extension`);
    expect(page).toContain(CALLBACK);
    expect(page).not.toContain("sandbox-secret");
  });

  it("the webhook page lists this tenant's deliveries, newest first, without secrets", async () => {
    const browser = new TestBrowser();
    await browser.login(alpha, "admin@alpha.test");
    expect(await (await browser.get(`${alpha}/developer/webhooks`)).text()).toContain("No deliveries yet");
    await postJson(`${alpha}/__sandbox/installations`, { environment: "alpha", installed: true });
    await postJson(`${alpha}/__sandbox/webhooks/config`, { url: "http://127.0.0.1:1/hook", maxAttempts: 1 });
    const sent = await postJson(`${alpha}/__sandbox/webhooks/send`, { environment: "alpha", resource: "tag", action: "created", id: "9007199254741001" });
    const [id] = (await sent.json()).queued;
    const page = await (await browser.get(`${alpha}/developer/webhooks`)).text();
    expect(page).toContain(id);
    expect(page).toContain("tag.created");
    expect(page).not.toContain("sandbox-webhook-secret");
    // Another tenant sees none of them.
    const other = new TestBrowser();
    await other.login(beta, "admin@beta.test");
    expect(await (await other.get(`${beta}/developer/webhooks`)).text()).toContain("No deliveries yet");
  });
});

describe("GET /extension/cloudinfo (§5.4.1, §8)", () => {
  async function token(environment = "alpha"): Promise<string> {
    return (await (await postJson(`${alpha}/__sandbox/cloudtokens`, { environment })).json()).getOpenAppIdToken;
  }

  it("answers for the environment that issued the token, and only on alpha", async () => {
    const t = await token("beta");
    expect((await fetch(`${beta}/extension/cloudinfo?token=${t}`)).status).toBe(404);
    const res = await cloudinfo(t);
    expect(await res.json()).toMatchObject({ openAppId: "oa-beta-2d81b6a4", authDomain: beta, apiDomain: beta, productVersion: "5.13.1" });
  });

  it("is single use", async () => {
    const t = await token();
    expect((await cloudinfo(t)).status).toBe(200);
    const again = await cloudinfo(t);
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error_code: "invalid_token", error_description: "token has already been used" });
  });

  it("is valid for 10 minutes of the sandbox clock", async () => {
    const fresh = await token();
    const old = await token();
    await postJson(`${alpha}/__sandbox/clock`, { advanceSeconds: 599 });
    expect((await cloudinfo(fresh)).status).toBe(200);
    await postJson(`${alpha}/__sandbox/clock`, { advanceSeconds: 1 });
    const res = await cloudinfo(old);
    expect(res.status).toBe(400);
    expect((await res.json()).error_code).toBe("expired_token");
  });

  it("rejects a missing or unknown token with a clear error", async () => {
    const missing = await fetch(`${alpha}/extension/cloudinfo`);
    expect(missing.status).toBe(400);
    expect((await missing.json()).error_code).toBe("invalid_request");
    expect((await cloudinfo("goat_nope")).status).toBe(400);
  });
});
