/**
 * The one interface for background work (the customer index's sync today; exports, imports and
 * dashboard figures later): named queues, a handler per queue, jobs sent with JSON data.
 * Two implementations: in-process (`in-process.ts`) for the embedded SQLite default, where one
 * process serves everything, and pg-boss (`pg-boss.ts`) when instances share PostgreSQL.
 */

export type JobHandler<D> = (data: D) => Promise<void>;

export type QueuePolicy =
  /** Every job runs (up to the queue's concurrency). */
  | "standard"
  /**
   * Per `singletonKey`: at most one job active and one waiting; a job sent while one waits is
   * dropped (the waiting one will do the same work). One sync per tenant at a time, across instances.
   */
  | "stately";

export type QueueDefinition<D> = { name: string; policy: QueuePolicy; concurrency?: number; handler: JobHandler<D> };

export type SendOptions = { singletonKey?: string; startAfterSeconds?: number };

export type JobQueue = {
  readonly kind: "in-process" | "pg-boss";
  /** Registers a queue and starts working it (idempotent per name). */
  define<D>(definition: QueueDefinition<D>): Promise<void>;
  /** Sends a job; false when the policy dropped it (one already waits). */
  send<D>(name: string, data: D, options?: SendOptions): Promise<boolean>;
  /** Waits until nothing is running or waiting (tests, benches; in-process only meaningfully). */
  idle(): Promise<void>;
  stop(): Promise<void>;
};
