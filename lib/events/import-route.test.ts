import { afterEach, expect, it } from "vitest";
import { setAuditSink, type AuditDraft } from "@/lib/http/audit-hook";
import { inProcessQueue } from "@/lib/jobs/in-process";
import type { JobQueue } from "@/lib/jobs/queue";
import type { PlatformCall } from "@/lib/platform/installation-call";
import type { Store } from "@/lib/store/database";
import { describeEachDialect, warnIfPostgresSkipped } from "@/lib/store/testing";
import { createTaskService, type TaskService } from "@/lib/tasks/service";
import { parseCsv } from "./csv";
import { EVENT_IMPORT_TASK, MAX_UPLOAD_BYTES } from "./import-api";
import { eventImportTask, handleEventImportStart, sweepImportUploads, type ImportRouteDeps } from "./import-route";
import { hasUpload, ORPHAN_AFTER_MS, storeUpload } from "./import-uploads";

/**
 * The event import's start route and task on the real task runner over both stores, with a fake
 * platform: bad input is a 4xx that stores nothing and starts nothing; a second start while one
 * runs answers the running one without keeping its file; the task sends every row once, writes
 * the failure report and lets its upload go when it ends (done or cancelled); an import whose
 * instance dies midway is resumed by another runner from its checkpoint.
 */

warnIfPostgresSkipped("event import route and task");

