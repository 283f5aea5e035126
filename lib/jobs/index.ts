import "server-only";
import { env } from "@/lib/env";
import { logger } from "@/lib/log";
import { inProcessQueue } from "./in-process";
import type { JobQueue } from "./queue";

export type { JobQueue, QueueDefinition, SendOptions } from "./queue";

let current: Promise<JobQueue> | undefined;

/**
 * The process's job queue: pg-boss when the store is PostgreSQL (instances share it), else
 * in-process (the embedded SQLite default serves from one process).
 */
export function getJobQueue(): Promise<JobQueue> {
  if (!current) {
    const settings = env();
    const log = logger().child({ scope: "jobs" });
    const onError = (name: string, error: unknown) => log.warn({ queue: name, err: error instanceof Error ? error.message : String(error) }, "background job failed");
    current =
      settings.database.kind === "postgres"
        ? import("./pg-boss").then(({ pgBossQueue }) => pgBossQueue({ url: (settings.database as { url: string }).url, onError }))
        : Promise.resolve(inProcessQueue({ onError }));
    current.catch(() => {
      current = undefined;
    });
  }
  return current;
}

/** Tests only: use this queue (or forget the current one with `undefined`). */
export function setJobQueueForTests(queue: JobQueue | undefined): void {
  current = queue ? Promise.resolve(queue) : undefined;
}
