import { signedIn } from "@/lib/platform/testing/fake-session";
import { startTestSandbox } from "@/lib/platform/testing/sandbox";
import { sandboxCalls, sandboxToken } from "@/lib/platform/testing/sandbox-control";
import { silentLog } from "@/lib/platform/testing/silent-log";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { InstallationKey } from "@/lib/store/installations";
import { handleProxyRequest, type ProxyDeps } from "./proxy";

/**
 * The proxy end to end against the running Platform Sandbox: the browser's request → session →
 * installation token → platform, and back. Sessions and tokens are stand-ins for app-auth's
 * (`requireApiSession`, `getAccessToken`), with real tokens from the sandbox's control plane.
 */

const APP = "http://app.test";
const issued: string[] = [];

async function totalCalls(): Promise<number> {
  return Object.values(await sandboxCalls(control)).reduce((a, b) => a + b, 0);
}

async function callsOf(key: string): Promise<number> {
  return (await sandboxCalls(control))[key] ?? 0;
}

/** An installation per environment; its token comes from the sandbox, refreshed on demand. */
function makeDeps(environment: "alpha" | "beta", overrides: Partial<ProxyDeps> = {}) {
  const session: InstallationKey = { openAppId: `${environment}-app`, tenantId: environment === "alpha" ? "80000000001" : "80000000002" };
  let token: string | undefined;
  const refreshes: boolean[] = [];
  const deps: ProxyDeps = {
    requireSession: signedIn(session),
    getAccessToken: async (_key, options) => {
      refreshes.push(Boolean(options?.forceRefresh));
      if (!token || options?.forceRefresh) {
        token = await sandboxToken(control, environment);
        issued.push(token);
      }
      return { accessToken: token, apiUrl: sandbox.urls[environment]! };
    },
    isReauthRequired: () => false,
    log: silentLog,
    client: { retry: { baseDelayMs: 2, maxDelayMs: 10 } },
    ...overrides,
  };
  return { deps, refreshes };
}

const headers = { "x-engage-request": "1", origin: APP, "sec-fetch-site": "same-origin", "content-type": "application/json" };

function req(method: string, path: string, body?: string): Request {
  return new Request(`${APP}/api/platform${path}`, method === "GET" ? { headers: { origin: APP, "x-engage-request": "1" } } : { method, headers, body });
}

let alpha: ProxyDeps;
let beta: ProxyDeps;

const { sandbox, control } = await startTestSandbox();

beforeAll(async () => {
  alpha = makeDeps("alpha").deps;
  beta = makeDeps("beta").deps;
});
afterAll(() => sandbox.close());
afterEach(async () => {
  await control("/faults", { faults: [] });
});

describe("ids above 2^53 through the proxy", () => {
  it("survive create → read → update → read digit for digit", async () => {
    const created = await handleProxyRequest(req("POST", "/v1/customers", JSON.stringify({ name: "赵六", mobile: "13912345678" })), alpha);
    expect(created.status).toBe(201);
    const createdText = await created.text();
    const id = /"id":"(\d+)"/.exec(createdText)![1]!;
    expect(BigInt(id) > 2n ** 53n).toBe(true);
    // The digits as the browser sees them: a string, so JSON.parse cannot round them.
    expect(JSON.parse(createdText).id).toBe(id);

    const read = await handleProxyRequest(req("GET", `/v1/customers/${id}`), alpha);
    expect(JSON.parse(await read.text()).id).toBe(id);

    const update = await handleProxyRequest(req("PUT", `/v1/customers/${id}`, JSON.stringify({ remark: "digits" })), alpha);
    expect(update.status).toBe(200);
    expect(JSON.parse(await update.text()).id).toBe(id);

    const again = await handleProxyRequest(req("GET", `/v1/customers/${id}`), alpha);
    const body = JSON.parse(await again.text());
    expect(body).toMatchObject({ id, remark: "digits" });

    // And in a body: membership of that customer in a new list, ids as JSON integers from the browser.
    const list = JSON.parse(await (await handleProxyRequest(req("POST", "/v1/lists", '{"name":"digits"}'), alpha)).text());
    const member = await handleProxyRequest(req("POST", "/v1/listMembers", `{"data":{"customerId":${id},"listId":${list.id}}}`), alpha);
    expect(JSON.parse(await member.text()).data).toMatchObject({ customerId: id, listId: list.id });
  });
});

