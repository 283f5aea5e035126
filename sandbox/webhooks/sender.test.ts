import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../server";
import { postJson, startTestSandbox } from "../testing/harness";
import { removeJsonWhitespace, signWebhookPayload } from "@/lib/platform/webhook-signature";

type Received = { method: string; url: URL; headers: IncomingMessage["headers"]; body: string };

let sandbox: RunningSandbox;
let alpha: string;
let receiver: Server;
let receiverUrl: string;
let received: Received[];
/** Status codes the receiver answers with, in order; 200 once exhausted. */
let script: number[];
let tokenRequests: URL[];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url!, receiverUrl);
      if (url.pathname === "/token") {
        tokenRequests.push(url);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ access_token: "hook-token-1", expires_in: 3600 }));
        return;
      }
      received.push({ method: req.method!, url, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(script.shift() ?? 200);
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  sandbox = await startTestSandbox();
  alpha = sandbox.urls.alpha!;
});
afterAll(async () => {
  await sandbox.close();
  await new Promise((r) => receiver.close(r));
});
beforeEach(async () => {
  await fetch(`${alpha}/__sandbox/reset`, { method: "POST" });
  received = [];
  script = [];
  tokenRequests = [];
  await postJson(`${alpha}/__sandbox/installations`, { environment: "alpha", installed: true });
  const res = await postJson(`${alpha}/__sandbox/webhooks/config`, { url: `${receiverUrl}/hook`, tokenUrl: `${receiverUrl}/token`, baseDelayMs: 20, maxAttempts: 3 });
  expect(res.status).toBe(200);
});

async function send(body: Record<string, unknown> = {}) {
  const res = await postJson(`${alpha}/__sandbox/webhooks/send`, { environment: "alpha", resource: "customer", action: "updated", id: "9007199254741993", ...body });
  expect(res.status).toBe(202);
  return (await res.json()).queued as string[];
}

async function deliveries() {
  return (await (await fetch(`${alpha}/__sandbox/webhooks/deliveries`)).json()).deliveries as Array<{
    id: string; status: string; attempts: Array<{ number: number; httpStatus?: number; error?: string; durationMs: number }>;
  }>;
}

