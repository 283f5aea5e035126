import { createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureLogsForTests } from "@/lib/log";
import { signWebhookPayload } from "@/lib/platform/webhook-signature";
import type { Store } from "@/lib/store/database";
import { openSqliteTestStore, testDialects, type TestStore } from "@/lib/store/testing";
import { recentActivity } from "@/lib/store/webhook-inbox";
import type { WebhookAuthConfig } from "./authenticate";
import { webhookAddressKey, webhookAddressQuery } from "./address";
import { receiveWebhook } from "./receive";
import { handleWebhookTokenRequest } from "./token-endpoint";
import { createTopicRegistry, type WebhookEvent } from "./topics";

const URL_BASE = "http://localhost:3000/api/webhooks/platform";
const SECRET = "sandbox-webhook-secret";
const ADDRESS_KEY = webhookAddressKey("test-session-password-for-addresses");
const BIG = 9007199254740993123n; // above 2^53 (§2)

const payload = {
  deliveryId: "whd_0001",
  event: "customer.updated",
  occurredAt: "2026-11-22T01:00:00Z",
  appId: "engage-console",
  environment: "alpha",
  openAppId: "oa-alpha",
  tenantId: 1001,
  resource: "customer",
  action: "updated",
  resourceId: "9007199254740993123",
  data: { name: "Li  Na", city: "上海 浦东" },
};
const compact = JSON.stringify(payload);
const sign = (text: string, secret = SECRET) => createHmac("sha256", secret).update(text, "utf8").digest("hex");
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`, "utf8").toString("base64")}`;

let t: TestStore;
let now = 1_800_000_000_000;

beforeEach(async () => {
  t = await openSqliteTestStore();
  now = 1_800_000_000_000;
});
afterEach(() => t.cleanup());

function deliver(config: WebhookAuthConfig, init: { body?: string; headers?: Record<string, string>; query?: string; store?: () => Promise<Store>; maxBodyBytes?: number } = {}) {
  const request = new Request(`${URL_BASE}${init.query ?? ""}`, {
    method: "POST",
    headers: { "content-type": "application/json;charset=UTF-8", ...init.headers },
    body: init.body ?? compact,
  });
  return receiveWebhook(request, { config, store: init.store ?? (async () => t.store), now: () => now, maxBodyBytes: init.maxBodyBytes, addressKey: ADDRESS_KEY });
}

async function stored(): Promise<number> {
  const rows = await t.store.db.selectFrom("webhook_inbox").select("id").execute();
  return rows.length;
}

const secretMode: WebhookAuthConfig = { mode: "secret", secret: SECRET };
const basicMode: WebhookAuthConfig = { mode: "basic", user: "平台", password: "pässwörd:with-colon" };
const oauthMode: WebhookAuthConfig = { mode: "oauth2", appId: "engage-console", secret: "webhook-oauth-secret-value" };

