import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { createLifecycleRegistry, type LifecycleRegistry } from "@/lib/auth/lifecycle";
import { inProcessQueue } from "@/lib/jobs/in-process";
import type { JobQueue } from "@/lib/jobs/queue";
import { startWebhookSeam } from "@/lib/platform/testing/webhook-seam";
import { signWebhookPayload, WEBHOOK_SIGNATURE_HEADER } from "@/lib/platform/webhook-signature";
import type { Store } from "@/lib/store/database";
import { describeEachDialect, warnIfPostgresSkipped } from "@/lib/store/testing";
import { recentActivity, type InboxDelivery } from "@/lib/store/webhook-inbox";
import { staleQueryKeys } from "@/lib/webhooks/activity";
import { serveWebhookReceiver } from "@/lib/webhooks/testing";
import { createTopicRegistry } from "@/lib/webhooks/topics";
import { lookupIndexed, searchIndex, upsertCustomers } from "./index-store";
import { createSearchService, DISCONNECTED, type SearchService } from "./service";
import { findTenant } from "./tenant-state";
import { subscribeCustomerIndex } from "./webhooks";

/**
 * The seam from the platform's webhook to the customer index: the sandbox's own sender signs each
 * delivery (§5.5 secret mode), the app's receiver stores it in the inbox and hands it to the topic
 * registry, the customer index (subscribed as at start-up) queues the change, and the index is
 * asserted once the queue is idle. Every customer id is the sandbox's, above 2^53.
 */

warnIfPostgresSkipped("webhook → queue → customer index");

const SECRET = "webhook-seam-secret";
const seam = await startWebhookSeam();
const { key, call, control } = seam;

/** Deliveries whose handlers have all settled, in that order; waiters are told after each. */
const handled: InboxDelivery[] = [];
let waiters: Array<() => void> = [];

/** Resolves once these topics (with repeats) were handled after position `from` of `handled`. */
function handledAfter(from: number, topics: string[]): Promise<void> {
  const done = () => {
    const seen = handled.slice(from).map((d) => d.kind);
    return topics.every((topic) => seen.filter((s) => s === topic).length >= topics.filter((x) => x === topic).length);
  };
  return new Promise((resolve) => {
    if (done()) resolve();
    else waiters.push(() => done() && resolve());
  });
}

let service: SearchService;
let queue: JobQueue;
let lifecycle: LifecycleRegistry;
let app: Awaited<ReturnType<typeof serveWebhookReceiver>>;
let store: () => Promise<Store>;
const topics = createTopicRegistry();

beforeAll(async () => {
  // As lib/composition.ts does at start-up; the lifecycle part is subscribed per test (below).
  subscribeCustomerIndex({ topics, lifecycle: createLifecycleRegistry() }, () => service);
  app = await serveWebhookReceiver({
    secret: SECRET,
    store: () => store(),
    topics: {
      dispatch: async (event, log) => {
        await topics.dispatch(event, log);
        handled.push(event.delivery);
        for (const wake of waiters) wake();
      },
    },
  });
}, 60_000);
afterAll(async () => {
  await app.close();
  await seam.sandbox.close();
});

