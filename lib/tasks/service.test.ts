import { afterEach, expect, it } from "vitest";
import { inProcessQueue } from "@/lib/jobs/in-process";
import type { JobQueue } from "@/lib/jobs/queue";
import type { Store } from "@/lib/store/database";
import { describeEachDialect, openTwinTestStores, warnIfPostgresSkipped, type TestDialect } from "@/lib/store/testing";
import type { AnyTaskDefinition, ScheduleDefinition } from "./registry";
import { createTaskService, type TaskServiceDeps } from "./service";
import { TaskCancelled, TaskRefused, type TaskDefinition } from "./task-types";

/**
 * The background task runner over a real store (both dialects) and the in-process queue, with an
 * injected clock: start, exclusivity, progress and checkpoint with the file, resume after a
 * "restart" (a second service over the same store), cancel, retries, tenant isolation, schedules.
 */

warnIfPostgresSkipped("background tasks");

const alice = { userId: "u-1", name: "Alice" };
const bob = { userId: "u-2", name: "Bob" };
const key = { openAppId: "app", tenantId: "t1" };
const other = { openAppId: "app", tenantId: "t2" };

type Rows = { rows: number; failAt?: number };
const queues: JobQueue[] = [];
afterEach(async () => {
  for (const q of queues.splice(0)) await q.stop();
});

function harness(store: Store, definitions: AnyTaskDefinition[], extra: Partial<TaskServiceDeps> = {}) {
  const clock = { t: 1_000_000 };
  const queue = inProcessQueue();
  queues.push(queue);
  const map = new Map(definitions.map((d) => [d.kind, d]));
  const service = createTaskService({ store: async () => store, queue: async () => queue, definitions: () => map, now: () => clock.t, random: () => 0, heartbeatMs: 60_000, ...extra });
  return { clock, queue, service };
}

/** An export-like task: a line per row, a checkpoint per 10 rows; can be stopped after `stopAfter` pages (a dying instance). */
function csvTask(control: { stopAfterPages?: number; pages: number; failuresLeft?: number }): TaskDefinition<Rows, { rows: number }, { next: number }> {
  return {
    kind: "test.csv",
    exclusive: "tenant",
    async run(ctx) {
      let next = ctx.checkpoint?.next ?? 0;
      if (next === 0) {
        await ctx.file.begin("rows.csv", "text/csv");
        ctx.file.append("n\n");
      }
      while (next < ctx.input.rows) {
        if (control.failuresLeft && control.failuresLeft > 0) {
          control.failuresLeft--;
          throw new Error("platform unavailable (503)");
        }
        if (control.stopAfterPages !== undefined && control.pages >= control.stopAfterPages) throw new Error("instance died");
        for (let i = next; i < Math.min(next + 10, ctx.input.rows); i++) ctx.file.append(`${i}\n`);
        next = Math.min(next + 10, ctx.input.rows);
        control.pages++;
        await ctx.progress({ done: next, total: ctx.input.rows, checkpoint: { next } });
      }
      return { rows: ctx.input.rows };
    },
  };
}

async function fileText(service: ReturnType<typeof harness>["service"], id: string): Promise<string | undefined> {
  const opened = await service.openFile(key, id);
  if (!opened) return undefined;
  return new Response(opened.body).text();
}

const lines = (n: number) => "n\n" + Array.from({ length: n }, (_, i) => `${i}\n`).join("");