describe("secret mode (§5.5 X-Service-Hmac-Signature)", () => {
  it("accepts a correctly signed delivery and stores it once with its mode and time", async () => {
    const res = await deliver(secretMode, { headers: { "X-Service-Hmac-Signature": sign(compact) } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });
    const [entry] = await recentActivity(t.store, { openAppId: "oa-alpha", tenantId: "1001" });
    expect(entry).toMatchObject({ deliveryId: "whd_0001", kind: "customer.updated", resource: "customer", resourceId: "9007199254740993123", action: "updated", verification: "secret", receivedAt: now });
  });

  it("accepts the same payload pretty-printed (whitespace outside strings), and keeps whitespace inside strings significant", async () => {
    const pretty = JSON.stringify(payload, null, 2).replace(/\n/g, "\r\n");
    const ok = await deliver(secretMode, { body: pretty, headers: { "X-Service-Hmac-Signature": sign(compact) } });
    expect(ok.status).toBe(200);
    const tampered = pretty.replace("Li  Na", "Li Na");
    const bad = await deliver(secretMode, { body: tampered, headers: { "X-Service-Hmac-Signature": sign(compact.replace("2", "3")) } });
    expect(bad.status).toBe(401);
    const bad2 = await deliver(secretMode, { body: tampered.replace("whd_0001", "whd_0002"), headers: { "X-Service-Hmac-Signature": sign(compact.replace("whd_0001", "whd_0002")) } });
    expect(bad2.status).toBe(401);
    expect(await stored()).toBe(1);
  });

  it("rejects a wrong, missing or replayed-onto-another-body signature with 401 and stores nothing", async () => {
    const other = JSON.stringify({ ...payload, deliveryId: "whd_0002" });
    const attempts: Array<Record<string, string>> = [{}, { "X-Service-Hmac-Signature": "" }, { "X-Service-Hmac-Signature": sign(compact, "another-secret-value") }, { "X-Service-Hmac-Signature": sign(compact) }];
    for (const headers of attempts) {
      const res = await deliver(secretMode, { body: other, headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: { code: "unauthorized", message: expect.any(String), requestId: res.headers.get("x-request-id") } });
    }
    expect(await stored()).toBe(0);
  });

  it("a signed body that is not a JSON object is a 400 and stores nothing; 401 comes first when unsigned", async () => {
    for (const body of ["{not json", "[1,2]", '"text"', "", '{"tenantId":{"a":1}}', `{"event":"${"x".repeat(200)}"}`]) {
      // The sender signs the text with whitespace outside strings removed ("{not json" → "{notjson").
      const res = await deliver(secretMode, { body, headers: { "X-Service-Hmac-Signature": signWebhookPayload(SECRET, body) } });
      expect(res.status, body.slice(0, 20)).toBe(400);
      expect((await res.json()).error.code).toBe("invalid_payload");
    }
    expect((await deliver(secretMode, { body: "{not json" })).status).toBe(401);
    expect(await stored()).toBe(0);
  });

  it("refuses a body above the limit with 413 before anything else", async () => {
    const res = await deliver(secretMode, { body: JSON.stringify({ pad: "x".repeat(2048) }), maxBodyBytes: 1024 });
    expect(res.status).toBe(413);
    const big = JSON.stringify({ pad: "x".repeat(1024 * 1024) });
    expect((await deliver(secretMode, { body: big, headers: { "X-Service-Hmac-Signature": sign(big) } })).status).toBe(413);
    expect(await stored()).toBe(0);
  });

  it("stops reading a streamed body at the limit even when Content-Length claims less", async () => {
    const chunk = new TextEncoder().encode("x".repeat(600));
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 100) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const request = new Request(URL_BASE, { method: "POST", body, headers: { "content-length": "10" }, duplex: "half" } as RequestInit);
    const res = await receiveWebhook(request, { config: { mode: "none" }, store: async () => t.store, maxBodyBytes: 1024 });
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThan(10);
    expect(await stored()).toBe(0);
  });

  it("refuses bytes that are not UTF-8 with 400", async () => {
    const request = new Request(URL_BASE, { method: "POST", body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) });
    const res = await receiveWebhook(request, { config: { mode: "none" }, store: async () => t.store });
    expect(res.status).toBe(400);
  });

  it("answers a repeated delivery 200 with duplicate: true and keeps one row", async () => {
    const headers = { "X-Service-Hmac-Signature": sign(compact) };
    expect(await (await deliver(secretMode, { headers })).json()).toEqual({ received: true });
    expect(await (await deliver(secretMode, { headers })).json()).toEqual({ received: true, duplicate: true });
    expect(await stored()).toBe(1);
  });

  it("dedupes a delivery without an id by its content, whitespace outside strings ignored", async () => {
    const body = JSON.stringify({ event: "order.cancelled", openAppId: "oa-alpha", tenantId: BIG.toString(), resourceId: 42 });
    const pretty = JSON.stringify(JSON.parse(body), null, 3);
    expect(await (await deliver({ mode: "none" }, { body })).json()).toEqual({ received: true });
    expect(await (await deliver({ mode: "none" }, { body: pretty })).json()).toEqual({ received: true, duplicate: true });
    const [entry] = await recentActivity(t.store, { openAppId: "oa-alpha", tenantId: BIG.toString() });
    expect(entry).toMatchObject({ kind: "order.cancelled", resource: "order", action: "cancelled", resourceId: "42" });
  });

  it("reads 64-bit tenant and resource ids given as JSON integers without losing digits", async () => {
    const body = `{"deliveryId":"whd_big","event":"customer.created","openAppId":"oa-alpha","tenantId":${BIG},"resourceId":${BIG + 1n}}`;
    expect((await deliver(secretMode, { body, headers: { "X-Service-Hmac-Signature": sign(body) } })).status).toBe(200);
    const [entry] = await recentActivity(t.store, { openAppId: "oa-alpha", tenantId: "9007199254740993123" });
    expect(entry?.resourceId).toBe("9007199254740993124");
  });

  it("answers 503 with Retry-After (never 500) when the store fails", async () => {
    const res = await deliver(secretMode, { headers: { "X-Service-Hmac-Signature": sign(compact) }, store: async () => Promise.reject(new Error("disk full")) });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
  });
});

