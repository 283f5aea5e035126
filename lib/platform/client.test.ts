import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { callPlatform, undiciTransport, type CallOptions, type Clock, type Transport } from "./client";
import { operations } from "./operations";
import { json, startFakeUpstream, type FakeUpstream } from "./testing/fake-upstream";
import { rejection } from "./testing/rejection";

let up: FakeUpstream;
beforeAll(async () => {
  up = await startFakeUpstream();
});
afterAll(() => up.close());

const BIG = "9007199254740993";
const fast = { baseDelayMs: 1, maxDelayMs: 5 };
const opts = (extra: Partial<CallOptions> = {}): CallOptions => ({ apiUrl: up.url, accessToken: "at_test", retry: fast, ...extra });

/** A clock whose waits take no time: they are recorded and move it on. */
function fakeClock(): Clock & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}


describe("callPlatform: request shape", () => {
  it("sends access_token as a query parameter (§5.1.1) and parses ids losslessly into strings", async () => {
    up.handle((_req, res) => json(res, 200, `{"id":${BIG},"name":"张三","ownerId":9223372036854775807}`));
    const customer = await callPlatform(operations["customers.get"], { params: { id: BIG } }, opts());
    expect(customer.id).toBe(BIG);
    expect(customer.ownerId).toBe("9223372036854775807");
    expect(up.requests[0]!.url.pathname).toBe(`/v1/customers/${BIG}`);
    expect(up.requests[0]!.url.searchParams.get("access_token")).toBe("at_test");
  });

  it("writes ids in bodies as JSON integers, digit for digit", async () => {
    up.handle((_req, res) => json(res, 200, `{"data":{"id":1,"listId":${BIG},"customerId":${BIG}}}`));
    const out = await callPlatform(operations["listMembers.add"], { body: { data: { customerId: BIG, listId: BIG } } }, opts());
    expect(up.requests[0]!.body).toBe(`{"data":{"customerId":${BIG},"listId":${BIG}}}`);
    expect(up.requests[0]!.headers["content-type"]).toBe("application/json");
    expect(out.data.listId).toBe(BIG);
  });

  it("serializes query values as strings; users/current gets the token as a query parameter and as a bearer token (§5.1.1, §4.7)", async () => {
    up.handle((_req, res) => json(res, 200, '{"rows":[]}'));
    await callPlatform(operations["customers.list"], { query: { rows: 50, hasEmail: true, idFrom: BIG } }, opts());
    expect(Object.fromEntries(up.requests[0]!.url.searchParams)).toEqual({ rows: "50", hasEmail: "true", idFrom: BIG, access_token: "at_test" });
    up.handle((_req, res) => json(res, 200, `{"tenantId":${BIG},"name":"admin"}`));
    const me = await callPlatform(operations["users.current"], {}, opts());
    expect(me.tenantId).toBe(BIG);
    expect(up.requests[0]!.headers.authorization).toBe("Bearer at_test");
    expect(up.requests[0]!.url.searchParams.get("access_token")).toBe("at_test");
  });

  it("posts token grants form-urlencoded with the client credentials (§4.7)", async () => {
    up.handle((_req, res) => json(res, 200, '{"access_token":"a","token_type":"authorization_code","expires_in":7200,"refresh_token":"r"}'));
    const tokens = await callPlatform(
      operations["auth.refresh"],
      { body: { grant_type: "refresh_token", refresh_token: "rt_1" } },
      { apiUrl: up.url, authUrl: up.url, clientCredentials: { clientId: "engage-console", clientSecret: "s" } },
    );
    expect(tokens.expires_in).toBe(7200);
    expect(up.requests[0]!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(up.requests[0]!.body))).toEqual({
      client_id: "engage-console",
      client_secret: "s",
      grant_type: "refresh_token",
      refresh_token: "rt_1",
    });
  });

  it("refuses invalid input with field errors and sends nothing", async () => {
    up.handle((_req, res) => json(res, 200, "{}"));
    const error = await rejection(callPlatform(operations["customers.get"], { params: { id: "abc" } }, opts()));
    expect(error).toMatchObject({ kind: "validation", code: "invalid_input" });
    expect(error.fieldErrors[0]!.field).toBe("params.id");
    expect(up.requests).toHaveLength(0);
  });

  it("turns a response that does not match the output schema into an upstream error", async () => {
    up.handle((_req, res) => json(res, 200, '{"rows":"nope"}'));
    expect(await rejection(callPlatform(operations["customers.list"], {}, opts()))).toMatchObject({ kind: "upstream", code: "invalid_response" });
  });

  it("turns HTTP 200 error objects into PlatformError (§7.1)", async () => {
    up.handle((_req, res) => json(res, 200, '{"error":{"code":"409200","message":"Not found"}}'));
    const error = await rejection(callPlatform(operations["identities.getByMd5"], { query: { md5type: "common", md5value: "x" } }, opts()));
    expect(error).toMatchObject({ kind: "not_found", code: "409200", operation: "identities.getByMd5" });
  });
});

