import { createHmac } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as platformRoute } from "@/app/api/webhooks/platform/route";
import { GET as tokenRoute } from "@/app/api/webhooks/token/route";
import { resetEnvForTests } from "@/lib/env";
import { setStoreForTests } from "@/lib/store";
import { openSqliteTestStore, testDialects, warnIfPostgresSkipped, type TestStore } from "@/lib/store/testing";
import { recentActivity } from "@/lib/store/webhook-inbox";
import type { RunningSandbox } from "@/sandbox/server";
import { postJson, startTestSandbox } from "@/sandbox/testing/harness";
import type { WebhookAuthConfig } from "./authenticate";
import { receiveWebhook } from "./receive";
import { serveHandlers, type ServedHandlers } from "./testing";
import { handleWebhookTokenRequest } from "./token-endpoint";

/**
 * The sandbox's real webhook sender (sandbox/webhooks/sender.ts) delivering to the app's receiver over
 * HTTP, in each of the four modes of §5.5, and a mismatch in each mode failing with 401.
 */

warnIfPostgresSkipped("500 concurrent webhook deliveries over HTTP");

type SenderDelivery = { id: string; status: string; attempts: Array<{ httpStatus?: number }>; payload: { openAppId: string; tenantId: number } };

let sandbox: RunningSandbox;
let alpha: string;
let app: ServedHandlers;
let t: TestStore;
let appConfig: WebhookAuthConfig;

beforeAll(async () => {
  app = await serveHandlers({
    "/api/webhooks/platform": { POST: (request) => receiveWebhook(request, { config: appConfig, store: async () => t.store }) },
    "/api/webhooks/token": { GET: (request) => handleWebhookTokenRequest(request, { config: appConfig, store: async () => t.store }) },
  });
  sandbox = await startTestSandbox();
  alpha = sandbox.urls.alpha!;
});
afterAll(async () => {
  await sandbox.close();
  await app.close();
});
beforeEach(async () => {
  t = await openSqliteTestStore();
  await fetch(`${alpha}/__sandbox/reset`, { method: "POST" });
  await postJson(`${alpha}/__sandbox/installations`, { environment: "alpha", installed: true });
});
afterEach(() => t.cleanup());

async function configureSender(config: Record<string, unknown>) {
  const res = await postJson(`${alpha}/__sandbox/webhooks/config`, {
    url: `${app.origin}/api/webhooks/platform`,
    tokenUrl: `${app.origin}/api/webhooks/token`,
    baseDelayMs: 10,
    maxAttempts: 2,
    ...config,
  });
  expect(res.status).toBe(200);
}

async function sendChange(): Promise<string> {
  const res = await postJson(`${alpha}/__sandbox/webhooks/send`, {
    environment: "alpha",
    resource: "customer",
    action: "updated",
    id: "9007199254741993",
    data: { name: "Li  Na 李 娜" },
  });
  expect(res.status).toBe(202);
  const { queued } = (await res.json()) as { queued: string[] };
  expect(queued).toHaveLength(1);
  return queued[0]!;
}

async function settled(id: string): Promise<SenderDelivery> {
  for (let i = 0; i < 300; i++) {
    const { deliveries } = (await (await fetch(`${alpha}/__sandbox/webhooks/deliveries`)).json()) as { deliveries: SenderDelivery[] };
    const found = deliveries.find((d) => d.id === id);
    if (found && (found.status === "delivered" || found.status === "failed")) return found;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`delivery ${id} did not settle`);
}

async function inbox() {
  return t.store.db.selectFrom("webhook_inbox").select(["delivery_id", "verification", "kind", "resource_id", "open_app_id", "tenant_id"]).execute();
}

const modes: Array<{ name: string; sender: Record<string, unknown>; app: WebhookAuthConfig; wrong: Record<string, unknown> }> = [
  {
    name: "secret",
    sender: { mode: "secret", secret: "shared-webhook-secret" },
    app: { mode: "secret", secret: "shared-webhook-secret" },
    wrong: { mode: "secret", secret: "another-webhook-secret" },
  },
  {
    name: "basic",
    sender: { mode: "basic", basicUser: "hook", basicPassword: "pässwörd 密码" },
    app: { mode: "basic", user: "hook", password: "pässwörd 密码" },
    wrong: { mode: "basic", basicUser: "hook", basicPassword: "pässwörd" },
  },
  {
    name: "oauth2",
    sender: { mode: "oauth2", oauthAppId: "engage-console", oauthSecret: "webhook-oauth-secret" },
    app: { mode: "oauth2", appId: "engage-console", secret: "webhook-oauth-secret" },
    wrong: { mode: "oauth2", oauthAppId: "engage-console", oauthSecret: "not-the-secret" },
  },
  { name: "none", sender: { mode: "none" }, app: { mode: "none" }, wrong: { mode: "secret", secret: "irrelevant" } },
];