describe("basic mode (§5.5 Authorization: Basic, UTF-8)", () => {
  it("accepts the configured user and password (UTF-8, a colon in the password)", async () => {
    const res = await deliver(basicMode, { headers: { Authorization: basic("平台", "pässwörd:with-colon") } });
    expect(res.status).toBe(200);
    expect((await recentActivity(t.store, { openAppId: "oa-alpha", tenantId: "1001" }))[0]?.verification).toBe("basic");
  });

  it("rejects a wrong user, a wrong password, a missing or malformed header with 401 and a Basic challenge", async () => {
    for (const authorization of [
      basic("平台", "pässwörd:with-colo"),
      basic("平台x", "pässwörd:with-colon"),
      basic("", ""),
      "Bearer abc",
      "Basic !!!",
      `Basic ${Buffer.from("no-colon").toString("base64")}`,
      `Basic ${Buffer.from([0xff, 0x3a, 0x61]).toString("base64")}`,
      undefined,
    ]) {
      const res = await deliver(basicMode, { headers: authorization === undefined ? {} : { Authorization: authorization } });
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
    }
    expect(await stored()).toBe(0);
  });
});

describe("oauth2 mode (§5.5 token URL, then ?access_token=)", () => {
  const tokenUrl = (query: string) => new Request(`http://localhost:3000/api/webhooks/token?${query}`);
  const getToken = async (config = oauthMode) => {
    const res = await handleWebhookTokenRequest(tokenUrl("appid=engage-console&secret=webhook-oauth-secret-value&grant_type=client_credentials"), {
      config,
      store: async () => t.store,
      now: () => now,
    });
    return res;
  };

  it("issues a 2 h bearer token and accepts a delivery carrying it", async () => {
    const res = await getToken();
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(body).toEqual({ access_token: expect.stringMatching(/^wht_/), token_type: "bearer", expires_in: 7200 });
    const ok = await deliver(oauthMode, { query: `?access_token=${encodeURIComponent(body.access_token)}` });
    expect(ok.status).toBe(200);
    expect((await recentActivity(t.store, { openAppId: "oa-alpha", tenantId: "1001" }))[0]?.verification).toBe("oauth2");
  });

  it("rejects a missing, unknown, doubled or expired token with 401 and stores nothing", async () => {
    const { access_token: token } = await (await getToken()).json();
    expect((await deliver(oauthMode)).status).toBe(401);
    expect((await deliver(oauthMode, { query: "?access_token=wht_unknown" })).status).toBe(401);
    expect((await deliver(oauthMode, { query: `?access_token=${token}&access_token=${token}` })).status).toBe(401);
    expect((await deliver(oauthMode, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(401);
    now += 7200 * 1000;
    expect((await deliver(oauthMode, { query: `?access_token=${token}` })).status).toBe(401);
    expect(await stored()).toBe(0);
  });

  it("the token endpoint refuses wrong credentials (401), another grant type or missing parameters (400)", async () => {
    const call = (query: string, config: WebhookAuthConfig = oauthMode) => handleWebhookTokenRequest(tokenUrl(query), { config, store: async () => t.store });
    const cases: Array<[string, number, string]> = [
      ["appid=engage-console&secret=wrong-secret&grant_type=client_credentials", 401, "invalid_client"],
      ["appid=other-app&secret=webhook-oauth-secret-value&grant_type=client_credentials", 401, "invalid_client"],
      ["appid=engage-console&secret=webhook-oauth-secret-valu&grant_type=client_credentials", 401, "invalid_client"],
      ["appid=engage-console&secret=webhook-oauth-secret-value&grant_type=authorization_code", 400, "unsupported_grant_type"],
      ["appid=engage-console&secret=webhook-oauth-secret-value", 400, "invalid_request"],
      ["appid=engage-console&grant_type=client_credentials", 400, "invalid_request"],
      ["appid=engage-console&appid=engage-console&secret=webhook-oauth-secret-value&grant_type=client_credentials", 400, "invalid_request"],
    ];
    for (const [query, status, code] of cases) {
      const res = await call(query);
      expect(res.status, query).toBe(status);
      const body = await res.json();
      expect(body, query).toEqual({ error: code, error_description: expect.any(String) });
      expect(JSON.stringify(body)).not.toContain("webhook-oauth-secret-value");
    }
    expect((await call("appid=engage-console&secret=x&grant_type=client_credentials", secretMode)).status).toBe(404);
    expect(await t.store.db.selectFrom("webhook_tokens").select("token_hash").execute()).toEqual([]);
  });

  it("a token issued in another mode's store of another app is not accepted", async () => {
    const { access_token: token } = await (await getToken()).json();
    const otherApp: WebhookAuthConfig = { mode: "oauth2", appId: "another-app", secret: "webhook-oauth-secret-value" };
    expect((await deliver(otherApp, { query: `?access_token=${token}` })).status).toBe(401);
  });
});

describe("none mode", () => {
  it("accepts a delivery without any credentials and records that it was unauthenticated", async () => {
    expect((await deliver({ mode: "none" })).status).toBe(200);
    expect((await recentActivity(t.store, { openAppId: "oa-alpha", tenantId: "1001" }))[0]?.verification).toBe("none");
  });

  it("takes the environment from a per-installation address whose sig checks, when the payload names none", async () => {
    const body = JSON.stringify({ deliveryId: "x1", event: "tag.created", tenantId: "5" });
    expect((await deliver({ mode: "none" }, { body, query: `?${webhookAddressQuery(ADDRESS_KEY, "oa-beta")}` })).status).toBe(200);
    expect(await recentActivity(t.store, { openAppId: "oa-beta", tenantId: "5" })).toHaveLength(1);
  });
});

describe("tenant attribution cannot be re-targeted", () => {
  it("a signed body without openAppId is never stored under an unsigned or forged ?openAppId=", async () => {
    const body = JSON.stringify({ deliveryId: "r1", event: "customer.updated", tenantId: "1001" });
    const headers = { "X-Service-Hmac-Signature": sign(body) };
    const forgedSig = webhookAddressQuery("another-key", "oa-beta");
    for (const query of ["?openAppId=oa-alpha", "?openAppId=oa-beta", `?${forgedSig}`, `?openAppId=oa-beta&sig=${"A".repeat(43)}`, `?${webhookAddressQuery(ADDRESS_KEY, "oa-beta")}&openAppId=oa-alpha`]) {
      expect((await deliver(secretMode, { body, headers, query })).status, query).toBe(200);
    }
    expect(await recentActivity(t.store, { openAppId: "oa-alpha", tenantId: "1001" })).toHaveLength(0);
    expect(await recentActivity(t.store, { openAppId: "oa-beta", tenantId: "1001" })).toHaveLength(0);
    // stored once, unattributed
    const rows = await t.store.db.selectFrom("webhook_inbox").select(["open_app_id", "tenant_id"]).execute();
    expect(rows).toEqual([{ open_app_id: "", tenant_id: "1001" }]);
  });

  it("the body's openAppId wins over an address's", async () => {
    const headers = { "X-Service-Hmac-Signature": sign(compact) };
    expect((await deliver(secretMode, { headers, query: `?${webhookAddressQuery(ADDRESS_KEY, "oa-beta")}` })).status).toBe(200);
    expect(await recentActivity(t.store, { openAppId: "oa-alpha", tenantId: "1001" })).toHaveLength(1);
    expect(await recentActivity(t.store, { openAppId: "oa-beta", tenantId: "1001" })).toHaveLength(0);
  });
});

describe("logs", () => {
  it("never contain the signature, secret, password or token", async () => {
    const capture = captureLogsForTests();
    try {
      const signature = sign(compact);
      await deliver(secretMode, { headers: { "X-Service-Hmac-Signature": signature } });
      await deliver(secretMode, { headers: { "X-Service-Hmac-Signature": sign(compact, "x-secret-x") } });
      await deliver(basicMode, { headers: { Authorization: basic("平台", "wrong-password-here") } });
      await deliver(oauthMode, { query: "?access_token=wht_secret_token_value" });
      const text = capture.lines.join("\n");
      expect(capture.lines.length).toBeGreaterThanOrEqual(4);
      for (const secret of [signature, SECRET, "wrong-password-here", "pässwörd", "wht_secret_token_value", sign(compact, "x-secret-x")]) {
        expect(text).not.toContain(secret);
      }
    } finally {
      capture.restore();
    }
  });
});

describe("hand-off to the features' topic handlers", () => {
  it("passes a new delivery once, with its topic and `data` parsed losslessly; a duplicate is not passed again", async () => {
    const body = `{"deliveryId":"whd_topic","event":"customer.merged","openAppId":"oa-alpha","tenantId":1001,"resource":"customer","action":"merged","resourceId":"${BIG}","data":{"fromId":9007199254740995,"toId":${BIG}}}`;
    const events: WebhookEvent[] = [];
    const topics = { dispatch: async (event: WebhookEvent) => void events.push(event) };
    const send = () =>
      receiveWebhook(new Request(URL_BASE, { method: "POST", headers: { "X-Service-Hmac-Signature": sign(body) }, body }), { config: secretMode, store: async () => t.store, now: () => now, topics });
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ topic: "customer.merged", data: { fromId: 9007199254740995n, toId: BIG }, delivery: { resourceId: String(BIG), deliveryId: "whd_topic" } });
  });

  it("answers 200 and keeps the delivery when a handler fails", async () => {
    const topics = createTopicRegistry();
    topics.on(["customer.updated"], "broken", () => Promise.reject(new Error("index down")));
    const request = new Request(URL_BASE, { method: "POST", headers: { "X-Service-Hmac-Signature": sign(compact) }, body: compact });
    const res = await receiveWebhook(request, { config: secretMode, store: async () => t.store, now: () => now, topics });
    expect(res.status).toBe(200);
    expect(await stored()).toBe(1);
  });
});

for (const dialect of testDialects) {
  describe.skipIf(!dialect.enabled)(`a signed delivery whose fields hold NUL, on ${dialect.name}`, () => {
    it("is stored (200, never a 503 the platform retries forever); its retry is a duplicate; another such id is another delivery", async () => {
      const pg = await dialect.open();
      try {
        const send = (deliveryId: string) => {
          const body = JSON.stringify({ ...payload, deliveryId, event: "customer.updated\u0000", data: { name: "Li\u0000Na" } });
          return deliver(secretMode, { body, headers: { "X-Service-Hmac-Signature": sign(body) }, store: async () => pg.store });
        };
        const first = await send("whd\u0000a");
        expect([first.status, await first.json()]).toEqual([200, { received: true }]);
        expect(await (await send("whd\u0000a")).json()).toEqual({ received: true, duplicate: true });
        expect((await send("whd\u0000b")).status).toBe(200);
        const rows = await pg.store.db.selectFrom("webhook_inbox").select(["delivery_id", "kind", "payload"]).orderBy("id").execute();
        expect(rows.map((r) => [r.delivery_id, r.kind])).toEqual([
          ["whd\ufffda", "customer.updated\ufffd"],
          ["whd\ufffdb", "customer.updated\ufffd"],
        ]);
        // the payload is the text as sent: the NUL is still there, as its JSON escape
        expect(rows[0]!.payload).toContain("Li\\u0000Na");
      } finally {
        await pg.cleanup();
      }
    });
  });
}