const APP = "http://app.test";
const key = { openAppId: "app", tenantId: "t1" };
const session = { ...key, userId: "u-1", userName: "Alice", expiresAt: Date.now() + 3600_000 };
const ROWS = 450;
// Row 7 has no date (invalid: never sent); the rest are distinct events.
const csv = [
  "identityType,identityValue,event,date",
  ...Array.from({ length: ROWS }, (_, i) => `crm,U-${i},c_visit,${i === 5 ? "" : `2026-11-20 10:${String(Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}`}`),
].join("\r\n");

type Body = { events: Array<Record<string, unknown>> };

/** A fake §4.3 platform: an event is stored once per (identity, event, date), as §2.3's externalId makes it; `gate` holds every call until opened; `hangAfter`: later calls never answer (a frozen instance). */
function platform(options: { gate?: Promise<void>; hangAfter?: number } = {}) {
  const stored = new Map<string, number>();
  const sent: string[][] = [];
  let calls = 0;
  let first: () => void = () => undefined;
  const called = new Promise<void>((resolve) => (first = resolve));
  const call = (async (name: string, input: { body: Body }) => {
    expect(name).toBe("events.batchPush");
    first();
    if (options.hangAfter !== undefined && calls >= options.hangAfter) return new Promise(() => undefined);
    calls++;
    await options.gate;
    sent.push(input.body.events.map((e) => String(e.identityValue)));
    for (const e of input.body.events) {
      const k = `${e.identityValue}|${e.event}|${e.date}`;
      stored.set(k, (stored.get(k) ?? 0) + 1);
    }
    return { success: true };
  }) as unknown as PlatformCall;
  return { callerFor: () => call, stored, sent, called };
}

const queues: JobQueue[] = [];
afterEach(async () => {
  setAuditSink(undefined);
  for (const q of queues.splice(0)) await q.stop();
});

/** A queue that loses every job: the runner is driven by hand, as an instance that then dies. */
const droppingQueue: JobQueue = { kind: "in-process", define: async () => undefined, send: async () => true, idle: async () => undefined, stop: async () => undefined };

function runner(store: Store, p: ReturnType<typeof platform>, clock = { t: 1_000_000 }, queue: JobQueue = inProcessQueue()) {
  queues.push(queue);
  const definitions = new Map([[EVENT_IMPORT_TASK, eventImportTask({ store: async () => store, callerFor: p.callerFor })]]);
  const service = createTaskService({ store: async () => store, queue: async () => queue, definitions: () => definitions, now: () => clock.t, random: () => 0, heartbeatMs: 3_600_000, staleMs: 30_000 });
  return { service, queue, clock };
}

const depsOf = (store: Store, service: TaskService): ImportRouteDeps => ({
  requireSession: async () => ({ ok: true, session }),
  log: { info() {}, warn() {}, error() {} },
  tasks: () => service,
  store: async () => store,
});

function upload(body: BodyInit | null, options: { query?: string; headers?: Record<string, string> } = {}): Request {
  return new Request(`${APP}/api/events/import?${options.query ?? "name=events.csv&rule=date&locale=en"}`, {
    method: "POST",
    headers: { "x-engage-request": "1", origin: APP, "content-type": "text/csv", ...options.headers },
    body,
  });
}

async function pieces(store: Store): Promise<number> {
  const row = await store.db.selectFrom("task_uploads").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst();
  return Number(row?.n ?? 0);
}

const answerOf = async (res: Response) => (await res.json()) as { task: { id: string; state: string; startedBy: { name: string } }; started: boolean; error?: { code: string; fieldErrors?: Array<{ field: string }> } };

describeEachDialect("the event import route and task", (t) => {
  it("bad input is a 4xx that stores nothing and starts nothing", async () => {
    const p = platform();
    const { service } = runner(t.store, p);
    const deps = depsOf(t.store, service);
    const cases: Array<[Request, number, string]> = [
      [upload(csv, { headers: { "content-type": "application/json" } }), 415, "unsupported_media_type"],
      [upload(csv, { query: "name=events.csv&rule=latest&locale=en" }), 422, "invalid_input"],
      [upload(csv, { query: "rule=date&locale=en" }), 422, "invalid_input"],
      [upload(csv, { query: "name=events.csv&rule=date&locale=fr" }), 422, "invalid_input"],
      [upload(null), 400, "empty_file"],
      [upload(new Uint8Array([0x61, 0x2c, 0xe9, 0x0d, 0x0a])), 400, "not_utf8"],
      [upload(csv, { headers: { "content-length": String(MAX_UPLOAD_BYTES + 1) } }), 413, "payload_too_large"],
      [upload(csv, { headers: { "x-engage-request": "" } }), 403, "csrf_rejected"],
    ];
    for (const [request, status, code] of cases) {
      const res = await handleEventImportStart(request, deps);
      expect(res.status, code).toBe(status);
      expect((await answerOf(res)).error?.code).toBe(code);
    }
    expect(await pieces(t.store)).toBe(0);
    expect(await service.list(key)).toEqual([]);
    expect(p.stored.size).toBe(0);
  });

  it("starts the task with the file; a second start while it runs answers the running one, its file not kept; the run sends every row once, writes the report, lets the upload go; both starts are audited", async () => {
    const audit: AuditDraft[] = [];
    setAuditSink((draft) => audit.push(draft));
    let open: () => void = () => undefined;
    const p = platform({ gate: new Promise<void>((resolve) => (open = resolve)) });
    const { service, queue } = runner(t.store, p);
    const deps = depsOf(t.store, service);

    const first = await handleEventImportStart(upload(csv), deps);
    expect(first.status).toBe(202);
    const started = await answerOf(first);
    expect(started).toMatchObject({ started: true, task: { startedBy: { name: "Alice" } } });
    await p.called;
    const stored = await pieces(t.store);
    expect(stored).toBeGreaterThan(0);

    // A double click: the same import, and no second copy of the file.
    const second = await handleEventImportStart(upload(csv), deps);
    expect(second.status).toBe(200);
    expect(await answerOf(second)).toMatchObject({ started: false, task: { id: started.task.id, state: "running" } });
    expect(await pieces(t.store)).toBe(stored);

    open();
    await queue.idle();
    const done = await service.get(key, started.task.id);
    expect(done).toMatchObject({ state: "done", result: { rows: ROWS, sent: ROWS - 1, failed: 1, invalid: 1 }, input: { name: "events.csv", rule: "date", locale: "en", size: csv.length } });
    expect(p.stored.size).toBe(ROWS - 1);
    expect([...p.stored.values()].every((n) => n === 1)).toBe(true);
    const report = parseCsv(await new Response((await service.openFile(key, started.task.id))!.body).text());
    expect(report.map((r) => r.slice(0, 2))).toEqual([
      ["row", "reason"],
      ["7", "date: Required."],
    ]);
    expect(await pieces(t.store)).toBe(0);

    expect(audit.map((a) => [a.operation, a.status, a.input])).toEqual([
      ["events.import", 202, { query: { name: "events.csv", rule: "date", locale: "en" } }],
      ["events.import", 200, { query: { name: "events.csv", rule: "date", locale: "en" } }],
    ]);
  });

  it("a file broken midway (a quote never closed): the rows before it are sent, the task done, and its progress says where reading stopped", async () => {
    const p = platform();
    const { service, queue } = runner(t.store, p);
    const broken = `${csv}\r\ncrm,"U-x,c_visit,2026-11-20 11:00:00`;
    const { task } = await answerOf(await handleEventImportStart(upload(broken), depsOf(t.store, service)));
    await queue.idle();
    const done = await service.get(key, task.id);
    expect(done).toMatchObject({ state: "done", result: { sent: ROWS - 1, failed: 1 } });
    expect(done?.progress.message).toMatch(/^449 events sent, 1 failed · Reading stopped early: record \d+ has a quoted field that is never closed\. The rows before it were imported\.$/);
    expect(await pieces(t.store)).toBe(0);
  });

  it("an import cancelled while queued lets its upload go at once", async () => {
    const { service } = runner(t.store, platform(), undefined, droppingQueue);
    const res = await handleEventImportStart(upload(csv), depsOf(t.store, service));
    const { task } = await answerOf(res);
    expect(await pieces(t.store)).toBeGreaterThan(0);
    expect(await service.cancel(key, task.id, { userId: "u-2", name: "Bob" })).toMatchObject({ state: "cancelled" });
    expect(await pieces(t.store)).toBe(0);
  });

  it("the sweep keeps the upload of a queued import however old, and drops an old one nothing holds", async () => {
    const clock = { t: 1_000_000 };
    const { service } = runner(t.store, platform(), clock, droppingQueue);
    const { task } = await answerOf(await handleEventImportStart(upload(csv), depsOf(t.store, service)));
    const held = (task as unknown as { input: { upload: string } }).input.upload;
    const orphan = "44444444-4444-4444-8444-444444444444";
    await storeUpload(t.store, key, orphan, new Blob([csv]).stream(), { now: () => 1 });
    expect(await sweepImportUploads(t.store, service, Date.now() + ORPHAN_AFTER_MS + 1)).toBe(1);
    expect(await hasUpload(t.store, key, held)).toBe(true);
    expect(await hasUpload(t.store, key, orphan)).toBe(false);
  });

  it("an import whose instance dies midway is resumed by another runner from its checkpoint: every event once, the upload gone at the end", async () => {
    const p = platform({ hangAfter: 2 });
    const clock = { t: 1_000_000 };
    const dying = runner(t.store, p, clock, droppingQueue);
    const { task } = await answerOf(await handleEventImportStart(upload(csv), depsOf(t.store, dying.service)));
    void dying.service.runTask(task.id);
    // Two batches stored and checkpointed; the third call never answers: the instance is frozen.
    await waitFor(async () => Number((await dying.service.get(key, task.id))?.progress.done) > 0 && p.sent.length === 2);
    const sentBefore = p.sent.length;

    const after = platform();
    for (const [k, n] of p.stored) after.stored.set(k, n);
    clock.t += 60_000;
    const restarted = runner(t.store, after, clock);
    expect((await restarted.service.sweep()).resent).toBe(1);
    await restarted.queue.idle();
    expect(await restarted.service.get(key, task.id)).toMatchObject({ state: "done", result: { sent: ROWS - 1, failed: 1 } });
    // Resumed after the rows the checkpoint settled: the first batch's rows were not sent again.
    expect(sentBefore).toBe(2);
    expect(after.sent.flat()).not.toContain("U-0");
    expect(after.stored.size).toBe(ROWS - 1);
    expect([...after.stored.values()].every((n) => n === 1)).toBe(true);
    expect(await pieces(t.store)).toBe(0);
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
}
