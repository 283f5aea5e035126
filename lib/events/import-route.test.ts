import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/api-error";
import { MAX_BODY_BYTES } from "@/lib/http/body";
import { json } from "@/lib/platform/testing/fake-upstream";
import { APP, fakePlatformForRoutes, Reauth, SAME_ORIGIN } from "@/lib/proxy/testing/proxy-deps";
import { MAX_BATCHES_PER_REQUEST, type EventImportAnswer } from "./import-api";
import { handleEventImport } from "./import-route";

const TOKEN = "at_importroutetokenimportroutetoken";

const platform = fakePlatformForRoutes(TOKEN, { retry: { baseDelayMs: 1, maxDelayMs: 2 }, timeoutMs: 2_000 });
const { makeDeps } = platform;

function post(body: unknown, headers: Record<string, string> = SAME_ORIGIN): Request {
  return new Request(`${APP}/api/events/import`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
}

const event = (i: number, extra: Record<string, unknown> = {}) => ({ identityType: "crm", identityValue: `U-${i}`, event: "open_page", date: "2026-11-20T02:00:00Z", ...extra });
const batch = (from: number, n: number) => ({ events: Array.from({ length: n }, (_, i) => event(from + i)) });

async function answerOf(res: Response): Promise<EventImportAnswer> {
  expect(res.status).toBe(200);
  return (await res.json()) as EventImportAnswer;
}

describe("event import route: batches to batchPushEvents", () => {
  it("sends the batches one after another, in order, each as its own batchPushEvents body, and answers one result per batch", async () => {
    let inFlight = 0;
    let most = 0;
    platform.up.handle(async (_req, res) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight -= 1;
      json(res, 200, '{"success":true}');
    });
    const { deps, lines } = makeDeps();
    const batches = [batch(0, 100), { ...batch(100, 3), commonProps: { externalIdGenerator: "md5" } }, batch(103, 1)];
    const res = await handleEventImport(post({ batches }), deps);
    expect(await answerOf(res)).toEqual({ results: [{ status: "stored" }, { status: "stored" }, { status: "stored" }] });
    expect(most).toBe(1);
    expect(platform.up.requests.map((r) => [r.method, r.url.pathname])).toEqual(Array(3).fill(["POST", "/v1/collector/batchPushEvents"]));
    expect(platform.up.requests.map((r) => JSON.parse(r.body))).toEqual(batches);
    // §5.1.1: the token goes upstream as access_token, and nowhere else.
    expect(platform.up.requests[0]!.url.searchParams.get("access_token")).toBe(TOKEN);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
    expect(lines.at(-1)).toMatchObject({ op: "events.import", status: 200, batches: 3, stored: 3 });
  });

  it("a batch the operation's schema refuses (§8: over 100 events, a bad item) fails alone with its fields and is never sent", async () => {
    platform.up.handle((_req, res) => json(res, 200, '{"success":true}'));
    const { deps } = makeDeps();
    const badItem = { events: [event(1), event(2, { date: "yesterday" })] };
    const res = await handleEventImport(post({ batches: [batch(0, 101), badItem, batch(200, 2)] }), deps);
    const { results } = await answerOf(res);
    expect(results[0]).toMatchObject({ status: "failed", httpStatus: 422, error: { code: "invalid_input", fieldErrors: [{ field: "events" }] } });
    expect(results[1]).toMatchObject({ status: "failed", httpStatus: 422, error: { code: "invalid_input", fieldErrors: [{ field: "events.1.date" }] } });
    expect(results[2]).toEqual({ status: "stored" });
    expect(platform.up.requests).toHaveLength(1);
    expect(JSON.parse(platform.up.requests[0]!.body).events[0].identityValue).toBe("U-200");
  });

  it("a batch the platform refuses for some items fails with the platform's fields; the next batches are still sent", async () => {
    platform.up.handle((_req, res, n) =>
      n === 1 ? json(res, 200, JSON.stringify({ error: { code: 400, message: "invalid event", fieldErrors: [{ fieldName: "events[1].c_x", message: "too many properties" }] } })) : json(res, 200, '{"success":true}'),
    );
    const { deps } = makeDeps();
    const { results } = await answerOf(await handleEventImport(post({ batches: [batch(0, 2), batch(2, 2)] }), deps));
    expect(results[0]).toMatchObject({ status: "failed", httpStatus: 422, error: { message: "invalid event", fieldErrors: [{ field: "events[1].c_x", message: "too many properties" }] } });
    expect(results[1]).toEqual({ status: "stored" });
    expect(platform.up.requests).toHaveLength(2);
  });

  it("after a failure that may pass (503, Retry-After) the other batches are not sent, and the Retry-After is passed on", async () => {
    platform.up.handle((_req, res, n) => (n === 2 ? json(res, 503, '{"error":{"code":"busy","message":"try later"}}', { "retry-after": "3" }) : json(res, 200, '{"success":true}')));
    const { deps } = makeDeps();
    const { results } = await answerOf(await handleEventImport(post({ batches: [batch(0, 1), batch(1, 1), batch(2, 1), batch(3, 1)] }), deps));
    expect(results).toEqual([
      { status: "stored" },
      { status: "failed", httpStatus: 502, error: expect.objectContaining({ retryAfterSeconds: 3 }) },
      { status: "not_sent" },
      { status: "not_sent" },
    ]);
    // batchPushEvents is a write: not retried by the app (the browser's importer retries it).
    expect(platform.up.requests).toHaveLength(2);
  });

  it("an unreachable platform fails the first batch as a network error and sends nothing more", async () => {
    const { deps } = makeDeps({ getAccessToken: async () => ({ accessToken: TOKEN, apiUrl: "http://127.0.0.1:9" }) });
    const { results } = await answerOf(await handleEventImport(post({ batches: [batch(0, 1), batch(1, 1)] }), deps));
    expect(results[0]).toMatchObject({ status: "failed", httpStatus: 502 });
    expect(results[1]).toEqual({ status: "not_sent" });
  });
});

