import { afterAll, beforeEach } from "vitest";
import { loadSandboxConfig } from "../config";
import { startSandbox, type RunningSandbox } from "../server";

/**
 * A sandbox on free ports with an in-memory database, for integration tests. Both environments
 * follow the spec unless `env` says otherwise (conformance tests use beta as "another environment";
 * the observed profile has tests of its own).
 */
export function startTestSandbox(env: Record<string, string> = {}): Promise<RunningSandbox> {
  return startSandbox({
    ...loadSandboxConfig({ SANDBOX_ALPHA_PORT: "0", SANDBOX_BETA_PORT: "0", SANDBOX_BETA_PROFILE: "spec", ...env }),
    dbFile: ":memory:",
  });
}

/**
 * The test sandbox of a test file (`const { alpha } = await startSandboxForFile()` at the top): closed
 * after the file's tests; with `reset`, reset to its base data before each test.
 */
export async function startSandboxForFile(options: { reset?: boolean } = {}): Promise<{ sandbox: RunningSandbox; alpha: string; beta: string }> {
  const sandbox = await startTestSandbox();
  afterAll(() => sandbox.close());
  const alpha = sandbox.urls.alpha!;
  if (options.reset) {
    beforeEach(async () => {
      await fetch(`${alpha}/__sandbox/reset`, { method: "POST" });
    });
  }
  return { sandbox, alpha, beta: sandbox.urls.beta! };
}

/**
 * A minimal browser for server-rendered pages: keeps cookies per host (like a browser, cookies
 * ignore ports) and does not follow redirects, so tests can look at every hop.
 */
export class TestBrowser {
  private readonly cookies = new Map<string, Map<string, string>>();

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const host = new URL(url).hostname;
    const jar = this.cookies.get(host);
    const headers = new Headers(init.headers);
    if (jar?.size) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const hostJar = this.cookies.get(host) ?? new Map<string, string>();
      if (value === "" || /max-age=0/i.test(line)) hostJar.delete(name);
      else hostJar.set(name, value);
      this.cookies.set(host, hostJar);
    }
    return res;
  }

  get(url: string): Promise<Response> {
    return this.request(url);
  }

  postForm(url: string, form: Record<string, string>): Promise<Response> {
    return this.request(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    });
  }

  /** Signs in as the given staff on the environment's origin. */
  async login(origin: string, email: string, password = "sandbox"): Promise<Response> {
    return this.postForm(`${origin}/login`, { email, password, next: "/" });
  }
}

/** Reads the value of a hidden input from a server-rendered form. */
export function hiddenInput(page: string, name: string): string | undefined {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(page);
  return match?.[1]?.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

export async function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

export async function tokenRequest(origin: string, form: Record<string, string>): Promise<Response> {
  return fetch(`${origin}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });
}
