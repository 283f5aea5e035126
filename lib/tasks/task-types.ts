import type { InstallationKey } from "@/lib/store/installations";

/**
 * Background tasks that staff start and watch: exports, imports, a segment's sync into a list, a
 * bulk merge, figures. A task is a row of the app's store (`app_tasks`), so every staff member and
 * every instance sees the same progress, and a task survives a closed tab and an app restart: the
 * job queue (lib/jobs) only carries "run task <id>"; the row holds the input, progress, checkpoint,
 * result and file. Work resumes from the last checkpoint the task saved.
 */

export type TaskState = "queued" | "running" | "done" | "failed" | "cancelled";

/** Who started or cancelled a task: the staff key of the session (userId) and the name shown. */
export type TaskActor = { userId: string; name: string };

export type TaskProgress = {
  done: number;
  /** Null while the total is unknown. */
  total: number | null;
  /** A short sentence for people ("Reading customers", "Adding members"); never a secret. */
  message: string | null;
};

export type TaskFile = { name: string; contentType: string; size: number; expiresAt: number };

export type TaskRecord = {
  id: string;
  openAppId: string;
  tenantId: string;
  kind: string;
  state: TaskState;
  input: unknown;
  progress: TaskProgress;
  /** What the task answered when done (JSON); its failure reason when failed. */
  result: unknown;
  error: string | null;
  startedBy: TaskActor;
  cancelledBy: TaskActor | null;
  createdAt: number;
  startedAt: number | null;
  updatedAt: number;
  finishedAt: number | null;
  cancelRequested: boolean;
  attempts: number;
  file: TaskFile | null;
};

/** Thrown inside `run` (by `progress` or `throwIfCancelled`) once cancellation was asked; the runner ends the task as cancelled. */
export class TaskCancelled extends Error {
  constructor() {
    super("task cancelled");
    this.name = "TaskCancelled";
  }
}

/**
 * Thrown inside `run` when no later try can end otherwise (the input itself is refused: a file whose
 * header cannot be imported); the runner fails the task at once, with this message, instead of retrying.
 */
export class TaskRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TaskRefused";
  }
}

export type TaskContext<I, C> = {
  task: TaskRecord;
  key: InstallationKey;
  input: I;
  /** The checkpoint the last run saved (undefined on the first run): resume from here. */
  checkpoint: C | undefined;
  /**
   * Records progress and, with it, the checkpoint to resume from (one write, so progress and
   * checkpoint never disagree). Throws `TaskCancelled` when cancellation was asked.
   */
  progress(update: { done: number; total?: number | null; message?: string | null; checkpoint?: C }): Promise<void>;
  throwIfCancelled(): Promise<void>;
  /** Aborted when cancellation is seen (pass to fetches and sleeps). */
  signal: AbortSignal;
  /**
   * The task's downloadable file, kept in the store (instances share it) until `fileTtlMs` after
   * the task ends. What `append` gives is stored with the next `progress` call, in the same
   * transaction as its checkpoint (or when `run` returns), so a resumed run's file ends exactly
   * where its checkpoint says: never a row twice, never a row lost. `begin` starts the file afresh.
   */
  file: {
    begin(name: string, contentType: string): Promise<void>;
    append(chunk: string | Uint8Array): void;
    /** Bytes stored so far (what a resumed run continues). */
    writtenBytes(): number;
  };
  now(): number;
};

export type TaskDefinition<I, R, C = unknown> = {
  kind: string;
  /** The input as stored; a task whose stored input no longer parses fails instead of running (default: taken as is). */
  parseInput?: (raw: unknown) => I;
  /**
   * "tenant": at most one task of this kind queued or running per installation; starting another
   * answers the one already there. "none": any number.
   */
  exclusive: "tenant" | "none";
  /** How long the file is kept after the task ends (default a day). */
  fileTtlMs?: number;
  /** Tries before the task fails for good when `run` throws something other than `TaskCancelled` (default 3). */
  maxAttempts?: number;
  run(ctx: TaskContext<I, C>): Promise<R>;
  /**
   * Called once the task has ended for good (done, cancelled, queued or running, or failed after
   * its last try), to let go of what it holds outside its row (an uploaded file). Best effort: an
   * error is logged, and what stays behind is the feature's own sweep's to drop.
   */
  ended?(task: TaskRecord): Promise<void>;
};
