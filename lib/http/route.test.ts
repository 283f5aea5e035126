import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError, ReauthRequiredError } from "@/lib/http/api-error";
import type { AppOperation } from "./define-operations";
import { PlatformError } from "@/lib/platform/errors";
import { apiRoute, type RouteDeps } from "./route";

const URL_ = "http://app.test/api/thing";
const SAME_ORIGIN = { "x-engage-request": "1", origin: "http://app.test" };

function deps(overrides: Partial<RouteDeps> = {}) {
  const lines: Array<Record<string, unknown>> = [];
  const push = (level: string) => (obj: object, msg?: string) => void lines.push({ ...obj, level, msg });
  const session = { openAppId: "alpha-app", tenantId: "1" };
  return {
    lines,
    deps: { log: { info: push("info"), warn: push("warn"), error: push("error") }, requireSession: async () => ({ ok: true as const, session }), ...overrides } satisfies RouteDeps,
  };
}

/** A request as the browser client sends it: with the app's header (a session-bearing GET needs it). */
const appRequest = (init: RequestInit = {}) => new Request(URL_, { ...init, headers: { "x-engage-request": "1", ...(init.headers as Record<string, string> | undefined) } });

/** A route of the table as the tests need it: `/api/thing`, its policy and schemas. */
const thing = (over: Partial<AppOperation> = {}) =>
  ({ name: "health", method: "GET", path: "/api/thing", resource: "api", access: "public", csrf: "writes", answer: "json", invalidates: [], summary: "a thing", ...over }) as AppOperation<"health">;

const failWith = (error: unknown) => apiRoute({ name: "thing", op: "thing.do", operation: thing({ access: "session" }) }, async () => Promise.reject(error));

describe("apiRoute: one error shape", () => {
  it("answers an ApiError as {error: {code, message, fieldErrors?, requestId}} with its status and headers, never cached", async () => {
    const { deps: d } = deps();
    const error = new ApiError({ status: 429, code: "slow_down", message: "later", fieldErrors: [{ field: "a", message: "b" }], retryAfterSeconds: 7, headers: { allow: "GET" } });
    const res = await failWith(error)(appRequest({ headers: { "x-request-id": "req-12345678" } }), d);
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ error: { code: "slow_down", message: "later", fieldErrors: [{ field: "a", message: "b" }], requestId: "req-12345678" } });
    expect(Object.fromEntries(res.headers)).toMatchObject({
      "cache-control": "no-store",
      "content-type": "application/json; charset=utf-8",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
      "referrer-policy": "no-referrer",
      "x-request-id": "req-12345678",
      "retry-after": "7",
      allow: "GET",
    });
  });

  it("carries the redirect of a reauth error, and leaves out empty field errors", async () => {
    const res = await failWith(new ReauthRequiredError({ message: "sign in", redirect: "/api/auth/start" }))(appRequest(), deps().deps);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: "reauth_required", message: "sign in", redirect: "/api/auth/start", requestId: res.headers.get("x-request-id") } });
  });

  it("maps platform errors by kind, and the installation's lost authorization to 401 with the §5.2.9 redirect", async () => {
    const d = deps({ isReauthRequired: (e) => e === "gone", reauthRedirect: (id) => `/start/${id}` }).deps;
    const timeout = await failWith(PlatformError.timeout(50))(appRequest(), d);
    expect([timeout.status, (await timeout.json()).error.code]).toEqual([504, "timeout"]);
    const refused = await failWith(new PlatformError({ kind: "auth", code: "invalid_token", message: "bad token at_x" }))(appRequest(), d);
    expect(await refused.json()).toMatchObject({ error: { code: "reauth_required", redirect: "/start/alpha-app" } });
    const gone = await failWith("gone")(appRequest(), d);
    expect([gone.status, (await gone.json()).error.redirect]).toEqual([401, "/start/alpha-app"]);
  });

  it("answers anything else 500 (or 503 with Retry-After when `unavailable`), logging only the error's name and message", async () => {
    const { deps: d, lines } = deps();
    const bug = Object.assign(new TypeError("boom"), { token: "at_secret" });
    const res = await failWith(bug)(appRequest(), d);
    expect([res.status, (await res.json()).error.code]).toEqual([500, "internal_error"]);
    expect(lines[0]).toMatchObject({ level: "error", msg: "thing failed", op: "thing.do", err: { name: "TypeError", message: "boom" } });
    expect(lines[1]).toMatchObject({ level: "warn", msg: "thing", status: 500 });
    expect(JSON.stringify(lines)).not.toContain("at_secret");
    const later = apiRoute({ name: "later", unavailable: "try later" }, async () => Promise.reject(new Error("disk")));
    const busy = await later(appRequest(), d);
    expect([busy.status, busy.headers.get("retry-after"), (await busy.json()).error.message]).toEqual([503, "5", "try later"]);
  });

  it("answers 499 when the browser went away", async () => {
    const abort = new AbortController();
    abort.abort();
    const res = await failWith(new Error("aborted"))(appRequest({ signal: abort.signal }), deps().deps);
    expect(res.status).toBe(499);
  });
});

