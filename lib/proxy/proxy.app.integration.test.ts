import { afterAll, beforeAll, expect, it } from "vitest";
import { APP_URL, configureApp, TestBrowser } from "@/lib/auth/testing/harness";
import { openSqliteTestStore, type TestStore } from "@/lib/store/testing";
import { loadSandboxConfig } from "@/sandbox/config";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { platformProxy } from "./proxy-deps";
import { sandboxControl } from "@/lib/platform/testing/sandbox-control";

/**
 * The proxy as the app wires it (`proxy-deps.ts`): real sessions and installation tokens of
 * app-auth, installed through the Platform Sandbox in two environments, one browser each.
 */

let sandbox: RunningSandbox;
let t: TestStore;
const alphaStaff = new TestBrowser();
const betaStaff = new TestBrowser();

const control = sandboxControl(() => sandbox.urls.alpha!);

/** The marketplace install of §5.2.1, the sandbox's control plane standing in for the staff's clicks. */
async function install(browser: TestBrowser, environment: "alpha" | "beta"): Promise<void> {
  const origin = sandbox.urls[environment]!;
  const { getOpenAppIdToken } = await control<{ getOpenAppIdToken: string }>("/cloudtokens", { environment });
  const entry = await browser.request(`/api/auth/callback?redirectUrl=x&getOpenAppIdToken=${encodeURIComponent(getOpenAppIdToken)}`, {
    headers: { referer: `${origin}/application/mktapp/index.html` },
  });
  const authorize = new URL(entry.headers.get("location")!);
  const { callbackUrl } = await control<{ callbackUrl: string }>("/authorize", {
    environment,
    redirect_uri: authorize.searchParams.get("redirect_uri"),
    state: authorize.searchParams.get("state"),
    install: true,
  });
  const done = await browser.returnTo(callbackUrl);
  expect(done.status).toBe(200);
}

function call(browser: TestBrowser | undefined, method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = {};
  if (browser) headers.cookie = browser.cookieHeader();
  Object.assign(headers, { "x-engage-request": "1" });
  if (method !== "GET") Object.assign(headers, { origin: APP_URL, "content-type": "application/json" });
  return platformProxy(new Request(`${APP_URL}/api/platform${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
}

beforeAll(async () => {
  sandbox = await startSandbox({ ...loadSandboxConfig({ SANDBOX_ALPHA_PORT: "0", SANDBOX_BETA_PORT: "0", SANDBOX_APP_URL: APP_URL }), dbFile: ":memory:" });
  t = await openSqliteTestStore();
  configureApp([{ origin: sandbox.urls.alpha! }, { origin: sandbox.urls.beta! }], t.store);
  await install(alphaStaff, "alpha");
  await install(betaStaff, "beta");
});
afterAll(async () => {
  await t?.cleanup();
  await sandbox?.close();
});

it("answers 401 reauth_required with the start redirect when there is no session (§5.2.9)", async () => {
  const res = await call(undefined, "GET", "/v1/customers?rows=1");
  expect(res.status).toBe(401);
  expect((await res.json()).error).toMatchObject({ code: "reauth_required", redirect: expect.stringContaining("/api/auth/start") });
});

it("reads the session's user through the installation's token", async () => {
  const res = await call(alphaStaff, "GET", "/v1/users/current");
  expect(res.status).toBe(200);
  expect((await res.json()).tenantId).toBe("80000000001");
});

it("keeps tenants apart with real sessions: beta's staff cannot read alpha's customer", async () => {
  const created = await call(alphaStaff, "POST", "/v1/customers", { name: "只属于阿尔法", email: "only@alpha.test" });
  expect(created.status).toBe(201);
  const text = await created.text();
  const { id } = JSON.parse(text) as { id: string };
  expect(BigInt(id) > 2n ** 53n).toBe(true);
  expect((await call(alphaStaff, "GET", `/v1/customers/${id}`)).status).toBe(200);
  expect((await call(betaStaff, "GET", `/v1/customers/${id}`)).status).toBe(404);
  // Neither the session cookie's owner nor anybody else sees a platform token.
  expect(text).not.toMatch(/\b(at|rt)_[A-Za-z0-9_-]{16,}/);
});
