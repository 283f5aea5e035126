import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_URL, configureApp, TestBrowser } from "@/lib/auth/testing/harness";
import { setStoreForTests } from "@/lib/store";
import { testDialects, warnIfPostgresSkipped, type TestStore } from "@/lib/store/testing";
import { loadSandboxConfig } from "@/sandbox/config";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { problemResponse, requestProblem } from "./request-guard";

/**
 * The signed-in half of the seeded fuzz (e2e/auth-hardening.spec.ts is the signed-out half, over
 * HTTP): every route handler of `app/api`, as the app wires it, called in-process with a real
 * session (installed through this test's own Platform Sandbox, so mutations disturb no other test)
 * and the CSRF proof, once on SQLite and once on PostgreSQL. Bad input, NUL bytes included, is a
 * 4xx on both stores: no answer is ≥ 500. The Node request guard runs first, as in front of
 * `next start`. `FUZZ_SEED` replays a run; `API_FUZZ_RUNS` (default 1000 per store) sets its size.
 */

warnIfPostgresSkipped("the signed-in API fuzz");

type Handler = (request: Request) => Promise<Response> | Response;
type RouteModule = Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", Handler>>;
type Route = { pattern: string; matcher: RegExp; module: RouteModule };

const API_DIR = path.resolve("app/api");
/** Ends the session the rest of the run needs: asked once at the end instead. */
const LAST = new Set(["/api/auth/logout"]);

/** Every route handler file under app/api, with the pattern Next serves it at (`[x]` one segment, `[...x]` the rest). */
function routeFiles(): Array<{ pattern: string; file: string }> {
  const found: Array<{ pattern: string; file: string }> = [];
  const walk = (dir: string, segments: string[]) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full, [...segments, name]);
      else if (/^route\.tsx?$/.test(name)) found.push({ pattern: `/api/${segments.join("/")}`, file: full });
    }
  };
  walk(API_DIR, []);
  return found.sort((a, b) => a.pattern.localeCompare(b.pattern));
}

const matcherOf = (pattern: string) =>
  new RegExp(`^${pattern.replace(/\[\.\.\.[^\]]+\]/g, "\u0001").replace(/\[[^\]]+\]/g, "\u0002").replace(/[.*+?^${}()|\\]/g, "\\$&").replace(/\u0001/g, ".+").replace(/\u0002/g, "[^/]+")}$`);

/** The route Next would pick: literal segments before holes. */
function routeFor(routes: Route[], pathname: string): Route | undefined {
  return routes.filter((r) => r.matcher.test(pathname)).sort((a, b) => a.pattern.split("[").length - b.pattern.split("[").length)[0];
}

let sandbox: RunningSandbox;
let routes: Route[];

async function control(pathname: string, body: unknown): Promise<Record<string, string>> {
  const res = await fetch(`${sandbox.urls.alpha}/__sandbox${pathname}`, { method: "POST", body: JSON.stringify(body) });
  return (await res.json()) as Record<string, string>;
}

/** The marketplace install of §5.2.1 for one browser, the sandbox's control plane standing in for the staff's clicks. */
async function signIn(browser: TestBrowser): Promise<string> {
  const { getOpenAppIdToken } = await control("/cloudtokens", { environment: "alpha" });
  const entry = await browser.request(`/api/auth/callback?redirectUrl=x&getOpenAppIdToken=${encodeURIComponent(getOpenAppIdToken!)}`, {
    headers: { referer: `${sandbox.urls.alpha}/application/mktapp/index.html` },
  });
  const authorize = new URL(entry.headers.get("location")!);
  const { callbackUrl } = await control("/authorize", { environment: "alpha", redirect_uri: authorize.searchParams.get("redirect_uri"), state: authorize.searchParams.get("state"), install: true });
  const done = await browser.returnTo(callbackUrl!);
  expect(done.status).toBe(200);
  const data = /id="ec-data"[^>]*>([^<]*)</.exec(await done.text());
  return (JSON.parse(data![1]!) as { openAppId: string }).openAppId;
}

beforeAll(async () => {
  sandbox = await startSandbox({ ...loadSandboxConfig({ SANDBOX_ALPHA_PORT: "0", SANDBOX_BETA_PORT: "0", SANDBOX_APP_URL: APP_URL }), dbFile: ":memory:" });
  // The app as it starts (instrumentation.ts): features subscribed, their background tasks defined.
  (await import("@/lib/composition")).registerFeatures();
  routes = [];
  for (const { pattern, file } of routeFiles()) routes.push({ pattern, matcher: matcherOf(pattern), module: (await import(file)) as RouteModule });
});
afterAll(async () => {
  setStoreForTests(undefined);
  await sandbox?.close();
});