async function settled(count = 1) {
  for (let i = 0; i < 200; i++) {
    const all = await deliveries();
    if (all.length >= count && all.every((d) => d.status === "delivered" || d.status === "failed")) return all;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("deliveries did not settle");
}

describe("webhook sender (§5.5)", () => {
  it("secret mode: X-Service-Hmac-Signature is the hex HMAC-SHA256 of the compact JSON payload", async () => {
    const [id] = await send({ data: { name: "Li Na 李娜", customerId: 9007199254741993n.toString() } });
    await settled();
    expect(received).toHaveLength(1);
    const { headers, body, method } = received[0]!;
    expect(method).toBe("POST");
    expect(headers["content-type"]).toMatch(/application\/json/);
    const expected = createHmac("sha256", "sandbox-webhook-secret").update(removeJsonWhitespace(body), "utf8").digest("hex");
    expect(headers["x-service-hmac-signature"]).toBe(expected);
    expect(body).toBe(removeJsonWhitespace(body)); // sent compact
    const payload = JSON.parse(body);
    expect(payload).toEqual({
      deliveryId: id,
      event: "customer.updated",
      occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      appId: "engage-console",
      environment: "alpha",
      openAppId: "oa-alpha-7f3c9e21",
      tenantId: 80000000001,
      resource: "customer",
      action: "updated",
      resourceId: "9007199254741993",
      data: { name: "Li Na 李娜", customerId: "9007199254741993" },
    });
    expect(headers.authorization).toBeUndefined();
  });

  it("basic mode: Authorization: Basic base64(user:password) in UTF-8", async () => {
    await postJson(`${alpha}/__sandbox/webhooks/config`, { mode: "basic", basicUser: "hook", basicPassword: "pässwörd" });
    await send();
    await settled();
    expect(received[0]!.headers.authorization).toBe(`Basic ${Buffer.from("hook:pässwörd", "utf8").toString("base64")}`);
    expect(received[0]!.headers["x-service-hmac-signature"]).toBeUndefined();
  });

  it("oauth2 mode: fetches a token with appid, secret and client_credentials, then posts with access_token", async () => {
    await postJson(`${alpha}/__sandbox/webhooks/config`, { mode: "oauth2", oauthAppId: "engage-console", oauthSecret: "oauth-secret" });
    await send();
    await send();
    await settled(2);
    expect(tokenRequests).toHaveLength(1); // cached while valid
    const t = tokenRequests[0]!;
    expect(Object.fromEntries(t.searchParams)).toEqual({ appid: "engage-console", secret: "oauth-secret", grant_type: "client_credentials" });
    expect(received.map((r) => r.url.searchParams.get("access_token"))).toEqual(["hook-token-1", "hook-token-1"]);
    expect(received[0]!.headers.authorization).toBeUndefined();
  });

  it("none mode: no authentication at all", async () => {
    await postJson(`${alpha}/__sandbox/webhooks/config`, { mode: "none" });
    await send();
    await settled();
    expect(received[0]!.headers.authorization).toBeUndefined();
    expect(received[0]!.headers["x-service-hmac-signature"]).toBeUndefined();
    expect(received[0]!.url.searchParams.get("access_token")).toBeNull();
  });

  it("retries a failed delivery with backoff, with the same delivery id, and logs every attempt", async () => {
    script = [500, 503];
    const [id] = await send();
    const [delivery] = await settled();
    expect(delivery!.status).toBe("delivered");
    expect(delivery!.attempts.map((a) => a.httpStatus)).toEqual([500, 503, 200]);
    expect(received.map((r) => JSON.parse(r.body).deliveryId)).toEqual([id, id, id]);
    expect(new Set(received.map((r) => r.headers["x-service-hmac-signature"])).size).toBe(1);
  });

  it("gives up after maxAttempts and marks the delivery failed", async () => {
    script = [500, 500, 500, 500];
    await send();
    const [delivery] = await settled();
    expect(delivery!.status).toBe("failed");
    expect(delivery!.attempts).toHaveLength(3);
  });

  it("records network errors as failed attempts", async () => {
    await postJson(`${alpha}/__sandbox/webhooks/config`, { url: "http://127.0.0.1:1/hook", maxAttempts: 2 });
    await send();
    const [delivery] = await settled();
    expect(delivery!.status).toBe("failed");
    expect(delivery!.attempts[0]!.error).toBeTruthy();
  });

  it("sends only for tenants that installed the app, and not when disabled", async () => {
    expect(await send({ environment: "beta" })).toEqual([]);
    await postJson(`${alpha}/__sandbox/webhooks/config`, { enabled: false });
    expect(await send()).toEqual([]);
    expect(received).toHaveLength(0);
  });

  it("does not hold up the publisher: publishing returns before the receiver answers", async () => {
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const slowServer = createServer(async (_req, res) => {
      await slow;
      res.end();
    });
    await new Promise<void>((r) => slowServer.listen(0, "127.0.0.1", r));
    try {
      await postJson(`${alpha}/__sandbox/webhooks/config`, { url: `http://127.0.0.1:${(slowServer.address() as AddressInfo).port}/` });
      const queued = await send();
      expect(queued).toHaveLength(1);
      expect((await deliveries())[0]!.status).toBe("pending");
      release();
      await settled();
    } finally {
      release();
      slowServer.closeAllConnections();
      await new Promise((r) => slowServer.close(r));
    }
  });

  it("refuses bad configuration and never echoes secrets", async () => {
    expect((await postJson(`${alpha}/__sandbox/webhooks/config`, { mode: "magic" })).status).toBe(400);
    expect((await postJson(`${alpha}/__sandbox/webhooks/config`, { url: "not a url" })).status).toBe(400);
    const shown = await (await fetch(`${alpha}/__sandbox/webhooks/config`)).text();
    expect(shown).not.toContain("sandbox-webhook-secret");
    expect(JSON.parse(shown)).toMatchObject({ mode: "secret", url: `${receiverUrl}/hook` });
  });
});

describe("JSON whitespace rule of the signature", () => {
  it("removes whitespace between tokens only, never inside strings", () => {
    const pretty = '{\n  "name": "Li Na \\" x",\n\t"tags": [ "a b", 1 ]\r\n}';
    expect(removeJsonWhitespace(pretty)).toBe('{"name":"Li Na \\" x","tags":["a b",1]}');
    expect(signWebhookPayload("k", removeJsonWhitespace(pretty))).toBe(signWebhookPayload("k", '{"name":"Li Na \\" x","tags":["a b",1]}'));
  });
});
