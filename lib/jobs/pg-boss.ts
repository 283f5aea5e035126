import "server-only";
import { PgBoss } from "pg-boss";
import type { JobQueue, QueueDefinition, SendOptions } from "./queue";

/**
 * The job queue when instances share PostgreSQL: pg-boss (a well-kept queue on PostgreSQL's
 * SKIP LOCKED). Its `stately` policy with a singleton key gives one active and one waiting job per
 * key across every instance — one sync per tenant at a time. Its tables live in their own schema.
 */
export async function pgBossQueue(options: { url: string; schema?: string; onError?: (name: string, error: unknown) => void }): Promise<JobQueue> {
  const boss = new PgBoss({ connectionString: options.url, schema: options.schema ?? "engage_jobs", max: 4 });
  boss.on("error", (error) => options.onError?.("pg-boss", error));
  await boss.start();
  const defined = new Set<string>();
  let stopped = false;

  return {
    kind: "pg-boss",
    async define<D>(definition: QueueDefinition<D>) {
      if (defined.has(definition.name)) return;
      defined.add(definition.name);
      // Jobs are retried by the work itself (the sync resumes from its cursor): no pg-boss retries.
      if (!(await boss.getQueue(definition.name))) await boss.createQueue(definition.name, { policy: definition.policy, retryLimit: 0 }).catch(async (error: unknown) => {
        if (!(await boss.getQueue(definition.name))) throw error; // another instance created it meanwhile
      });
      await boss.work<D>(definition.name, { batchSize: 1, localConcurrency: definition.concurrency ?? 1, pollingIntervalSeconds: 0.5 }, async (jobs) => {
        for (const job of jobs) {
          try {
            await definition.handler(job.data);
          } catch (error) {
            options.onError?.(definition.name, error);
            throw error;
          }
        }
      });
    },
    async send<D>(name: string, data: D, sendOptions: SendOptions = {}) {
      if (stopped) return false;
      const id = await boss.send(name, data as object, {
        ...(sendOptions.singletonKey ? { singletonKey: sendOptions.singletonKey } : {}),
        ...(sendOptions.startAfterSeconds ? { startAfter: sendOptions.startAfterSeconds } : {}),
      });
      return id !== null;
    },
    async idle() {
      for (;;) {
        let busy = 0;
        for (const name of defined) {
          const q = await boss.getQueue(name);
          busy += (q?.queuedCount ?? 0) + (q?.activeCount ?? 0);
        }
        if (busy === 0) return;
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      stopped = true;
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}