describeEachDialect("webhook → queue → customer index", (t) => {
  let tenant: number;

  beforeEach(async () => {
    await seam.prepare({ customers: 30, webhookUrl: app.url, secret: SECRET });
    store = async () => t.store;
    handled.length = 0;
    waiters = [];
    const inner = inProcessQueue({ onError: (name, error) => console.error(name, error) });
    // pg-boss keeps job data as JSON: a bigint in it would throw, so every job is written as JSON here too.
    queue = { ...inner, send: (name, data, options) => (JSON.stringify(data), inner.send(name, data, options)) };
    lifecycle = createLifecycleRegistry();
    subscribeLifecycleOnly(lifecycle);
    service = createSearchService({ store: async () => t.store, queue: async () => queue, callerFor: () => call, enabled: true, pollSeconds: 0 });
    await service.requestSync(key);
    await service.idle();
    const state = await findTenant(t.store, key);
    expect(state).toMatchObject({ phase: "ready", error: null });
    tenant = state!.tenant;
    return () => queue.stop();
  });

  /** The lifecycle part of the subscription, on this test's registry (the topics are shared). */
  function subscribeLifecycleOnly(registry: LifecycleRegistry) {
    subscribeCustomerIndex({ topics: createTopicRegistry(), lifecycle: registry }, () => service);
  }

  const sorted = (hits: Array<{ id: string }>) => hits.map((h) => h.id).sort();
  const tagged = async (tag: string) => sorted((await searchIndex(t.store, tenant, { tag, limit: 200 })).hits);
  const found = async (q: string) => sorted((await searchIndex(t.store, tenant, { q, limit: 200 })).hits);
  const indexed = async (ids: string[]) => sorted(await lookupIndexed(t.store, tenant, ids));

  /** Runs a platform change and waits until its deliveries were handled and the index queue is idle. */
  async function change(deliveries: string[], work: () => Promise<unknown>): Promise<void> {
    const from = handled.length;
    await work();
    await handledAfter(from, deliveries);
    await service.idle();
  }

  async function someCustomers(n: number): Promise<string[]> {
    const { rows } = await call("customers.list", { query: { rows: n, page: 1, sidx: "id", sord: "asc", select: "id" } });
    const ids = rows.map((r) => String(r.id));
    expect(ids.every((id) => BigInt(id) > 2n ** 53n)).toBe(true);
    return ids;
  }

  async function tagId(name: string): Promise<string> {
    const { rows } = await call("tags.list", { query: { rows: 1000, page: 1 } });
    return String(rows.find((r) => r.name === name)!.id);
  }

  async function tagEach(ids: string[], name: string): Promise<void> {
    await change(
      ids.map(() => "customerTag.added"),
      async () => {
        for (const id of ids) await call("customerTags.add", { body: { customerId: id, tags: [{ name }] } });
      },
    );
  }

  it("customer.created, customer.updated, customer.deleted: the customer appears, changes, leaves", { timeout: 60_000 }, async () => {
    let created = "";
    await change(["customer.created"], async () => {
      created = String((await call("customers.upsert", { body: { name: "欧阳娜娜", email: "seam-new@hook.test" } })).id);
    });
    expect(BigInt(created) > 2n ** 53n).toBe(true);
    expect(await found("seam-new")).toEqual([created]);

    await change(["customer.updated"], () => call("customers.update", { params: { id: created }, body: { email: "seam-changed@hook.test" } }));
    expect(await found("seam-new")).toEqual([]);
    expect(await found("seam-changed")).toEqual([created]);

    await change(["customer.deleted"], () => call("customers.delete", { params: { id: created } }));
    expect(await indexed([created])).toEqual([]);
  });

  it("customer.merged: the merged-away customer is gone, the one that stays carries its tags", { timeout: 60_000 }, async () => {
    const [to, from] = await someCustomers(2);
    await tagEach([from!], "Seam Merge");
    expect(await tagged("Seam Merge")).toEqual([from]);
    await change(["customer.merged", "customer.deleted"], () => call("customers.mergeById", { query: { fromId: from!, toId: to! } }));
    expect(await indexed([from!, to!])).toEqual([to]);
    expect(await tagged("Seam Merge")).toEqual([to]);
  });

  it("customerTag.added, customerTag.removed: the customer's tags in the index follow", { timeout: 60_000 }, async () => {
    const ids = await someCustomers(2);
    await tagEach(ids, "Seam Tag");
    expect(await tagged("Seam Tag")).toEqual(ids);
    await change(["customerTag.removed"], () => call("customerTags.remove", { body: { customerId: ids[0]!, tags: ["Seam Tag"] } }));
    expect(await tagged("Seam Tag")).toEqual([ids[1]]);
  });

  it("tag.merged: the customers of the merged-away tag are found under the tag that stays, not the old one", { timeout: 60_000 }, async () => {
    const ids = await someCustomers(3);
    await tagEach(ids, "Seam A");
    await change(["tag.created"], () => call("tags.create", { body: { name: "Seam B", dimension: "basic" } }));
    expect(await tagged("Seam A")).toEqual(ids);
    const [fromId, toId] = [await tagId("Seam A"), await tagId("Seam B")];
    await change(["tag.merged", "tag.deleted"], () => call("tags.merge", { params: { fromId, toId } }));
    expect(await tagged("Seam B")).toEqual(ids);
    expect(await tagged("Seam A")).toEqual([]);
  });

  it("tag.updated (a rename): the customers are found under the new name only", { timeout: 60_000 }, async () => {
    const ids = await someCustomers(2);
    await tagEach(ids, "Seam Old");
    const id = await tagId("Seam Old");
    await change(["tag.updated"], () => call("tags.update", { params: { id }, body: { name: "Seam New" } }));
    expect(await tagged("Seam New")).toEqual(ids);
    expect(await tagged("Seam Old")).toEqual([]);
  });

  it("tag.deleted: no customer is indexed under the tag any more; other tags stay", { timeout: 60_000 }, async () => {
    const ids = await someCustomers(2);
    await tagEach(ids, "Seam Gone");
    await tagEach([ids[0]!], "Seam Kept");
    const id = await tagId("Seam Gone");
    await change(["tag.deleted"], () => call("tags.delete", { params: { id } }));
    expect(await tagged("Seam Gone")).toEqual([]);
    expect(await tagged("Seam Kept")).toEqual([ids[0]]);
  });

  it("listMember.added, listMember.removed: stored for the console's refresh of lists; the index (no list membership) is unchanged", { timeout: 60_000 }, async () => {
    const [customer] = await someCustomers(1);
    const before = await searchIndex(t.store, tenant, { limit: 200 });
    let listId = "";
    await change(["list.created"], async () => {
      listId = String((await call("lists.create", { body: { name: "Seam list" } })).id);
    });
    let memberId = "";
    await change(["listMember.added"], async () => {
      memberId = String((await call("listMembers.add", { body: { data: { customerId: customer!, listId } } })).data.id);
    });
    await change(["listMember.removed"], () => call("listMembers.delete", { params: { id: memberId } }));

    const members = (await recentActivity(t.store, key)).filter((e) => e.resource === "listMember");
    expect(members.map((e) => [e.kind, e.resourceId])).toEqual([
      ["listMember.removed", memberId],
      ["listMember.added", memberId],
    ]);
    expect(staleQueryKeys(members)).toEqual([
      ["platform", "listMembers"],
      ["platform", "lists"],
    ]);
    expect(await searchIndex(t.store, tenant, { limit: 200 })).toEqual(before);
  });

  it("ids inside `data` that are JSON integers above 2^53 stay exact (one lossless parse): the right customer leaves on a merge", { timeout: 60_000 }, async () => {
    await control("/webhooks/config", { enabled: false });
    const ids = await someCustomers(30);
    // An id that a double cannot hold (odd, above 2^53): plain JSON.parse would turn it into a neighbour.
    const from = ids.find((id) => BigInt(id) % 2n === 1n && String(Number(id)) !== id)!;
    const to = ids.find((id) => id !== from && String(Number(id)) === id) ?? ids.find((id) => id !== from)!;
    expect(from).toBeDefined();
    await call("customers.mergeById", { query: { fromId: from, toId: to } });
    const body = `{"deliveryId":"seam-lossless-1","event":"customer.merged","occurredAt":"2026-11-22T01:02:03Z","appId":"engage-console","environment":"alpha","openAppId":"${key.openAppId}","tenantId":${key.tenantId},"resource":"customer","action":"merged","resourceId":"${to}","data":{"fromId":${from},"toId":${to}}}`;
    const from0 = handled.length;
    const res = await fetch(app.url, { method: "POST", body, headers: { "content-type": "application/json", [WEBHOOK_SIGNATURE_HEADER]: signWebhookPayload(SECRET, body) } });
    expect(res.status).toBe(200);
    await handledAfter(from0, ["customer.merged"]);
    await service.idle();
    const neighbours = ids.filter((id) => id !== from && id !== to);
    expect(await indexed([from, to])).toEqual([to]);
    expect(await indexed(neighbours)).toEqual([...neighbours].sort());
  });

  it("installed (lifecycle): the tenant's index is dropped and read again from the platform", { timeout: 60_000 }, async () => {
    await upsertCustomers(t.store, tenant, [{ id: "1", displayName: "Only in the old index", name: null, nickName: null, email: null, mobile: null, stage: null, source: null, gender: null, dateCreated: null, lastUpdated: null }]);
    expect(await indexed(["1"])).toEqual(["1"]);
    await lifecycle.publish({ type: "installed", key });
    await service.idle();
    const state = await findTenant(t.store, key);
    expect(state).toMatchObject({ phase: "ready", indexed: 30, error: null });
    tenant = state!.tenant;
    expect(await indexed(["1"])).toEqual([]);
    expect((await searchIndex(t.store, tenant, { limit: 200 })).hits).toHaveLength(30);
  });

  it("disconnected (lifecycle): the index's status says the installation must be authorized again", async () => {
    await lifecycle.publish({ type: "disconnected", key });
    expect(await service.status(key)).toMatchObject({ phase: "ready", error: DISCONNECTED });
  });
});