describeEachDialect("background tasks", (t, dialect: TestDialect) => {
  it("runs a task to the end: progress, result, the file kept for download, who started it", async () => {
    const { service, queue } = harness(t.store, [csvTask({ pages: 0 })]);
    const { task, started } = await service.start(key, "test.csv", { rows: 35 }, alice);
    expect(started).toBe(true);
    expect(task).toMatchObject({ state: "queued", startedBy: alice, kind: "test.csv" });
    await queue.idle();
    const done = await service.get(key, task.id);
    expect(done).toMatchObject({ state: "done", result: { rows: 35 }, progress: { done: 35, total: 35 } });
    expect(done?.file).toMatchObject({ name: "rows.csv", contentType: "text/csv", size: lines(35).length });
    expect(await fileText(service, task.id)).toBe(lines(35));
  });

  it("one exclusive task per tenant and kind: a second start (a double click) answers the running one; another tenant starts its own", async () => {
    const gate = opened();
    const held: TaskDefinition<unknown, null, unknown> = { kind: "test.held", exclusive: "tenant", run: () => gate.wait.then(() => null) };
    const { service, queue } = harness(t.store, [held]);
    const [a, b] = await Promise.all([service.start(key, "test.held", {}, alice), service.start(key, "test.held", {}, bob)]);
    expect([a.started, b.started].sort()).toEqual([false, true]);
    expect(a.task.id).toBe(b.task.id);
    const c = await service.start(other, "test.held", {}, bob);
    expect(c.started).toBe(true);
    gate.open();
    await queue.idle();
    // Once it ended, the next start is a new task.
    const d = await service.start(key, "test.held", {}, bob);
    expect(d.started).toBe(true);
    expect(d.task.id).not.toBe(a.task.id);
    await queue.idle();
  });

  it("a runner that dies midway is resumed from its checkpoint by another instance: the file has every row once", async () => {
    const first = harness(t.store, [csvTask({ pages: 0 })], { staleMs: 30_000, queue: async () => droppingQueue });
    const { task } = await first.service.start(key, "test.csv", { rows: 95 }, alice);
    // The first instance dies after three pages: the row stays running, its checkpoint at 30.
    const dying = createDyingRun(t.store, task.id);
    await dying;
    const second = harness(t.store, [csvTask({ pages: 0 })], { staleMs: 30_000 });
    second.clock.t = first.clock.t + 10_000;
    expect((await second.service.sweep()).resent).toBe(0); // still beating recently: not taken
    second.clock.t = first.clock.t + 31_000;
    expect((await second.service.sweep()).resent).toBe(1);
    await second.queue.idle();
    const done = await second.service.get(key, task.id);
    expect(done?.state).toBe("done");
    expect(await fileText(second.service, task.id)).toBe(lines(95));
  });

  it("a queued task whose job was lost (the in-process queue of a restarted app) is sent again by the sweep", async () => {
    const { service } = harness(t.store, [csvTask({ pages: 0 })], { queue: async () => droppingQueue });
    const { task } = await service.start(key, "test.csv", { rows: 12 }, alice);
    const restarted = harness(t.store, [csvTask({ pages: 0 })]);
    restarted.clock.t = 1_000_000 + 25_000;
    expect((await restarted.service.sweep()).resent).toBe(1);
    await restarted.queue.idle();
    expect(await fileText(restarted.service, task.id)).toBe(lines(12));
  });

  it("cancel: a queued task ends at once, a running one at its next progress; the half file is not offered", async () => {
    const gate: { open?: () => void } = {};
    const slow: TaskDefinition<unknown, null, unknown> = {
      kind: "test.slow",
      exclusive: "none",
      async run(ctx) {
        await ctx.file.begin("x.csv", "text/csv");
        ctx.file.append("a\n");
        await ctx.progress({ done: 1, total: 3 });
        await new Promise<void>((resolve) => (gate.open = resolve));
        await ctx.progress({ done: 2, total: 3 });
        return null;
      },
    };
    const { service, queue } = harness(t.store, [slow], { concurrency: 1 });
    const running = await service.start(key, "test.slow", {}, alice);
    const waiting = await service.start(key, "test.slow", {}, alice);
    await waitFor(async () => (await service.get(key, running.task.id))?.state === "running" && gate.open !== undefined);
    expect(await service.cancel(key, waiting.task.id, bob)).toMatchObject({ state: "cancelled", cancelledBy: bob });
    expect(await service.cancel(other, running.task.id, bob)).toBeUndefined(); // another tenant's task: not found
    expect(await service.cancel(key, running.task.id, bob)).toMatchObject({ state: "running", cancelRequested: true });
    gate.open!();
    await queue.idle();
    expect(await service.get(key, running.task.id)).toMatchObject({ state: "cancelled", cancelledBy: bob });
    expect(await service.openFile(key, running.task.id)).toBeUndefined();
  });

  it("a failing run is tried again after a backoff, then fails for good with its reason", async () => {
    const control = { pages: 0, failuresLeft: 1 };
    const { service, queue, clock } = harness(t.store, [csvTask(control)]);
    const { task } = await service.start(key, "test.csv", { rows: 20 }, alice);
    await queue.idle();
    const waiting = await service.get(key, task.id);
    expect(waiting).toMatchObject({ state: "queued", error: "platform unavailable (503)", attempts: 1 });
    clock.t += 10_000;
    await service.runTask(task.id);
    expect(await service.get(key, task.id)).toMatchObject({ state: "done", attempts: 2 });
    expect(await fileText(service, task.id)).toBe(lines(20));

    const always = { pages: 0, failuresLeft: 99 };
    const failing = harness(t.store, [{ ...csvTask(always), kind: "test.fail", maxAttempts: 2 }]);
    const f = await failing.service.start(key, "test.fail", { rows: 5 }, alice);
    await failing.queue.idle();
    failing.clock.t += 60_000;
    await failing.service.runTask(f.task.id);
    expect(await failing.service.get(key, f.task.id)).toMatchObject({ state: "failed", error: "platform unavailable (503)", attempts: 2 });
  });

  it("a run refused for good (TaskRefused: its input cannot be taken) fails at once with its reason, no try after it", async () => {
    let runs = 0;
    const refusing: AnyTaskDefinition = {
      kind: "test.refused",
      exclusive: "none",
      run: async () => {
        runs++;
        throw new TaskRefused("the file's header cannot be imported: email");
      },
    };
    const { service, queue, clock } = harness(t.store, [refusing]);
    const { task } = await service.start(key, "test.refused", {}, alice);
    await queue.idle();
    expect(await service.get(key, task.id)).toMatchObject({ state: "failed", error: "the file's header cannot be imported: email", attempts: 1 });
    clock.t += 3_600_000;
    expect((await service.sweep()).resent).toBe(0);
    await queue.idle();
    expect(runs).toBe(1);
  });

  it("no tenant reads another's tasks or files; the list is newest first and filtered by kind", async () => {
    const { service, queue, clock } = harness(t.store, [csvTask({ pages: 0 }), { ...csvTask({ pages: 0 }), kind: "test.other", exclusive: "none" }]);
    const a = await service.start(key, "test.csv", { rows: 3 }, alice);
    clock.t += 1;
    const b = await service.start(key, "test.other", { rows: 3 }, alice);
    await queue.idle();
    expect((await service.list(key)).map((x) => x.id)).toEqual([b.task.id, a.task.id]);
    expect((await service.list(key, { kinds: ["test.csv"] })).map((x) => x.id)).toEqual([a.task.id]);
    expect(await service.list(other)).toEqual([]);
    expect(await service.get(other, a.task.id)).toBeUndefined();
    expect(await service.openFile(other, a.task.id)).toBeUndefined();
  });

  it("files are kept for the kind's time, then dropped by the sweep (the task's row stays)", async () => {
    const { service, queue, clock } = harness(t.store, [{ ...csvTask({ pages: 0 }), fileTtlMs: 3600_000 }]);
    const { task } = await service.start(key, "test.csv", { rows: 3 }, alice);
    await queue.idle();
    clock.t += 3599_000;
    expect((await service.sweep()).droppedFiles).toBe(0);
    expect(await fileText(service, task.id)).toBe(lines(3));
    clock.t += 2_000;
    expect(await service.openFile(key, task.id)).toBeUndefined();
    expect((await service.sweep()).droppedFiles).toBe(1);
    expect(await service.get(key, task.id)).toMatchObject({ state: "done", file: null });
  });

  it("a schedule runs once per due time across two instances sharing the store", async () => {
    const twins = await openTwinTestStores(dialect);
    try {
      const runs: number[] = [];
      const schedule: ScheduleDefinition = { name: "test.every-minute", everyMs: 60_000, run: async (at) => void runs.push(at) };
      const schedules = () => new Map([[schedule.name, schedule]]);
      const a = harness(twins.stores[0], [], { schedules });
      const b = harness(twins.stores[1], [], { schedules });
      await Promise.all([a.service.sweep(), b.service.sweep()]);
      expect(runs).toHaveLength(1);
      a.clock.t += 30_000;
      b.clock.t += 30_000;
      await Promise.all([a.service.sweep(), b.service.sweep()]);
      expect(runs).toHaveLength(1);
      a.clock.t += 31_000;
      b.clock.t += 31_000;
      await Promise.all([a.service.sweep(), b.service.sweep()]);
      expect(runs).toHaveLength(2);
    } finally {
      await twins.cleanup();
    }
  });

  it("`ended` is called once a task ends for good: done, cancelled while queued, failed after its last try; never between tries", async () => {
    const ended: string[] = [];
    const record = { ended: async (task: { id: string }) => void ended.push(task.id) };
    const { service, queue, clock } = harness(t.store, [
      { ...csvTask({ pages: 0 }), ...record },
      { ...csvTask({ pages: 0, failuresLeft: 99 }), kind: "test.fail", exclusive: "none", maxAttempts: 2, ...record },
    ]);
    const done = await service.start(key, "test.csv", { rows: 5 }, alice);
    await queue.idle();
    expect(ended).toEqual([done.task.id]);

    const failing = await service.start(key, "test.fail", { rows: 5 }, alice);
    await queue.idle();
    expect((await service.get(key, failing.task.id))?.state).toBe("queued");
    expect(ended).toEqual([done.task.id]);
    clock.t += 60_000;
    await service.runTask(failing.task.id);
    expect((await service.get(key, failing.task.id))?.state).toBe("failed");
    expect(ended).toEqual([done.task.id, failing.task.id]);

    const stopped = harness(t.store, [{ ...csvTask({ pages: 0 }), ...record }], { queue: async () => droppingQueue });
    const queued = await stopped.service.start(key, "test.csv", { rows: 5 }, alice);
    await stopped.service.cancel(key, queued.task.id, bob);
    expect(ended).toEqual([done.task.id, failing.task.id, queued.task.id]);
  });

  it("a run told to stop by TaskCancelled from its own code ends cancelled, not failed", async () => {
    const quits: TaskDefinition<unknown, null, unknown> = {
      kind: "test.quits",
      exclusive: "none",
      async run() {
        throw new TaskCancelled();
      },
    };
    const { service, queue } = harness(t.store, [quits]);
    const { task } = await service.start(key, "test.quits", {}, alice);
    await queue.idle();
    expect((await service.get(key, task.id))?.state).toBe("cancelled");
  });
});

/**
 * What an instance that dies after three pages leaves behind: the row running with the checkpoint
 * and file of page three, and no runner. Done with a service whose run never finishes the row.
 */
async function createDyingRun(store: Store, id: string): Promise<void> {
  const dying: TaskDefinition<Rows, null, { next: number }> = {
    kind: "test.csv",
    exclusive: "tenant",
    async run(ctx) {
      const inner = csvTask({ pages: 0, stopAfterPages: 3 });
      try {
        await inner.run(ctx as never);
      } catch {
        // The process is gone: nothing ends the row.
        await new Promise(() => undefined);
      }
      return null;
    },
  };
  const { service } = harness(store, [dying], { heartbeatMs: 3_600_000 });
  void service.runTask(id);
  await waitFor(async () => {
    const row = await store.db.selectFrom("app_tasks").select(["progress_done"]).where("id", "=", id).executeTakeFirst();
    return Number(row?.progress_done) === 30;
  });
}

/** A queue that loses every job (the in-process queue of an app that restarted). */
const droppingQueue: JobQueue = { kind: "in-process", define: async () => undefined, send: async () => true, idle: async () => undefined, stop: async () => undefined };

function opened(): { wait: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
}
