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

  /** Follows a start redirect to the platform's authorize (which consents at once) and back to the callback. */
  async authorizeFrom(start: Response, headers: Record<string, string> = {}): Promise<{ callbackUrl: string; response: Response }> {
    const authorizeUrl = start.headers.get("location");
    if (start.status !== 302 || !authorizeUrl) throw new Error(`no redirect to authorize (HTTP ${start.status})`);
    const authorize = await this.request(authorizeUrl);
    const callbackUrl = authorize.headers.get("location");
    if (!callbackUrl) throw new Error(`authorize did not redirect (HTTP ${authorize.status})`);
    return { callbackUrl, response: await this.request(callbackUrl, { headers }) };
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
