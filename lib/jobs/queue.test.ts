import { randomBytes } from "node:crypto";
import pg from "pg";
import { PgBoss } from "pg-boss";
import { describe, expect, it } from "vitest";
import { postgresUrl, warnIfPostgresSkipped } from "@/lib/store/testing";
import { inProcessQueue } from "./in-process";
import { pgBossQueue } from "./pg-boss";
import type { JobQueue } from "./queue";

warnIfPostgresSkipped("pg-boss job queue");

/**
 * A handler that records how many jobs of each key run at once, holds every job until `release`,
 * and lets the test wait for the events themselves: jobs started, jobs done (no sleeps).
 */
function probe() {
  const active = new Map<string, number>();
  let maxSameKey = 0;
  let started = 0;
  const done: string[] = [];
  const waiters: Array<() => void> = [];
  const changed = () => waiters.splice(0).forEach((wake) => wake());
  const until = async (reached: () => boolean) => {
    while (!reached()) await new Promise<void>((wake) => waiters.push(wake));
  };
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  return {
    handler: async (data: { key: string; n: number }) => {
      const now = (active.get(data.key) ?? 0) + 1;
      active.set(data.key, now);
      maxSameKey = Math.max(maxSameKey, now);
      started++;
      changed();
      await gate;
      active.set(data.key, (active.get(data.key) ?? 1) - 1);
      done.push(`${data.key}:${data.n}`);
      changed();
    },
    release: () => release(),
    /** Resolves once `n` jobs have started. */
    started: (n: number) => until(() => started >= n),
    /** Resolves once `n` jobs have finished. */
    finished: (n: number) => until(() => done.length >= n),
    get maxSameKey() {
      return maxSameKey;
    },
    done,
  };
}

describe("in-process job queue", () => {
  it("stately: one job per key active, one waiting; a third send while one waits is dropped; other keys run beside", async () => {
    const q = inProcessQueue();
    const p = probe();
    await q.define({ name: "sync", policy: "stately", concurrency: 4, handler: p.handler });
    expect(await q.send("sync", { key: "a", n: 1 }, { singletonKey: "a" })).toBe(true);
    expect(await q.send("sync", { key: "a", n: 2 }, { singletonKey: "a" })).toBe(true);
    expect(await q.send("sync", { key: "a", n: 3 }, { singletonKey: "a" })).toBe(false);
    expect(await q.send("sync", { key: "b", n: 1 }, { singletonKey: "b" })).toBe(true);
    p.release();
    await q.idle();
    expect(p.maxSameKey).toBe(1);
    expect(p.done.sort()).toEqual(["a:1", "a:2", "b:1"]);
    await q.stop();
  });

  it("a failing job is reported and does not stop the queue; stop drops what waits", async () => {
    const errors: string[] = [];
    const q = inProcessQueue({ onError: (name, e) => errors.push(`${name}:${(e as Error).message}`) });
    const ran: number[] = [];
    await q.define<{ n: number }>({ name: "work", policy: "standard", handler: async ({ n }) => {
      if (n === 1) throw new Error("boom");
      ran.push(n);
    } });
    await q.send("work", { n: 1 });
    await q.send("work", { n: 2 });
    await q.idle();
    expect(errors).toEqual(["work:boom"]);
    expect(ran).toEqual([2]);
    await q.stop();
    expect(await q.send("work", { n: 3 })).toBe(false);
    await expect(q.send("nope", {})).rejects.toThrow(/no job queue/);
  });
});

describe.skipIf(!postgresUrl)("pg-boss job queue (two instances on one PostgreSQL)", () => {
  it("runs one job per singleton key at a time across instances", { timeout: 60_000 }, async () => {
    const schema = `jobs_${randomBytes(4).toString("hex")}`;
    const queues: JobQueue[] = [];
    let other: PgBoss | undefined;
    try {
      const p = probe();
      for (let i = 0; i < 2; i++) {
        const q = await pgBossQueue({ url: postgresUrl!, schema });
        await q.define({ name: "sync", policy: "stately", concurrency: 2, handler: p.handler });
        queues.push(q);
      }
      await queues[0]!.send("sync", { key: "t1", n: 1 }, { singletonKey: "t1" });
      // One instance runs it (its handler holds it); the other instance sends the next job meanwhile.
      await p.started(1);
      expect(await queues[1]!.send("sync", { key: "t1", n: 2 }, { singletonKey: "t1" })).toBe(true);
      // Any worker asking for work now (a third instance, asked directly rather than waiting for
      // polls) is given nothing: the key's one job is active.
      other = new PgBoss({ connectionString: postgresUrl!, schema, supervise: false, schedule: false, migrate: false });
      await other.start();
      expect(await other.fetch("sync")).toEqual([]);
      p.release();
      await p.finished(2);
      expect(p.done.sort()).toEqual(["t1:1", "t1:2"]);
      expect(p.maxSameKey).toBe(1);
    } finally {
      await other?.stop({ graceful: false });
      for (const q of queues) await q.stop();
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });
});
