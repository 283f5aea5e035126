import "server-only";
import { env } from "@/lib/env";
import { logger } from "@/lib/log";
import { processSlot } from "@/lib/process-state";
import { inProcessQueue } from "./in-process";
import type { JobQueue } from "./queue";

export type { JobQueue, QueueDefinition, SendOptions } from "./queue";

const current = processSlot<Promise<JobQueue>>("job-queue");

/**
 * The process's job queue: pg-boss when the store is PostgreSQL (instances share it), else
 * in-process (the embedded SQLite default serves from one process).
 */
export function getJobQueue(): Promise<JobQueue> {
  let queue = current.get();
  if (!queue) {
    const settings = env();
    const log = logger().child({ scope: "jobs" });
    const onError = (name: string, error: unknown) => log.warn({ queue: name, err: error instanceof Error ? error.message : String(error) }, "background job failed");
    const database = settings.database;
    queue =
      database.kind === "postgres"
        ? import("./pg-boss").then(({ pgBossQueue }) => pgBossQueue({ url: database.url, ...(database.schema ? { schema: `${database.schema}_jobs` } : {}), onError }))
        : Promise.resolve(inProcessQueue({ onError }));
    current.set(queue);
    queue.catch(() => current.set(undefined));
  }
  return queue;
}

/** Tests only: use this queue (or forget the current one with `undefined`). */
export function setJobQueueForTests(queue: JobQueue | undefined): void {
  current.set(queue ? Promise.resolve(queue) : undefined);
}
