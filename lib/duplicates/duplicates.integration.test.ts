import { afterAll, beforeAll, beforeEach, expect, it, vi } from "vitest";
import { createLifecycleRegistry } from "@/lib/auth/lifecycle";
import { inProcessQueue } from "@/lib/jobs/in-process";
import type { JobQueue } from "@/lib/jobs/queue";
import { PlatformError } from "@/lib/platform/errors";
import { startWebhookSeam } from "@/lib/platform/testing/webhook-seam";
import { createIndexEventRegistry } from "@/lib/search/index-events";
import { createSearchService, type SearchService } from "@/lib/search/service";
import { subscribeCustomerIndex } from "@/lib/search/webhooks";
import type { Store } from "@/lib/store/database";
import { describeEachDialect, warnIfPostgresSkipped } from "@/lib/store/testing";
import { serveWebhookReceiver } from "@/lib/webhooks/testing";
import { createTopicRegistry } from "@/lib/webhooks/topics";
import { createTaskService, type TaskService } from "@/lib/tasks/service";
import type { AnyTaskDefinition } from "@/lib/tasks/registry";
import { createDuplicateService, platformBirthdays, type DuplicateService } from "./duplicate-service";
import { BULK_TASK, duplicateTaskDefinitions, SCAN_TASK } from "./duplicate-tasks";
import { subscribeDuplicates } from "./subscribe";

/**
 * The duplicate finder end to end on the server: the sandbox seeded with planted duplicates, the
 * people index backfilled from it (its `backfilled` event starts the whole-tenant pass), the queue,
 * merges on the platform, "not the same person" across a re-scan, a bulk merge with its history, and
 * a new duplicate arriving by webhook (the sandbox's own signed delivery → receiver → index → keys).
 */

warnIfPostgresSkipped("duplicates: index → keys → queue → merge");

const SECRET = "duplicates-seam-secret";
const seam = await startWebhookSeam();
const { key, call } = seam;

type Planted = { tenantId: number; rule: string; originalId: string; duplicateId: string };

let search: SearchService;
let duplicates: DuplicateService;
let tasks: TaskService;
const tester = { userId: "u1", name: "tester" };
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