const NUL = "\u0000";
const segment = fc.oneof(
  fc.constantFrom("1", "0", "-1", "9007199254740993123", "99999999999999999999999", "abc", "..", "%2e%2e", "%ff", "%", "%E4%B8%AD", "%00", "a%2Fb", "SO%201%2F2", "v1", "customers", "lists", ""),
  fc.string({ maxLength: 12 }).map((s) => encodeURIComponent(s)),
);
const queryKey = fc.oneof(
  fc.constantFrom("q", "orderNo", "openAppId", "after", "limit", "ids", "page", "rows", "sort", "order", "state", "tag", "stage", "lang", "appid", "secret", "grant_type", "access_token", "sig"),
  fc.string({ maxLength: 6 }),
);
const queryValue = fc.oneof(
  fc.constantFrom("", "1", "-1", "1e9", "%ff", "%E4%B8%AD", "%00", "%00ab", "a%00", "zh-CN", "//evil.example", "a".repeat(300), "true", "asc", "seen"),
  fc.string({ maxLength: 20 }).map((s) => encodeURIComponent(s)),
);
/** Bodies a route reads: random JSON, broken JSON, and the shapes of the app's own writes with NUL where text goes. */
const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 2 }),
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    "{",
    "[]",
    "null",
    JSON.stringify({ requestKey: "fuzz-key-0001", name: `组${NUL}`, remark: "r", shopIds: ["1"] }),
    JSON.stringify({ requestKey: "fuzz-key-0002", shopInfoAll: { business: { base_info: { sid: `S${NUL}`, business_name: "b" } } } }),
    JSON.stringify({ requestKey: "fuzz-key-0003", refund: { orderNo: `SO${NUL}1`, state: "完全退单", reason: `r${NUL}` } }),
    JSON.stringify({ key: "attrLabels", value: { attr1: `a${NUL}` } }),
    JSON.stringify({ key: "customerColumns", value: [`name${NUL}`] }),
    JSON.stringify({ deliveryId: `d${NUL}1`, event: `customer.updated${NUL}`, tenantId: "1", openAppId: "oa", data: { name: `n${NUL}` } }),
    JSON.stringify({ id: "9007199254740993", name: `名${NUL}` }),
    JSON.stringify({ name: `list${NUL}` }),
    JSON.stringify({ files: [`a${NUL}.jpg`] }),
    JSON.stringify({ events: [{ type: `t${NUL}` }] }),
    JSON.stringify({ "\ud800": 1 }),
  ),
);
const requestArb = fc.record({
  method: fc.constantFrom("GET", "GET", "GET", "POST", "POST", "PUT", "PATCH", "DELETE", "HEAD"),
  route: fc.nat(),
  holes: fc.array(segment, { minLength: 3, maxLength: 3 }),
  query: fc.array(fc.tuple(queryKey, queryValue), { maxLength: 4 }),
  contentType: fc.constantFrom("application/json", "application/json", "text/plain", "application/x-www-form-urlencoded"),
  body,
});

