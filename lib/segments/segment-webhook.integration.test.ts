import { afterAll, beforeAll, beforeEach, expect, it, vi } from "vitest";
import { createLifecycleRegistry } from "@/lib/auth/lifecycle";
import { inProcessQueue } from "@/lib/jobs/in-process";
import type { JobQueue } from "@/lib/jobs/queue";
import { startWebhookSeam } from "@/lib/platform/testing/webhook-seam";
import { createSearchService, type SearchService } from "@/lib/search/service";
import { findTenant } from "@/lib/search/tenant-state";
import { subscribeCustomerIndex } from "@/lib/search/webhooks";
import type { Store } from "@/lib/store/database";
import { describeEachDialect, warnIfPostgresSkipped } from "@/lib/store/testing";
import { serveWebhookReceiver } from "@/lib/webhooks/testing";
import { createTopicRegistry } from "@/lib/webhooks/topics";
import { definitionSchema } from "./segment-conditions";
import { countSegment } from "./segment-query";

/**
 * A change on the platform reaches a segment's count within 5 s: the sandbox's own signed webhook →
 * the receiver → the people index → the count (a live query over the index), on both stores.
 */

warnIfPostgresSkipped("segments: webhook → index → count");

const SECRET = "segments-seam-secret";
const seam = await startWebhookSeam();
const { key, call } = seam;

let search: SearchService;
let queue: JobQueue;
let app: Awaited<ReturnType<typeof serveWebhookReceiver>>;
const topics = createTopicRegistry();
let storeOf: () => Promise<Store>;

beforeAll(async () => {
  subscribeCustomerIndex({ topics, lifecycle: createLifecycleRegistry() }, () => search);
  app = await serveWebhookReceiver({ secret: SECRET, store: () => storeOf(), topics });
}, 60_000);
afterAll(async () => {
  await app.close();
  await seam.sandbox.close();
});

describeEachDialect("segments: webhook → index → count", (t) => {
  beforeEach(async () => {
    await seam.prepare({ customers: 30, webhookUrl: app.url, secret: SECRET });
    storeOf = async () => t.store;
    queue = inProcessQueue({ onError: (name, error) => console.error(name, error) });
    search = createSearchService({ store: async () => t.store, queue: async () => queue, callerFor: () => call, enabled: true, pollSeconds: 0 });
    await search.requestSync(key);
    await search.idle();
    return async () => {
      await queue.stop();
    };
  }, 60_000);

  it("a customer moved into the segment's stage on the platform is counted within 5 s, and out of it again", { timeout: 30_000 }, async () => {
    const stage = `hook-${Date.now().toString(36)}`;
    const definition = definitionSchema.parse({ match: "all", conditions: [{ field: "stage", op: "is", values: [stage] }] });
    const count = async () => {
      const tenant = await findTenant(t.store, key);
      return tenant ? countSegment({ store: t.store, tenant: tenant.tenant, definition, now: Date.now() }) : -1;
    };
    expect(await count()).toBe(0);
    const { rows } = await call("customers.list", { query: { rows: 2, select: "id" } });
    const [first, second] = rows.map((r) => String(r.id));
    await call("customers.update", { params: { id: first! }, body: { stage } });
    await call("customers.update", { params: { id: second! }, body: { stage } });
    // Waits for the thing itself; the 5 s bound is the target.
    await vi.waitFor(async () => expect(await count()).toBe(2), { timeout: 5000, interval: 50 });
    await call("customers.update", { params: { id: first! }, body: { stage: "lead" } });
    await vi.waitFor(async () => expect(await count()).toBe(1), { timeout: 5000, interval: 50 });
  });
});
