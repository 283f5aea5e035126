import { afterEach, expect, it } from "vitest";
import { parseCsv } from "@/lib/events/csv";
import { inProcessQueue } from "@/lib/jobs/in-process";
import type { JobQueue } from "@/lib/jobs/queue";
import type { PlatformCall } from "@/lib/platform/installation-call";
import type { Store } from "@/lib/store/database";
import { describeEachDialect, warnIfPostgresSkipped } from "@/lib/store/testing";
import { createTaskService } from "@/lib/tasks/service";
import { CUSTOMER_EXPORT_TASK, customerExportTask, type CallerFor } from "./customer-export-route";
import type { ExportRow } from "./customer-export";
import { DEFAULT_STATE, serializeListState } from "./customer-list-state";

/**
 * The customers export on the real task runner over both stores: an export whose instance dies
 * midway (its platform call never answers, its row stays "running") is taken over by a new runner
 * (an app restart) from its checkpoint, and the file has every customer exactly once.
 */

warnIfPostgresSkipped("customers export task");

const key = { openAppId: "app", tenantId: "t1" };
const alice = { userId: "u-1", name: "Alice" };
const BASE = 2n ** 53n + 11n;
const customers: ExportRow[] = Array.from({ length: 1050 }, (_, i) => ({ id: String(BASE + BigInt(i)), displayName: `客户 ${i}`, mobile: `+86 137${String(i).padStart(8, "0")}` }));

/** A fake §4.1 platform for `customers.list` (id range, order, rows, select) and `customers.count`; `hangAfterPages`: later list calls never answer. */
function platform(options: { hangAfterPages?: number } = {}) {
  let pages = 0;
  const calls: Array<Record<string, unknown>> = [];
  const callerFor: CallerFor = () =>
    (async (name: string, input: { query?: Record<string, unknown> }) => {
      if (name === "customers.count") return customers.length;
      const q = input.query ?? {};
      calls.push(q);
      if (options.hangAfterPages !== undefined && pages >= options.hangAfterPages) return new Promise(() => undefined);
      pages++;
      let rows = customers.filter((c) => (q.idFrom === undefined || BigInt(c.id) >= BigInt(String(q.idFrom))) && (q.idTo === undefined || BigInt(c.id) <= BigInt(String(q.idTo))));
      if (q.sord === "desc") rows = rows.reverse();
      const select = String(q.select).split(",");
      return { rows: rows.slice(0, Number(q.rows)).map((c) => Object.fromEntries(select.map((k) => [k, c[k] ?? null]))) };
    }) as unknown as PlatformCall;
  return { callerFor, calls, pages: () => pages };
}

const queues: JobQueue[] = [];
afterEach(async () => {
  for (const q of queues.splice(0)) await q.stop();
});

function runner(store: Store, callerFor: CallerFor, clock: { t: number }, queue: JobQueue = inProcessQueue()) {
  queues.push(queue);
  const definitions = new Map([[CUSTOMER_EXPORT_TASK, customerExportTask(callerFor, undefined, 100)]]);
  return createTaskService({ store: async () => store, queue: async () => queue, definitions: () => definitions, now: () => clock.t, random: () => 0, heartbeatMs: 3_600_000, staleMs: 30_000 });
}

/** A queue that loses every job: the first runner is driven by hand, as an instance that then dies. */
const droppingQueue: JobQueue = { kind: "in-process", define: async () => undefined, send: async () => true, idle: async () => undefined, stop: async () => undefined };

const list = serializeListState({ ...DEFAULT_STATE, columns: ["displayName", "mobile"] }).toString();

async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describeEachDialect("the customers export task", (t) => {
  it("survives an app restart midway: the new runner resumes from the checkpoint, every customer once", async () => {
    const clock = { t: 1_000_000 };
    const dying = platform({ hangAfterPages: 4 });
    const first = runner(t.store, dying.callerFor, clock, droppingQueue);
    const { task, started } = await first.start(key, CUSTOMER_EXPORT_TASK, { list }, alice);
    expect(started).toBe(true);
    void first.runTask(task.id);
    await waitFor(async () => (await first.get(key, task.id))?.progress.done === 400 && dying.calls.length > 4);
    expect(await first.get(key, task.id)).toMatchObject({ state: "running", progress: { done: 400, total: customers.length } });

    // The app restarts: a new runner over the same store; the old one's row stops beating.
    const live = platform();
    const second = runner(t.store, live.callerFor, clock);
    clock.t += 31_000;
    expect((await second.sweep()).resent).toBe(1);
    await waitFor(async () => (await second.get(key, task.id))?.state === "done");
    const done = await second.get(key, task.id);
    expect(done).toMatchObject({ state: "done", result: { rows: customers.length }, progress: { done: customers.length, total: customers.length }, startedBy: alice });
    expect(done?.file?.name).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
    // The new runner read only what the first had not written.
    expect(live.calls[0]?.idFrom).toBe(String(BASE + 400n));

    const opened = await second.openFile(key, task.id);
    const text = await new Response(opened!.body).text();
    const rows = parseCsv(text.replace(/^\uFEFF/, ""));
    expect(rows[0]).toEqual(["id", "displayName", "mobile"]);
    const ids = rows.slice(1).map((r) => r[0]);
    expect(ids).toEqual(customers.map((c) => c.id));
    expect(rows[1]).toEqual([customers[0]!.id, "客户 0", "'+86 13700000000"]);
  });

  it("one export at a time per tenant: a second start answers the running one", async () => {
    const clock = { t: 1_000_000 };
    const service = runner(t.store, platform({ hangAfterPages: 0 }).callerFor, clock, droppingQueue);
    const a = await service.start(key, CUSTOMER_EXPORT_TASK, { list }, alice);
    const b = await service.start(key, CUSTOMER_EXPORT_TASK, { list: "" }, { userId: "u-2", name: "Bob" });
    expect(b).toMatchObject({ started: false, task: { id: a.task.id } });
  });
});
