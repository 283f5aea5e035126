import { randomBytes } from "node:crypto";
import { resetEnvForTests } from "@/lib/env";
import { setStoreForTests, type Store } from "@/lib/store";
import { handleCallback, handleLogout, handleStart } from "../flow-handlers";
import type { FakePlatform } from "./fake-platform";

export const APP_URL = "http://localhost:3310";
export const CLIENT = { clientId: "engage-console", clientSecret: "sandbox-secret" };

/** Points the app's settings at a fake platform (or several) and a test store. */
export function configureApp(platforms: Array<Pick<FakePlatform, "origin">>, store: Store, extra: Record<string, string> = {}): void {
  const first = platforms[0]!;
  Object.assign(process.env, {
    APP_URL,
    PLATFORM_AUTH_URL: first.origin,
    PLATFORM_API_URL: first.origin,
    PLATFORM_EXTENSION_URL: `${first.origin}/extension`,
    PLATFORM_CLIENT_ID: CLIENT.clientId,
    PLATFORM_CLIENT_SECRET: CLIENT.clientSecret,
    PLATFORM_APP_ID: "engage-console",
    PLATFORM_DOMAIN_ALLOWLIST: platforms.map((p) => p.origin).join(","),
    DEPLOYMENT_MODE: "public",
    SESSION_PASSWORD: process.env.SESSION_PASSWORD ?? randomBytes(32).toString("base64url"),
    TOKEN_ENCRYPTION_KEY: `t1:${store.tokenKeys[0]!.key.toString("base64")}`,
    ...extra,
  });
  resetEnvForTests();
  setStoreForTests(store);
}

/** The JSON data element of a hand-off page. */
export function pageData<T = Record<string, unknown>>(html: string): T | undefined {
  const match = /<script type="application\/json" id="ec-data">([\s\S]*?)<\/script>/.exec(html);
  return match ? (JSON.parse(match[1]!) as T) : undefined;
}

/** The hidden fields of the callback's post page (`<form id="ec-form">`), or undefined for another page. */
export function formFields(html: string): Array<[string, string]> | undefined {
  const form = /<form id="ec-form"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) return undefined;
  const unescape = (v: string) => v.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  return [...form[1]!.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [unescape(m[1]!), unescape(m[2]!)]);
}

/** The verifier in a URL's fragment (`#ecv=`), as the return page's script reads it. */
export function verifierOf(url: string): string | undefined {
  const hash = url.indexOf("#");
  return hash < 0 ? undefined : (new URLSearchParams(url.slice(hash + 1)).get("ecv") ?? undefined);
}

/** The one-time id of a "Continue as …?" page, or undefined for another page. */
export function confirmIdOf(html: string): string | undefined {
  return /<input type="hidden" name="confirm" value="([^"]*)">/.exec(html)?.[1];
}

/** A browser that keeps cookies and sends app requests straight to the route handlers. */
export class TestBrowser {
  cookies = new Map<string, string>();
  setCookieHeaders: string[] = [];
  refuseCookies = false;

  private store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      this.setCookieHeaders.push(header);
      if (this.refuseCookies) continue;
      const [pair] = header.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/;\s*Max-Age=0/i.test(header) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async request(url: string, init: { method?: string; headers?: Record<string, string>; body?: BodyInit } = {}): Promise<Response> {
    const full = new URL(url, APP_URL);
    if (full.origin !== APP_URL) {
      return fetch(full, { method: init.method, headers: init.headers, body: init.body, redirect: "manual" });
    }
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set("cookie", this.cookieHeader());
    const request = new Request(full, { method: init.method ?? "GET", headers, body: init.body });
    const handler = full.pathname === "/api/auth/callback" ? handleCallback : full.pathname === "/api/auth/start" ? handleStart : full.pathname === "/api/auth/logout" ? handleLogout : undefined;
    if (!handler) throw new Error(`no handler for ${full.pathname}`);
    const response = await handler(request);
    this.store(response);
    return response;
  }

  /**
   * Follows a start redirect to the platform's authorize (which consents at once) and back to the
   * callback as a browser does: the start's fragment (the verifier) carries over the platform's
   * redirect, the return page posts, and the callback's one restart is followed.
   */
  async authorizeFrom(start: Response, headers: Record<string, string> = {}): Promise<{ callbackUrl: string; response: Response }> {
    const authorizeUrl = start.headers.get("location");
    if (start.status !== 302 || !authorizeUrl) throw new Error(`no redirect to authorize (HTTP ${start.status})`);
    const authorize = await this.request(authorizeUrl);
    let callbackUrl = authorize.headers.get("location");
    if (!callbackUrl) throw new Error(`authorize did not redirect (HTTP ${authorize.status})`);
    if (!callbackUrl.includes("#")) callbackUrl += new URL(authorizeUrl).hash;
    return { callbackUrl, response: await this.returnTo(callbackUrl, headers) };
  }

  /** The platform's redirect back to the callback, and what the browser then does (restart, or the page's post). */
  async returnTo(callbackUrl: string, headers: Record<string, string> = {}): Promise<Response> {
    const page = await this.request(callbackUrl, { headers });
    const restart = page.status === 302 ? page.headers.get("location") : null;
    if (restart?.startsWith("/api/auth/start")) return (await this.authorizeFrom(await this.request(restart, { headers }), headers)).response;
    const fields = formFields(await page.clone().text());
    return fields ? this.postReturn(fields, verifierOf(callbackUrl), headers) : page;
  }

  /** What the return page's script does: the return's fields plus the fragment's verifier, posted same-origin. */
  async postReturn(fields: Array<[string, string]>, verifier: string | undefined, headers: Record<string, string> = {}): Promise<Response> {
    const body = new URLSearchParams(fields);
    if (verifier) body.set("verifier", verifier);
    return this.request("/api/auth/callback", {
      method: "POST",
      headers: { origin: APP_URL, "content-type": "application/x-www-form-urlencoded", ...headers },
      body: body.toString(),
    });
  }

  /** Answers a "Continue as …?" page (its Continue or Cancel button), as the user does. */
  async answer(confirmation: Response, decision: "continue" | "cancel", headers: Record<string, string> = {}): Promise<Response> {
    const id = confirmIdOf(await confirmation.text());
    if (!id) throw new Error(`not a confirmation page (HTTP ${confirmation.status})`);
    return this.postReturn([["confirm", id], ["decision", decision]], undefined, headers);
  }

  /** The marketplace install of §5.2.1: entry → authorize → return. */
  async install(platform: FakePlatform): Promise<{ entry: Response; callbackUrl: string; response: Response }> {
    const entry = await this.request(`/api/auth/callback?redirectUrl=${encodeURIComponent(`${platform.origin}/market`)}&getOpenAppIdToken=${platform.installToken()}`, {
      headers: { referer: `${platform.origin}/application/mktapp/index.html` },
    });
    const { callbackUrl, response } = await this.authorizeFrom(entry);
    return { entry, callbackUrl, response };
  }
}