for (const dialect of testDialects) {
  describe.skipIf(!dialect.enabled)(`signed-in API fuzz on ${dialect.name}`, () => {
    let t: TestStore;
    beforeAll(async () => {
      t = await dialect.open();
      // Unauthenticated webhooks, so fuzzed deliveries reach the inbox; no background index sync.
      configureApp([{ origin: sandbox.urls.alpha! }, { origin: sandbox.urls.beta! }], t.store, { WEBHOOK_AUTH_MODE: "none", CUSTOMER_INDEX_SYNC: "off" });
    });
    afterAll(() => t?.cleanup());

    it("every route, with a real session and the CSRF proof: no answer ≥ 500", async () => {
      const browser = new TestBrowser();
      const openAppId = await signIn(browser);
      const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
      const runs = Number(process.env.API_FUZZ_RUNS ?? 1000);
      const patterns = routes.map((r) => r.pattern);
      expect(patterns.length).toBeGreaterThan(15);
      const headers = {
        cookie: browser.cookieHeader(),
        "x-open-app-id": openAppId,
        "x-engage-request": "1",
        origin: APP_URL,
        "sec-fetch-site": "same-origin",
      };

      const statuses = new Map<number, number>();
      const failures: string[] = [];
      const send = async (method: string, target: string, text: string | undefined, contentType: string) => {
        const problem = requestProblem(method, target);
        let response: Response;
        if (problem) response = problemResponse(problem);
        else {
          const url = new URL(target, APP_URL);
          const route = routeFor(routes, url.pathname);
          const handler = route?.module[(method === "HEAD" ? "GET" : method) as keyof RouteModule];
          // What Next answers itself: no route (404), a method the route does not export (405).
          if (!route || !handler) return;
          const init: RequestInit = { method, headers: { ...headers, ...(text !== undefined ? { "content-type": contentType } : {}) }, body: text };
          response = await handler(new Request(url, init));
        }
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status >= 500) failures.push(`${response.status} ${method} ${target}: ${(await response.text()).slice(0, 200)}`);
        else await response.body?.cancel();
      };

      // The red team's finds first, every run: text PostgreSQL cannot store, where each route reads it.
      const json = (value: unknown) => JSON.stringify(value);
      const refund = { orderNo: "SO000001415", state: "完全退单", refundTotal: 1, reason: "r" };
      for (const [method, target, text] of [
        ["GET", "/api/orders/refunds?orderNo=%00", undefined],
        ["DELETE", "/api/orders/refunds?orderNo=%00", undefined],
        ["GET", "/api/shops?q=%00", undefined],
        ["GET", "/api/search/customers?q=%00ab", undefined],
        ["POST", "/api/orders/refunds", json({ requestKey: "fuzz-refund-1", refund: { ...refund, reason: `r${NUL}` } })],
        ["POST", "/api/orders/refunds", json({ requestKey: "fuzz-refund-2", refund: { ...refund, orderNo: `SO${NUL}` } })],
        ["POST", "/api/shop-groups", json({ requestKey: "fuzz-group-1", name: `组${NUL}`, remark: "r", shopIds: ["1"] })],
        ["POST", "/api/shops", json({ requestKey: "fuzz-shop-1", shopInfoAll: { business: { base_info: { sid: "S-NUL", business_name: `店${NUL}` } } } })],
        ["PUT", "/api/preferences", json({ key: "attrLabels", value: { attr1: `a${NUL}` } })],
        ["POST", "/api/webhooks/platform", json({ deliveryId: `d${NUL}1`, event: "customer.updated", openAppId, tenantId: "1" })],
      ] as const) {
        await send(method, target, text, "application/json");
      }

      const samples = fc.sample(requestArb, { seed, numRuns: runs });
      const started = Date.now();
      let next = 0;
      const worker = async () => {
        while (next < samples.length) {
          const r = samples[next++]!;
          const pattern = patterns[r.route % patterns.length]!;
          if (LAST.has(pattern)) continue;
          let hole = 0;
          const sendable = (text: string) => text.replace(/[^\x21-\x7e]/gu, (c) => (c.length === 1 && c >= "\ud800" && c <= "\udfff" ? "%3F" : encodeURIComponent(c)));
          const pathname = pattern.replace(/\[(?:\.\.\.)?[^\]]+\]/g, () => sendable(r.holes[hole++ % 3] || "x"));
          const query = r.query.map(([k, v]) => `${encodeURIComponent(k)}=${sendable(v)}`).join("&");
          const hasBody = r.body !== undefined && !["GET", "HEAD"].includes(r.method);
          try {
            await send(r.method, `${pathname}${query ? `?${query}` : ""}`, hasBody ? String(r.body) : undefined, r.contentType);
          } catch (error) {
            failures.push(`threw: ${r.method} ${pathname}: ${(error as Error).message}`);
          }
        }
      };
      await Promise.all(Array.from({ length: 4 }, worker));
      // The session's end last: sign-out answers, then the session is gone.
      await send("POST", `/api/auth/logout?openAppId=${openAppId}`, undefined, "application/json");
      const summary = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(" ");
      const ran = `${dialect.name}: seed ${seed} (replay: FUZZ_SEED=${seed}), ${samples.length} requests in ${((Date.now() - started) / 1000).toFixed(1)} s; statuses ${summary}`;
      expect(failures.slice(0, 20), ran).toEqual([]);
      // The run reached the routes signed in, not only their refusals.
      expect([...statuses.keys()].some((s) => s >= 200 && s < 300), ran).toBe(true);
    }, 300_000);
  });
}
