import { describe, expect, it } from "vitest";
import { ReauthRequiredError } from "@/lib/http/api-error";
import { MAX_BODY_BYTES } from "@/lib/http/body";
import { handleProxyRequest } from "./proxy";
import { json } from "@/lib/platform/testing/fake-upstream";
import { APP, fakePlatformForRoutes, Reauth, SAME_ORIGIN } from "./testing/proxy-deps";

const BIG = "9007199254740993";
const TOKEN = "at_proxytesttokenproxytesttoken";

const platform = fakePlatformForRoutes(TOKEN, { retry: { baseDelayMs: 1, maxDelayMs: 2 }, timeoutMs: 2_000 });
const { makeDeps } = platform;

/** A read as the browser client sends it: with the app's header. */
function get(path: string, headers: Record<string, string> = { "x-engage-request": "1" }): Request {
  return new Request(`${APP}/api/platform${path}`, { headers });
}

function send(method: string, path: string, body?: string, headers: Record<string, string> = SAME_ORIGIN): Request {
  return new Request(`${APP}/api/platform${path}`, { method, headers, body });
}

async function errorOf(res: Response) {
  return (await res.json()).error as { code: string; message: string; fieldErrors?: Array<{ field: string; message: string }>; requestId: string; redirect?: string };
}

describe("proxy: the allowlist is the operation table", () => {
  it("answers 404 for paths outside the table, including non-browser operations, and sends nothing", async () => {
    platform.up.handle((_req, res) => json(res, 200, "{}"));
    const { deps } = makeDeps();
    for (const path of ["/v1/admin", "/v2/customers", "/v1/customers/1/secret", "/v1//customers", "/oauth2/token", "/cloudinfo"]) {
      const res = await handleProxyRequest(get(path), deps);
      expect(res.status, path).toBe(404);
      expect((await errorOf(res)).code).toBe("not_found");
    }
    expect(platform.up.requests).toHaveLength(0);
  });

  it("answers 405 with Allow for a known path and another method", async () => {
    const { deps } = makeDeps();
    const res = await handleProxyRequest(send("PATCH", "/v1/customers/1", "{}"), deps);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("PUT");
  });

  it("routes literal paths before parameters (/v1/customers/count is the count)", async () => {
    platform.up.handle((_req, res) => json(res, 200, "42"));
    const { deps } = makeDeps();
    const res = await handleProxyRequest(get("/v1/customers/count?stage=lead"), deps);
    expect(res.status).toBe(200);
    expect(await res.json()).toBe(42);
    expect(platform.up.requests[0]!.url.pathname).toBe("/v1/customers/count");
    // The root proxy.ts does not run for this route: the answer carries its own hardening headers.
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("proxy: CSRF defence for mutations", () => {
  const body = '{"name":"list"}';
  const cases: Array<[string, Record<string, string>]> = [
    ["no custom header", { origin: APP, "sec-fetch-site": "same-origin", "content-type": "application/json" }],
    ["wrong custom header value", { "x-engage-request": "yes", origin: APP, "content-type": "application/json" }],
    ["cross-site by Sec-Fetch-Site", { "x-engage-request": "1", origin: APP, "sec-fetch-site": "cross-site", "content-type": "application/json" }],
    ["same-site but not same-origin", { "x-engage-request": "1", "sec-fetch-site": "same-site", "content-type": "application/json" }],
    ["foreign Origin", { "x-engage-request": "1", origin: "http://evil.test", "content-type": "application/json" }],
    ["no Origin and no Sec-Fetch-Site", { "x-engage-request": "1", "content-type": "application/json" }],
  ];
  for (const [name, headers] of cases) {
    it(`refuses a mutation with ${name} (403, nothing sent)`, async () => {
      platform.up.handle((_req, res) => json(res, 200, '{"id":1}'));
      const { deps, getAccessToken } = makeDeps();
      const res = await handleProxyRequest(send("POST", "/v1/lists", body, headers), deps);
      expect(res.status).toBe(403);
      expect((await errorOf(res)).code).toBe("csrf_rejected");
      expect(platform.up.requests).toHaveLength(0);
      expect(getAccessToken).not.toHaveBeenCalled();
    });
  }

  it("accepts a same-origin mutation with the header, and an app origin from settings", async () => {
    platform.up.handle((_req, res) => json(res, 200, `{"id":${BIG},"name":"list"}`));
    const { deps } = makeDeps({ appOrigins: ["https://console.example"] });
    expect((await handleProxyRequest(send("POST", "/v1/lists", body), deps)).status).toBe(200);
    const viaPublicOrigin = send("POST", "/v1/lists", body, { "x-engage-request": "1", origin: "https://console.example", "content-type": "application/json" });
    expect((await handleProxyRequest(viaPublicOrigin, deps)).status).toBe(200);
  });

  it("requires the app's header on reads too (the cookie is SameSite=None): a cross-site GET never reaches the platform", async () => {
    platform.up.handle((_req, res) => json(res, 200, '{"rows":[]}'));
    const { deps } = makeDeps();
    for (const headers of [{}, { "sec-fetch-site": "cross-site" }, { "x-engage-request": "1", "sec-fetch-site": "cross-site" }] as Array<Record<string, string>>) {
      expect((await handleProxyRequest(get("/v1/customers", headers), deps)).status, JSON.stringify(headers)).toBe(403);
    }
    expect(platform.up.requests).toHaveLength(0);
    expect((await handleProxyRequest(get("/v1/customers"), deps)).status).toBe(200);
    expect((await handleProxyRequest(get("/v1/customers", { "x-engage-request": "1", "sec-fetch-site": "same-origin" }), deps)).status).toBe(200);
  });
});

describe("proxy: input checks happen before anything goes upstream", () => {
  it("refuses malformed JSON with 400", async () => {
    platform.up.handle((_req, res) => json(res, 200, "{}"));
    const { deps } = makeDeps();
    const res = await handleProxyRequest(send("POST", "/v1/lists", '{"name":'), deps);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe("invalid_json");
    expect(platform.up.requests).toHaveLength(0);
  });

  it("refuses wrong types and unknown fields with 422 and field errors", async () => {
    platform.up.handle((_req, res) => json(res, 200, "{}"));
    const { deps } = makeDeps();
    const res = await handleProxyRequest(send("PUT", `/v1/customers/${BIG}`, '{"gender":"male","homeAddress":5,"bogus":1}'), deps);
    expect(res.status).toBe(422);
    const error = await errorOf(res);
    expect(error.code).toBe("invalid_input");
    expect(error.fieldErrors!.map((f) => f.field)).toEqual(expect.arrayContaining(["gender", "homeAddress", "body"]));
    expect(platform.up.requests).toHaveLength(0);
  });

  it("refuses a bad path id, bad query values, unknown and repeated query parameters with 422", async () => {
    platform.up.handle((_req, res) => json(res, 200, "{}"));
    const { deps } = makeDeps();
    for (const [path, field] of [
      ["/v1/customers/abc", "params.id"],
      ["/v1/customers?rows=many", "query.rows"],
      ["/v1/customers?access_token=stolen", "query"],
      ["/v1/customers?rows=1&rows=2", "query.rows"],
      ["/v1/customerevents?max=1001", "query.max"],
    ] as const) {
      const res = await handleProxyRequest(get(path), deps);
      expect(res.status, path).toBe(422);
      expect((await errorOf(res)).fieldErrors![0]!.field, path).toBe(field);
    }
    expect(platform.up.requests).toHaveLength(0);
  });

  it("refuses bodies over 1 MiB with 413, declared or streamed", async () => {
    platform.up.handle((_req, res) => json(res, 200, "{}"));
    const { deps } = makeDeps();
    const big = JSON.stringify({ name: "x".repeat(MAX_BODY_BYTES) });
    expect((await handleProxyRequest(send("POST", "/v1/lists", big), deps)).status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
        for (let i = 0; i < 17; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const streamed = new Request(`${APP}/api/platform/v1/lists`, { method: "POST", headers: SAME_ORIGIN, body: stream, duplex: "half" } as RequestInit);
    expect((await handleProxyRequest(streamed, deps)).status).toBe(413);
    expect(platform.up.requests).toHaveLength(0);
  });

  it("refuses a non-JSON body with 415", async () => {
    const { deps } = makeDeps();
    const res = await handleProxyRequest(send("POST", "/v1/lists", "name=x", { ...SAME_ORIGIN, "content-type": "application/x-www-form-urlencoded" }), deps);
    expect(res.status).toBe(415);
  });

  it("accepts ids above 2^53 written as JSON integers or strings", async () => {
    platform.up.handle((_req, res) => json(res, 200, `{"data":{"id":1,"customerId":${BIG},"listId":${BIG}}}`));
    const { deps } = makeDeps();
    const res = await handleProxyRequest(send("POST", "/v1/listMembers", `{"data":{"customerId":${BIG},"listId":"${BIG}"}}`), deps);
    expect(res.status).toBe(200);
    expect(platform.up.requests[0]!.body).toBe(`{"data":{"customerId":${BIG},"listId":${BIG}}}`);
    expect(JSON.parse(await res.text())).toEqual({ data: { id: "1", customerId: BIG, listId: BIG } });
  });
});

describe("proxy: sessions and tokens", () => {
  it("passes the session's 401 through with request id and no-store", async () => {
    const { deps } = makeDeps({
      requireSession: async () => ({ ok: false, error: new ReauthRequiredError({ message: "sign in", redirect: "/api/auth/start" }) }),
    });
    const res = await handleProxyRequest(get("/v1/customers"), deps);
    expect(res.status).toBe(401);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("answers 401 reauth_required with a redirect when the installation must authorize again", async () => {
    const { deps } = makeDeps({
      getAccessToken: async () => {
        throw new Reauth();
      },
    });
    const res = await handleProxyRequest(get("/v1/customers"), deps);
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatchObject({ code: "reauth_required", redirect: "/api/auth/start?openAppId=alpha-app" });
  });

  it("refreshes an expired token once and repeats the call", async () => {
    platform.up.handle((req, res) =>
      req.url.searchParams.get("access_token") === `${TOKEN}_new`
        ? json(res, 200, '{"rows":[]}')
        : json(res, 401, '{"error_code":"expired_token","error_description":"access_token has expired"}'),
    );
    const { deps, getAccessToken } = makeDeps();
    const res = await handleProxyRequest(get("/v1/customers"), deps);
    expect(res.status).toBe(200);
    expect(getAccessToken.mock.calls.map((c) => c[1])).toEqual([undefined, { forceRefresh: true, rejectedAccessToken: TOKEN }]);
  });

  it("never puts a platform token into a response body, header or log line", async () => {
    platform.up.handle((req, res) =>
      req.url.pathname.endsWith("/count")
        ? json(res, 401, `{"error_code":"invalid_token","error_description":"bad token ${req.url.searchParams.get("access_token")}"}`)
        : json(res, 200, `{"rows":[{"id":1,"remark":"x"}]}`),
    );
    const { deps, lines } = makeDeps();
    for (const path of ["/v1/customers", "/v1/customers/count"]) {
      const res = await handleProxyRequest(get(path), deps);
      const text = await res.text();
      expect(text).not.toContain(TOKEN);
      for (const [, value] of res.headers) expect(value).not.toContain(TOKEN);
    }
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });
});

describe("proxy: responses and errors", () => {
  it("relays the platform's JSON with every id as a string, small ids and ids in arrays included", async () => {
    platform.up.handle((_req, res) =>
      json(res, 200, `{"shopGroup":{"success":[${BIG},7],"failed":[],"shopGroup":{"id":12,"creatorId":${BIG},"name":"g","remark":"12345678901234567890 in text"}}}`),
    );
    const { deps } = makeDeps();
    const res = await handleProxyRequest(send("POST", "/v1/storesGroups", '{"name":"g","remark":"r","shopList":"1,2"}'), deps);
    expect(JSON.parse(await res.text())).toEqual({
      shopGroup: { success: [BIG, "7"], failed: [], shopGroup: { id: "12", creatorId: BIG, name: "g", remark: "12345678901234567890 in text" } },
    });
  });

  it("normalizes outputs that need it (a count given as {count})", async () => {
    platform.up.handle((_req, res) => json(res, 200, '{"count":12}'));
    const res = await handleProxyRequest(get("/v1/customers/count"), makeDeps().deps);
    expect(await res.json()).toBe(12);
  });

  it("returns ids as strings, no-store and a request id; logs carry the same id", async () => {
    platform.up.handle((_req, res) => json(res, 200, `{"rows":[{"id":${BIG},"name":"张三"}]}`));
    const { deps, lines } = makeDeps();
    const res = await handleProxyRequest(get("/v1/customers?rows=50", { "x-engage-request": "1", "x-request-id": "req-12345678" }), deps);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-request-id")).toBe("req-12345678");
    expect(await res.text()).toBe(`{"rows":[{"id":"${BIG}","name":"张三"}]}`);
    expect(platform.up.requests[0]!.headers["x-request-id"]).toBe("req-12345678");
    expect(lines.at(-1)).toMatchObject({ requestId: "req-12345678", op: "customers.list", status: 200 });
  });

  it("does not forward openAppId (it names the session, §5.4.4) and replaces an unusable request id", async () => {
    platform.up.handle((_req, res) => json(res, 200, '{"rows":[]}'));
    const { deps } = makeDeps();
    const res = await handleProxyRequest(get("/v1/customers?rows=5&openAppId=alpha-app", { "x-engage-request": "1", "x-request-id": "bad id with spaces" }), deps);
    expect(res.status).toBe(200);
    expect(Object.fromEntries(platform.up.requests[0]!.url.searchParams)).toEqual({ rows: "5", access_token: TOKEN });
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("passes 201 (new customer, §4.1) and 204 (delete) through", async () => {
    platform.up.handle((_req, res) => json(res, 201, `{"id":${BIG},"name":"n"}`));
    const { deps } = makeDeps();
    expect((await handleProxyRequest(send("POST", "/v1/customers", '{"name":"n","mobile":"13800000000"}'), deps)).status).toBe(201);
    platform.up.handle((_req, res) => void res.writeHead(204).end());
    const del = await handleProxyRequest(send("DELETE", `/v1/customers/${BIG}`), deps);
    expect(del.status).toBe(204);
    expect(await del.text()).toBe("");
  });

  it("maps platform errors to statuses with the normalized body", async () => {
    const { deps } = makeDeps();
    const cases: Array<[number, string, number, string]> = [
      [200, '{"error":{"code":"400001","message":"invalid","fieldErrors":[{"fieldName":"email","message":"bad"}]}}', 422, "400001"],
      [200, '{"error":{"code":"409200","message":"Not found"}}', 404, "409200"],
      [400, "No customer field found", 422, "400"],
      [503, '{"error":{"code":"503","message":"down"}}', 502, "503"],
      [404, '{"error":{"code":"404","message":"no such customer"}}', 404, "404"],
    ];
    for (const [status, body, expected, code] of cases) {
      platform.up.handle((_req, res) => void res.writeHead(status, { "content-type": body.startsWith("{") ? "application/json" : "text/plain" }).end(body));
      const res = await handleProxyRequest(send("POST", "/v1/customerandidentities", '{"customer":{"name":"x"},"customerIdentities":[]}'), deps);
      expect(res.status, body).toBe(expected);
      const error = await errorOf(res);
      expect(error.code).toBe(code);
      expect(error.requestId).toBe(res.headers.get("x-request-id"));
    }
    platform.up.handle((_req, res) => json(res, 200, '{"error":{"code":"400001","message":"invalid","fieldErrors":[{"fieldName":"email","message":"bad"}]}}'));
    const res = await handleProxyRequest(send("POST", "/v1/customerandidentities", '{"customer":{"name":"x"},"customerIdentities":[]}'), deps);
    expect((await errorOf(res)).fieldErrors).toEqual([{ field: "email", message: "bad" }]);
  });

  it("answers 429 with Retry-After, 504 on timeout", async () => {
    platform.up.handle((_req, res) => json(res, 429, '{"error":{"code":"429","message":"slow down"}}', { "retry-after": "30" }));
    const { deps } = makeDeps();
    const limited = await handleProxyRequest(get("/v1/customers"), deps);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("30");
    platform.up.handle((_req, res) => void setTimeout(() => json(res, 200, '{"rows":[]}'), 300));
    const slow = makeDeps({ client: { timeoutMs: 50 } });
    expect((await handleProxyRequest(get("/v1/customers"), slow.deps)).status).toBe(504);
  });

  it("answers 502 when the platform's response is not JSON, or (validateResponses) does not match the operation", async () => {
    platform.up.handle((_req, res) => void res.writeHead(200, { "content-type": "text/html" }).end("<html>maintenance</html>"));
    expect((await handleProxyRequest(get("/v1/customers"), makeDeps().deps)).status).toBe(502);
    platform.up.handle((_req, res) => json(res, 200, '{"rows":[{"name":"no id"}]}'));
    const { deps } = makeDeps({ validateResponses: true });
    const res = await handleProxyRequest(get("/v1/customers"), deps);
    expect(res.status).toBe(502);
    expect((await errorOf(res)).code).toBe("invalid_response");
  });
});