describe("event import route: refusals of the whole request change nothing", () => {
  it.each([
    ["not JSON", "{", 400, "invalid_json"],
    ["no batches", {}, 422, "invalid_input"],
    ["an empty list", { batches: [] }, 422, "invalid_input"],
    ["too many batches", { batches: Array.from({ length: MAX_BATCHES_PER_REQUEST + 1 }, (_, i) => batch(i, 1)) }, 422, "invalid_input"],
    ["an unknown field", { batches: [batch(0, 1)], extra: 1 }, 422, "invalid_input"],
    ["an array", [batch(0, 1)], 422, "invalid_input"],
    ["an empty body", "", 422, "invalid_input"],
  ])("%s → %i %s", async (_name, body, status, code) => {
    platform.up.handle((_req, res) => json(res, 200, '{"success":true}'));
    const { deps } = makeDeps();
    const res = await handleEventImport(post(body), deps);
    expect(res.status).toBe(status);
    expect((await res.json()).error.code).toBe(code);
    expect(platform.up.requests).toHaveLength(0);
  });

  it("a body over 1 MiB → 413", async () => {
    platform.up.handle((_req, res) => json(res, 200, '{"success":true}'));
    const { deps } = makeDeps();
    const res = await handleEventImport(post(JSON.stringify({ batches: [{ events: [event(0, { summary: "x".repeat(MAX_BODY_BYTES) })] }] })), deps);
    expect(res.status).toBe(413);
    expect(platform.up.requests).toHaveLength(0);
  });

  it.each([
    ["without the custom header", { origin: APP, "content-type": "application/json" }],
    ["from another origin", { ...SAME_ORIGIN, origin: "https://evil.example" }],
    ["cross-site", { ...SAME_ORIGIN, "sec-fetch-site": "cross-site" }],
  ])("CSRF: refused %s (403)", async (_name, headers) => {
    platform.up.handle((_req, res) => json(res, 200, '{"success":true}'));
    const { deps } = makeDeps();
    const res = await handleEventImport(post({ batches: [batch(0, 1)] }, headers), deps);
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("csrf_rejected");
    expect(platform.up.requests).toHaveLength(0);
  });

  it("no session: the session's own 401, with a request id", async () => {
    const { deps } = makeDeps({ requireSession: async () => ({ ok: false, error: new ApiError({ status: 401, code: "unauthorized", message: "sign in" }) }) });
    const res = await handleEventImport(post({ batches: [batch(0, 1)] }), deps);
    expect(res.status).toBe(401);
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("an authorization that is gone, before or midway: 401 reauth_required with the §5.2.9 redirect for the whole request", async () => {
    const before = makeDeps({
      getAccessToken: async () => {
        throw new Reauth();
      },
    });
    const first = await handleEventImport(post({ batches: [batch(0, 1)] }), before.deps);
    expect(first.status).toBe(401);
    expect((await first.json()).error).toMatchObject({ code: "reauth_required", redirect: "/api/auth/start?openAppId=alpha-app" });

    // The platform refuses the token of the second batch and the refresh says: authorize again.
    platform.up.handle((_req, res, n) => (n === 1 ? json(res, 200, '{"success":true}') : json(res, 401, '{"error":"invalid_token","error_description":"expired"}')));
    const midway = makeDeps({
      getAccessToken: async (_key, options) => {
        if (options?.forceRefresh) throw new Reauth();
        return { accessToken: TOKEN, apiUrl: platform.up.url };
      },
    });
    const res = await handleEventImport(post({ batches: [batch(0, 1), batch(1, 1), batch(2, 1)] }), midway.deps);
    expect(res.status).toBe(401);
    const body = JSON.stringify(await res.json());
    expect(body).toContain("reauth_required");
    expect(body).not.toContain(TOKEN);
    expect(platform.up.requests).toHaveLength(2);
  });
});