describeEachDialect("duplicates: index → keys → queue → merge", (t) => {
  let planted: Planted[];

  beforeEach(async () => {
    await seam.prepare({
      customers: 40,
      webhookUrl: app.url,
      secret: SECRET,
      seed: async (control) => {
        planted = (await control<{ planted: Planted[] }>("/seed/duplicates", { perRule: 2 })).planted.filter((p) => String(p.tenantId) === key.tenantId);
      },
    });
    storeOf = async () => t.store;
    queue = inProcessQueue({ onError: (name, error) => console.error(name, error) });
    const events = createIndexEventRegistry();
    const definitions = new Map(duplicateTaskDefinitions({ store: async () => t.store, callerFor: () => call, birthdaysFor: () => platformBirthdays(call) }).map((d) => [d.kind, d as unknown as AnyTaskDefinition]));
    tasks = createTaskService({ store: async () => t.store, queue: async () => queue, definitions: () => definitions });
    await tasks.listen();
    duplicates = createDuplicateService({ store: async () => t.store, callerFor: () => call, tasks: () => tasks });
    subscribeDuplicates(events, () => duplicates);
    search = createSearchService({ store: async () => t.store, queue: async () => queue, callerFor: () => call, enabled: true, pollSeconds: 0, sync: { events } });
    await search.requestSync(key);
    await search.idle();
    // The backfill's event started the whole-tenant pass (a task of the customer index's).
    await vi.waitFor(async () => expect((await tasks.list(key, { kinds: [SCAN_TASK] }))[0]?.startedBy.userId).toBe("system"), { timeout: 20_000, interval: 50 });
    await vi.waitFor(async () => expect((await duplicates.queue(key, { offset: 0, limit: 100 })).scan?.state).toBe("done"), { timeout: 20_000, interval: 50 });
    return async () => {
      await tasks.settled();
      await queue.stop();
    };
  }, 60_000);

  const pairsIn = async () => (await duplicates.queue(key, { offset: 0, limit: 100 })).clusters.flatMap((c) => c.pairs);
  const hasPair = (pairs: Awaited<ReturnType<typeof pairsIn>>, x: string, y: string) => pairs.find((p) => (p.a === x && p.b === y) || (p.a === y && p.b === x));

  it("the queue shows every planted pair with its rule", { timeout: 60_000 }, async () => {
    expect(planted.length).toBe(8);
    const pairs = await pairsIn();
    for (const p of planted) expect(hasPair(pairs, p.originalId, p.duplicateId)?.rules, `${p.rule} ${p.originalId}=${p.duplicateId}`).toContain(p.rule);
    expect((await duplicates.counts(key)).pairs).toBeGreaterThanOrEqual(8);
  });

  it("a merge removes the source on the platform and the pair from the queue; the survivor keeps the source's identities", { timeout: 60_000 }, async () => {
    const p = planted.find((x) => x.rule === "mobile")!;
    await call("identities.add", { body: { customerId: p.duplicateId, identityType: "store-card", identityValue: `card-${p.duplicateId}` } });
    const answer = await duplicates.merge(key, { fromId: p.duplicateId, toId: p.originalId, rule: "mobile", by: "tester" }, call);
    expect(answer).toMatchObject({ outcome: "merged" });
    // Both records as they were, with their identities, for the audit log (the source is gone now).
    expect(answer?.before?.from).toMatchObject({ id: expect.anything() });
    expect(String(answer?.before?.from.id)).toBe(p.duplicateId);
    expect(String(answer?.before?.to.id)).toBe(p.originalId);
    expect((answer?.before?.from.identities as Array<{ identityValue: string }>).map((i) => i.identityValue)).toContain(`card-${p.duplicateId}`);
    await expect(call("customers.get", { params: { id: p.duplicateId } })).rejects.toBeInstanceOf(PlatformError);
    const kept = await call("identities.list", { query: { customerIds: p.originalId } });
    expect(kept.map((i) => i.identityValue)).toContain(`card-${p.duplicateId}`);
    expect(hasPair(await pairsIn(), p.originalId, p.duplicateId)).toBeUndefined();
    expect((await duplicates.history(key, { limit: 10 }))[0]).toMatchObject({ fromId: p.duplicateId, toId: p.originalId, outcome: "merged", mergedBy: "tester" });
  });

  it("a customer changed since the pair was found is re-checked: no merge, the reason recorded", { timeout: 60_000 }, async () => {
    const p = planted.find((x) => x.rule === "email")!;
    await call("customers.update", { params: { id: p.duplicateId }, body: { email: "someone-else@example.cn" } });
    const answer = await duplicates.merge(key, { fromId: p.duplicateId, toId: p.originalId, rule: "email", by: null }, call);
    expect(answer).toMatchObject({ outcome: "skipped" });
    expect(answer!.reason).toMatch(/no longer the same email/);
    expect(await call("customers.get", { params: { id: p.duplicateId } })).toMatchObject({ email: "someone-else@example.cn" });
  });

  it("'not the same person' sticks across a re-scan", { timeout: 60_000 }, async () => {
    const p = planted.find((x) => x.rule === "nameBirthday")!;
    await duplicates.dismiss(key, p.originalId, p.duplicateId, "tester");
    expect(hasPair(await pairsIn(), p.originalId, p.duplicateId)).toBeUndefined();
    const run = await duplicates.scan(key, tester);
    expect(run?.started).toBe(true);
    await vi.waitFor(async () => expect((await tasks.get(key, run!.task.id))?.state).toBe("done"), { timeout: 20_000, interval: 50 });
    expect(hasPair(await pairsIn(), p.originalId, p.duplicateId)).toBeUndefined();
    const other = planted.find((x) => x.rule === "nameBirthday" && x.duplicateId !== p.duplicateId)!;
    expect(hasPair(await pairsIn(), other.originalId, other.duplicateId)).toBeDefined();
  });

  it("a bulk merge of one rule: dry run first, then every cluster merged, each in the run's history", { timeout: 60_000 }, async () => {
    const plan = await duplicates.plan(key, "email");
    const emailPairs = planted.filter((x) => x.rule === "email");
    for (const p of emailPairs) expect(plan.some((item) => [item.toId, ...item.fromIds].includes(p.originalId) && [item.toId, ...item.fromIds].includes(p.duplicateId))).toBe(true);
    const run = (await duplicates.bulk(key, "email", tester))!;
    await vi.waitFor(async () => expect((await tasks.get(key, run.task.id))?.state).toBe("done"), { timeout: 20_000, interval: 50 });
    expect((await tasks.list(key, { kinds: [BULK_TASK] }))[0]).toMatchObject({ id: run.task.id, startedBy: tester });
    const history = await duplicates.history(key, { limit: 100, taskId: run.task.id });
    expect(history.length).toBe(plan.reduce((n, item) => n + item.fromIds.length, 0));
    expect(history.every((h) => h.outcome === "merged")).toBe(true);
    expect((await duplicates.plan(key, "email")).length).toBe(0);
  });

  it("a new duplicate arriving by webhook reaches the queue within 5 s", { timeout: 60_000 }, async () => {
    const original = planted.find((x) => x.rule === "mobile")!.originalId;
    const { mobile } = await call("customers.get", { params: { id: original } });
    const created = await call("customers.createWithIdentities", {
      query: { mergeByMobile: false, mergeByEmail: false },
      body: { customer: { name: "新来的", mobile: String(mobile).replace("+86 ", "") }, customerIdentities: [{ identityType: "web", identityValue: `web-${Date.now()}` }] },
    });
    const id = String(created.id);
    // Waits for the thing itself; the 5 s bound is the target.
    await vi.waitFor(async () => expect(hasPair(await pairsIn(), original, id)?.rules).toContain("mobile"), { timeout: 5000, interval: 50 });
  });
});