describe("callPlatform: retries", () => {
  it("retries an idempotent read on 502, 503, 504 and 429 until it succeeds", async () => {
    for (const status of [502, 503, 504, 429]) {
      up.handle((_req, res, n) => (n < 3 ? json(res, status, '{"error":{"code":"x","message":"busy"}}') : json(res, 200, '{"rows":[]}')));
      await expect(callPlatform(operations["customers.list"], {}, opts())).resolves.toEqual({ rows: [] });
      expect(up.requests).toHaveLength(3);
    }
  });

  it("retries an idempotent read after a network error", async () => {
    up.handle((_req, res, n) => (n === 1 ? void res.socket?.destroy() : json(res, 200, '{"rows":[]}')));
    await expect(callPlatform(operations["customers.list"], {}, opts())).resolves.toEqual({ rows: [] });
    expect(up.requests).toHaveLength(2);
  });

  it("gives up after maxAttempts and returns the last error", async () => {
    up.handle((_req, res) => json(res, 503, '{"error":{"code":"503","message":"down"}}'));
    const error = await rejection(callPlatform(operations["customers.list"], {}, opts({ retry: { ...fast, maxAttempts: 3 } })));
    expect(error).toMatchObject({ kind: "upstream", httpStatus: 503 });
    expect(up.requests).toHaveLength(3);
  });

  it("never retries a write on 503 or after a network error (it may have been applied)", async () => {
    up.handle((_req, res) => json(res, 503, '{"error":{"code":"503","message":"down"}}'));
    await rejection(callPlatform(operations["lists.create"], { body: { name: "x" } }, opts()));
    expect(up.requests).toHaveLength(1);
    up.handle((_req, res) => void res.socket?.destroy());
    expect(await rejection(callPlatform(operations["lists.create"], { body: { name: "x" } }, opts()))).toMatchObject({ kind: "network" });
    expect(up.requests).toHaveLength(1);
  });

  it("retries a write only when the connection was refused (nothing was sent)", async () => {
    up.handle((_req, res) => json(res, 200, '{"id":1,"name":"x"}'));
    let calls = 0;
    const flaky: Transport = async (req) => {
      calls++;
      if (calls === 1) throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
      return undiciTransport(req);
    };
    await expect(callPlatform(operations["lists.create"], { body: { name: "x" } }, opts({ transport: flaky }))).resolves.toMatchObject({ id: "1" });
    expect(up.requests).toHaveLength(1);
  });

  it("does not retry validation errors or 4xx", async () => {
    up.handle((_req, res) => void res.writeHead(400, { "content-type": "text/plain" }).end("No customer field found"));
    expect(await rejection(callPlatform(operations["customers.list"], {}, opts()))).toMatchObject({ kind: "validation", message: "No customer field found" });
    expect(up.requests).toHaveLength(1);
  });

  it("honours Retry-After in seconds as the minimum wait", async () => {
    up.handle((_req, res, n) => (n === 1 ? json(res, 503, "{}", { "retry-after": "1" }) : json(res, 200, '{"rows":[]}')));
    const clock = fakeClock();
    await callPlatform(operations["customers.list"], {}, opts({ clock }));
    expect(clock.slept).toEqual([1000]);
  });

  it("waits with exponential backoff and full jitter between attempts", async () => {
    up.handle((_req, res, n) => (n < 4 ? json(res, 503, "{}") : json(res, 200, '{"rows":[]}')));
    const clock = fakeClock();
    await callPlatform(operations["customers.list"], {}, opts({ clock, retry: { baseDelayMs: 100, maxDelayMs: 300 }, random: () => 0.5 }));
    expect(clock.slept).toEqual([50, 100, 150]);
  });

  it("does not wait for a Retry-After beyond the limit and reports it", async () => {
    up.handle((_req, res) => json(res, 429, '{"error":{"code":"429","message":"slow"}}', { "retry-after": "60" }));
    expect(await rejection(callPlatform(operations["customers.list"], {}, opts()))).toMatchObject({ kind: "rate_limited", retryAfterSeconds: 60 });
    expect(up.requests).toHaveLength(1);
  });

  it("starts no retry that would end after the call's deadline", async () => {
    up.handle((_req, res) => json(res, 503, '{"error":{"code":"503","message":"down"}}', { "retry-after": "1" }));
    const clock = fakeClock();
    const error = await rejection(callPlatform(operations["customers.list"], {}, opts({ deadlineMs: 500, clock })));
    expect(error.httpStatus).toBe(503);
    expect(up.requests).toHaveLength(1);
    expect(clock.slept).toEqual([]);
  });
});