describe("the sandbox's sender delivers to the app's receiver (§5.5)", () => {
  for (const mode of modes) {
    it(`${mode.name}: delivered once, stored with its mode`, async () => {
      appConfig = mode.app;
      await configureSender(mode.sender);
      const id = await sendChange();
      const delivery = await settled(id);
      expect(delivery.status).toBe("delivered");
      expect(delivery.attempts.map((a) => a.httpStatus)).toEqual([200]);
      expect(await inbox()).toEqual([
        {
          delivery_id: id,
          verification: mode.name,
          kind: "customer.updated",
          resource_id: "9007199254741993",
          open_app_id: delivery.payload.openAppId,
          tenant_id: String(delivery.payload.tenantId),
        },
      ]);
    });

    if (mode.name !== "none") {
      it(`${mode.name}: a sender with the wrong credentials gets 401 and nothing is stored`, async () => {
        appConfig = mode.app;
        await configureSender(mode.wrong);
        const delivery = await settled(await sendChange());
        expect(delivery.status).toBe("failed");
        // oauth2: the token endpoint itself refuses, so no delivery is even attempted with a token.
        if (mode.name !== "oauth2") expect(delivery.attempts.map((a) => a.httpStatus)).toEqual([401, 401]);
        expect(await inbox()).toEqual([]);
      });
    }
  }

  it("the real route handlers (dev defaults: secret mode, sandbox-webhook-secret) accept the sender's default signing", async () => {
    resetEnvForTests();
    setStoreForTests(t.store);
    const routes = await serveHandlers({ "/api/webhooks/platform": { POST: platformRoute }, "/api/webhooks/token": { GET: tokenRoute } });
    try {
      await configureSender({ url: `${routes.origin}/api/webhooks/platform`, mode: "secret", secret: "sandbox-webhook-secret" });
      const delivery = await settled(await sendChange());
      expect(delivery.status).toBe("delivered");
      expect(await recentActivity(t.store, { openAppId: delivery.payload.openAppId, tenantId: String(delivery.payload.tenantId) })).toHaveLength(1);
      // The token endpoint is closed outside oauth2 mode.
      expect((await fetch(`${routes.origin}/api/webhooks/token?appid=a&secret=b&grant_type=client_credentials`)).status).toBe(404);
    } finally {
      setStoreForTests(undefined);
      await routes.close();
    }
  });
});

for (const dialect of testDialects) {
  describe.skipIf(!dialect.enabled)(`500 concurrent HTTP deliveries with 10 % duplicates on ${dialect.name}`, () => {
    it("stores each delivery exactly once and loses none", async () => {
      const own = await dialect.open();
      const secret = "concurrency-secret";
      const served = await serveHandlers({
        "/hook": { POST: (request) => receiveWebhook(request, { config: { mode: "secret", secret }, store: async () => own.store }) },
      });
      try {
        const bodies = Array.from({ length: 450 }, (_, i) =>
          JSON.stringify({ deliveryId: `whd_c${i}`, event: "order.created", openAppId: "oa-alpha", tenantId: 1001, resourceId: String(9007199254740993000n + BigInt(i)) }),
        );
        const all = [...bodies, ...bodies.filter((_, i) => i % 9 === 0)].sort(() => Math.random() - 0.5);
        expect(all).toHaveLength(500);
        const answers = await Promise.all(
          all.map(async (body) => {
            const signature = createHmac("sha256", secret).update(body).digest("hex");
            const res = await fetch(`${served.origin}/hook`, { method: "POST", headers: { "X-Service-Hmac-Signature": signature }, body });
            return { status: res.status, json: (await res.json()) as { received?: boolean; duplicate?: boolean } };
          }),
        );
        expect(answers.every((a) => a.status === 200 && a.json.received === true)).toBe(true);
        expect(answers.filter((a) => a.json.duplicate)).toHaveLength(50);
        const rows = await own.store.db.selectFrom("webhook_inbox").select("delivery_id").execute();
        expect(rows).toHaveLength(450);
        expect(new Set(rows.map((r) => r.delivery_id)).size).toBe(450);
      } finally {
        await served.close();
        await own.cleanup();
      }
    });
  });
}