describe("proxy security against the sandbox", () => {
  it("keeps tenants apart: a beta session cannot read or change alpha's customer", async () => {
    const created = JSON.parse(await (await handleProxyRequest(req("POST", "/v1/customers", '{"name":"alpha only","email":"iso@alpha.test"}'), alpha)).text());
    const read = await handleProxyRequest(req("GET", `/v1/customers/${created.id}`), beta);
    expect(read.status).toBe(404);
    const write = await handleProxyRequest(req("PUT", `/v1/customers/${created.id}`, '{"remark":"hijacked"}'), beta);
    expect(write.status).not.toBe(200);
    const del = await handleProxyRequest(req("DELETE", `/v1/customers/${created.id}`), beta);
    expect(del.status).not.toBe(204);
    const still = JSON.parse(await (await handleProxyRequest(req("GET", `/v1/customers/${created.id}`), alpha)).text());
    expect(still.remark ?? null).toBeNull();
    const listed = JSON.parse(await (await handleProxyRequest(req("GET", `/v1/customers?idList=${created.id}`), beta)).text());
    expect(listed.rows).toEqual([]);
  });

  it("sends nothing upstream for bad input: outside the table, cross-site, malformed JSON, wrong types, oversize", async () => {
    const before = await totalCalls();
    const cases: Array<[Request, number]> = [
      [req("GET", "/v1/not/an/operation"), 404],
      [new Request(`${APP}/api/platform/v1/lists`, { method: "POST", headers: { ...headers, origin: "http://evil.test", "sec-fetch-site": "cross-site" }, body: '{"name":"x"}' }), 403],
      [new Request(`${APP}/api/platform/v1/lists`, { method: "POST", headers: { origin: APP, "content-type": "application/json" }, body: '{"name":"x"}' }), 403],
      [req("POST", "/v1/lists", '{"name":'), 400],
      [req("POST", "/v1/lists", '{"name":42}'), 422],
      [req("POST", "/v1/tags", JSON.stringify({ name: "x".repeat(33), dimension: "basic" })), 422],
      [req("GET", "/v1/customers?rows=-1"), 422],
      [req("GET", "/v1/customers/12abc"), 422],
      [req("POST", "/v1/lists", JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) })), 413],
    ];
    for (const [request, status] of cases) {
      const res = await handleProxyRequest(request, alpha);
      expect(res.status, `${request.method} ${request.url}`).toBe(status);
      const error = (await res.json()).error;
      expect(error.message).toBeTruthy();
      expect(error.requestId).toBe(res.headers.get("x-request-id"));
    }
    expect(await totalCalls()).toBe(before);
  });

  it("never returns an access or refresh token in a body or header", async () => {
    const responses = await Promise.all([
      handleProxyRequest(req("GET", "/v1/customers?rows=5"), alpha),
      handleProxyRequest(req("GET", "/v1/customers/1"), alpha),
      handleProxyRequest(req("GET", "/v1/users/current"), alpha),
      handleProxyRequest(req("POST", "/v1/lists", '{"name":"t"}'), alpha),
    ]);
    for (const res of responses) {
      const text = await res.text();
      for (const token of issued) {
        expect(text).not.toContain(token);
        for (const [, value] of res.headers) expect(value).not.toContain(token);
      }
      expect(text).not.toMatch(/\b(at|rt)_[A-Za-z0-9_-]{16,}/);
    }
  });

  it("refreshes an expired token once, transparently", async () => {
    const { deps, refreshes } = makeDeps("alpha");
    expect((await handleProxyRequest(req("GET", "/v1/customers?rows=1"), deps)).status).toBe(200);
    await control("/clock", { advanceSeconds: 7201 }); // §8: access tokens live 7200 s
    try {
      expect((await handleProxyRequest(req("GET", "/v1/customers?rows=1"), deps)).status).toBe(200);
      expect(refreshes).toEqual([false, false, true]);
    } finally {
      await control("/clock", { advanceSeconds: -7201 });
    }
  });
});

describe("upstream faults through the proxy (/__sandbox/faults)", () => {
  it("reads succeed through retries at a 20 % 503 rate with latency", async () => {
    await control("/faults", { faults: [{ path: "/v1/customers", method: "GET", errorRate: 0.2, status: 503, latencyMs: 5 }] });
    const deps: ProxyDeps = { ...alpha, client: { retry: { baseDelayMs: 2, maxDelayMs: 10, maxAttempts: 8 } } };
    const before = await callsOf("GET /v1/customers");
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await handleProxyRequest(req("GET", "/v1/customers?rows=5"), deps)).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    // Faults fired and were retried: more calls than reads (all 30 passing first time has p = 0.8^30 ≈ 0.1 %).
    expect(await callsOf("GET /v1/customers")).toBeGreaterThan(before + 30);
  });

  it("writes are not duplicated: each create reaches the platform exactly once", async () => {
    await control("/faults", { faults: [{ path: "/v1/lists", method: "POST", errorRate: 0.2, status: 503 }] });
    const before = await callsOf("POST /v1/lists");
    const names = Array.from({ length: 25 }, (_, i) => `fault-${Date.now()}-${i}`);
    const statuses: number[] = [];
    for (const name of names) statuses.push((await handleProxyRequest(req("POST", "/v1/lists", JSON.stringify({ name })), alpha)).status);
    expect(await callsOf("POST /v1/lists")).toBe(before + names.length);
    expect(statuses.every((s) => s === 200 || s === 502)).toBe(true);
    await control("/faults", { faults: [] });
    const lists = JSON.parse(await (await handleProxyRequest(req("GET", "/v1/lists?rows=1000"), alpha)).text()) as { rows: Array<{ name: string }> };
    const created = lists.rows.filter((l) => names.includes(l.name)).map((l) => l.name);
    expect(new Set(created).size).toBe(created.length);
    expect(created.length).toBe(statuses.filter((s) => s === 200).length);
  });
});