describe("apiRoute: the steps every route shares", () => {
  const ok = (options: { name: string; operation?: AppOperation<"health">; streams?: boolean }) => apiRoute<RouteDeps, AppOperation<"health">>(options, async ({ requestId }) => new Response("ok", { headers: { "x-request-id": requestId } }));

  it("keeps a caller's request id of 8 to 64 safe characters and replaces any other", async () => {
    const route = ok({ name: "t" });
    const idOf = async (id: string) => (await route(new Request(URL_, { headers: { "x-request-id": id } }), deps().deps)).headers.get("x-request-id");
    expect(await idOf("abc.DEF_12-3")).toBe("abc.DEF_12-3");
    expect(await idOf("x".repeat(64))).toBe("x".repeat(64));
    for (const bad of ["short", "x".repeat(65), "has space 123", "semi;colon123"]) expect(await idOf(bad)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("checks CSRF on every method but GET by default, on every one with `always`, never with `never`", async () => {
    const { deps: d } = deps();
    const post = (headers: Record<string, string> = {}) => new Request(URL_, { method: "POST", headers });
    expect((await ok({ name: "t" })(new Request(URL_), d)).status).toBe(200);
    expect((await ok({ name: "t" })(post(), d)).status).toBe(403);
    expect((await ok({ name: "t" })(post(SAME_ORIGIN), d)).status).toBe(200);
    expect((await ok({ name: "t", operation: thing({ csrf: "always" }) })(new Request(URL_), d)).status).toBe(403);
    expect((await ok({ name: "t", operation: thing({ csrf: "never" }) })(post(), d)).status).toBe(200);
  });

  it("a session-bearing GET needs the app's header: a cross-site GET is refused before the session or the handler", async () => {
    let ran = 0;
    let asked = 0;
    const { deps: d } = deps({ requireSession: async () => (asked++, { ok: true as const, session: { openAppId: "alpha-app", tenantId: "1" } }) });
    const route = apiRoute({ name: "t", operation: thing({ access: "session" }) }, async () => (ran++, new Response("ok")));
    // What a cross-site page can send with the SameSite=None cookie: no custom header.
    for (const headers of [{}, { "sec-fetch-site": "cross-site", cookie: "ec_session=x" }, { "x-engage-request": "1", "sec-fetch-site": "cross-site" }, { "x-engage-request": "1", origin: "http://evil.test" }] as Array<Record<string, string>>) {
      const res = await route(new Request(URL_, { headers }), d);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect((await res.json()).error.code).toBe("csrf_rejected");
    }
    expect([ran, asked]).toEqual([0, 0]);
    for (const headers of [{ "x-engage-request": "1" }, { "x-engage-request": "1", "sec-fetch-site": "same-origin" }, { "x-engage-request": "1", origin: "http://app.test" }] as Array<Record<string, string>>) {
      expect((await route(new Request(URL_, { headers }), d)).status, JSON.stringify(headers)).toBe(200);
    }
    // A GET without a session is a public read (health, the auth flow's pages): no header needed.
    expect((await ok({ name: "t" })(new Request(URL_), d)).status).toBe(200);
  });

  it("refuses a query parameter or path holding text PostgreSQL cannot store with 400 naming it, before the handler", async () => {
    let ran = 0;
    const { deps: d } = deps();
    const route = apiRoute({ name: "t", operation: thing({ access: "session" }) }, async () => (ran++, new Response("ok")));
    for (const [target, field] of [
      ["?orderNo=%00", "orderNo"],
      ["?q=%00ab", "q"],
      ["?a=1&x%00y=2", "x\\u0000y"],
      ["/%00", "path"],
    ] as const) {
      const res = await route(new Request(`${URL_}${target}`, { method: "DELETE", headers: SAME_ORIGIN }), d);
      expect(res.status, target).toBe(400);
      const body = await res.json();
      expect(body.error.code).toBe("invalid_text");
      expect(body.error.fieldErrors, target).toEqual([{ field, message: expect.any(String) }]);
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    }
    expect(ran).toBe(0);
    expect((await route(new Request(`${URL_}?q=%E4%B8%AD%25&lang=%ff`, { method: "DELETE", headers: SAME_ORIGIN }), d)).status).toBe(200);
  });

  it("requires the session with `session`, after `prepare`, and answers its refusal with the request's id", async () => {
    const refused = deps({ requireSession: async () => ({ ok: false, error: new ReauthRequiredError({ message: "sign in", redirect: "/api/auth/start" }) }) }).deps;
    const res = await ok({ name: "t", operation: thing({ access: "session" }) })(appRequest({ headers: { "x-request-id": "req-abcdefgh" } }), refused);
    expect(res.status).toBe(401);
    expect((await res.json()).error).toMatchObject({ code: "reauth_required", requestId: "req-abcdefgh" });
    expect((await ok({ name: "t" })(new Request(URL_), refused)).status).toBe(200);
    const early = apiRoute(
      {
        name: "t",
        operation: thing({ access: "session" }),
        prepare: () => {
          throw new ApiError({ status: 404, code: "not_found", message: "no" });
        },
      },
      async () => new Response(),
    );
    expect((await early(appRequest(), refused)).status).toBe(404);
  });

  it("logs one line per answer with the request's fields; a stream's success is the handler's to log", async () => {
    const { deps: d, lines } = deps();
    await apiRoute({ name: "thing", op: "thing.do" }, async (ctx) => {
      ctx.fields.rows = 3;
      return new Response("ok");
    })(new Request(URL_, { headers: { "x-request-id": "req-12345678" } }), d);
    expect(lines).toEqual([{ requestId: "req-12345678", method: "GET", path: "/api/thing", op: "thing.do", rows: 3, status: 200, ms: expect.any(Number), level: "info", msg: "thing" }]);
    await ok({ name: "stream", streams: true })(new Request(URL_), d);
    expect(lines).toHaveLength(1);
  });
});

describe("apiRoute: input parsed once by the route's schemas", () => {
  const shop = thing({
    method: "POST",
    path: "/api/thing/{id}",
    params: z.strictObject({ id: z.string().regex(/^\d+$/) }),
    query: z.strictObject({ limit: z.coerce.number().int().max(10).optional(), tag: z.array(z.string()).optional() }),
    body: z.strictObject({ name: z.string().min(1, "is required"), shopIds: z.array(z.string().regex(/^\d+$/, "digits")) }),
  });
  const seen: unknown[] = [];
  const route = apiRoute({ name: "t", operation: shop }, async (ctx) => {
    seen.push(ctx.input);
    return new Response("ok");
  });
  const post = (path: string, body: string | undefined, contentType = "application/json") =>
    new Request(`http://app.test${path}`, { method: "POST", body, headers: { ...SAME_ORIGIN, "content-type": contentType } });

  it("hands the handler the parsed params, query (a repeated parameter is a list; openAppId is not input) and body", async () => {
    const res = await route(post("/api/thing/42?limit=3&tag=a&tag=b&openAppId=oa", '{"name":"x","shopIds":["1"]}'), deps().deps);
    expect(res.status).toBe(200);
    expect(seen.at(-1)).toEqual({ params: { id: "42" }, query: { limit: 3, tag: ["a", "b"] }, body: { name: "x", shopIds: ["1"] } });
  });

  it("answers any schema failure 422 invalid_input with fieldErrors by field (body fields by name, others with their part), and runs nothing", async () => {
    const before = seen.length;
    const res = await route(post("/api/thing/42?limit=99", '{"name":"","shopIds":["1","x"],"extra":1}'), deps().deps);
    expect(res.status).toBe(422);
    const { error } = await res.json();
    expect(error.code).toBe("invalid_input");
    expect(error.fieldErrors).toEqual(
      expect.arrayContaining([
        { field: "query.limit", message: expect.any(String) },
        { field: "name", message: "is required" },
        { field: "shopIds.1", message: "digits" },
        { field: "body", message: expect.stringContaining("extra") },
      ]),
    );
    expect((await route(post("/api/thing/42", undefined), deps().deps)).status).toBe(422);
    expect(seen.length).toBe(before);
  });

  it("keeps a body that is not JSON a 400 (not a schema failure), a wrong type a 415, and a path that names nothing a 404", async () => {
    const bad = await route(post("/api/thing/42", "{nope"), deps().deps);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("invalid_json");
    expect((await route(post("/api/thing/42", "{}", "text/plain"), deps().deps)).status).toBe(415);
    expect((await route(post("/api/thing/abc", '{"name":"x","shopIds":[]}'), deps().deps)).status).toBe(404);
  });

  it("reads no body before the session and CSRF checks pass", async () => {
    const guarded = apiRoute({ name: "t", operation: { ...shop, access: "session" } as typeof shop }, async () => new Response("ok"));
    const refused = deps({ requireSession: async () => ({ ok: false, error: new ReauthRequiredError({ message: "sign in", redirect: "/x" }) }) }).deps;
    expect((await guarded(post("/api/thing/42", "{nope"), refused)).status).toBe(401);
  });
});