describe("callPlatform: timeouts and cancellation", () => {
  it("times out a call that gets no answer", async () => {
    up.handle((_req, res) => void setTimeout(() => json(res, 200, '{"rows":[]}'), 400));
    const error = await rejection(callPlatform(operations["customers.list"], {}, opts({ timeoutMs: 50 })));
    expect(error).toMatchObject({ kind: "timeout", code: "timeout" });
  });

  it("stops when the caller aborts", async () => {
    up.handle((_req, res) => void setTimeout(() => json(res, 200, '{"rows":[]}'), 400));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("client went away")), 20);
    await expect(callPlatform(operations["customers.list"], {}, opts({ signal: controller.signal }))).rejects.toThrow("client went away");
  });
});

describe("callPlatform: expired tokens", () => {
  function tokenServer(valid: string) {
    up.handle((req, res) =>
      req.url.searchParams.get("access_token") === valid
        ? json(res, 200, '{"id":5,"name":"x"}')
        : json(res, 401, '{"error_code":"expired_token","error_description":"access_token has expired"}'),
    );
  }

  it("refreshes once and repeats the call, writes included (the platform did nothing)", async () => {
    tokenServer("at_new");
    const getToken = vi.fn(async ({ forceRefresh }: { forceRefresh: boolean }) => (forceRefresh ? "at_new" : "at_old"));
    await expect(callPlatform(operations["lists.create"], { body: { name: "x" } }, { apiUrl: up.url, getToken })).resolves.toMatchObject({ id: "5" });
    expect(getToken.mock.calls).toEqual([[{ forceRefresh: false }], [{ forceRefresh: true, rejectedToken: "at_old" }]]);
    // Only this test's POSTs: an aborted GET of an earlier test may reach the server late.
    expect(up.requests.filter((r) => r.method === "POST").map((r) => r.url.searchParams.get("access_token"))).toEqual(["at_old", "at_new"]);
  });

  it("gives up after a second refresh whose token is refused too (one for a superseded replacement)", async () => {
    tokenServer("never");
    const getToken = vi.fn(async () => "at_still_bad");
    const error = await rejection(callPlatform(operations["customers.get"], { params: { id: "5" } }, { apiUrl: up.url, getToken }));
    expect(error).toMatchObject({ kind: "auth", tokenExpired: true });
    expect(getToken).toHaveBeenCalledTimes(3);
    expect(up.requests.filter((r) => r.url.pathname === "/v1/customers/5")).toHaveLength(3);
  });

  it("does not put the token into the error", async () => {
    tokenServer("never");
    const error = await rejection(callPlatform(operations["customers.get"], { params: { id: "5" } }, opts({ accessToken: "at_secretsecretsecretsecret" })));
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain("at_secretsecret");
  });
});
