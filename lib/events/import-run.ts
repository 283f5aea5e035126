import type { EventItem } from "./event-rows";

/**
 * The batch scheduler of an event import: rows come from an async source (the CSV reader), go out in
 * `batchPushEvents` requests of at most 100 events (§4.3, §8) and at most `maxBatchBytes` of JSON
 * (the app's proxy takes 1 MiB), with at most `concurrency` requests in flight. The source is pulled
 * only when a batch can be formed, so a file of any size is read at the pace of sending.
 *
 * Failures, each reported once with its row through `onFailure`:
 * - invalid rows (from the source) are never sent;
 * - a batch refused with field errors naming items (`events[3].date` from the platform,
 *   `events.3.date` from the proxy): those rows fail with the message and the other rows are sent
 *   again (§4.3 does not say how one bad item fails a batch; the sandbox refuses the whole batch);
 * - a transient failure (network, 429, 5xx) is retried with exponential backoff and jitter
 *   (`Retry-After` when given), `maxAttempts` in all; then the batch's rows fail with the reason.
 *   A retry cannot store an event twice: every row carries a `date` and so an `externalId` (§2.3);
 * - any other refusal fails the batch's rows.
 * Pause stops new requests (those in flight finish); cancel aborts those in flight, whose rows are
 * reported as cancelled (the platform may or may not have stored them).
 */

export type SourceRow = { row: number; values: readonly string[]; bytesRead: number } & ({ event: EventItem; reason?: undefined } | { event?: undefined; reason: string });

export type SendBatch = (body: { events: EventItem[]; commonProps?: Record<string, unknown> }, signal: AbortSignal) => Promise<unknown>;

/** What the scheduler needs to know of a failed request. */
export type SendFailure = {
  transient: boolean;
  retryAfterSeconds?: number;
  /** Sign-in needed again (§5.2.9): the import pauses and this batch is sent again on resume. */
  pause?: boolean;
  fieldErrors: { field: string; message: string }[];
  message: string;
};

export type ImportProgress = {
  /** Data rows read from the file so far. */
  rowsRead: number;
  bytesRead: number;
  /** Events the platform accepted. */
  sent: number;
  /** Rows that failed (invalid, refused, given up, cancelled). */
  failed: number;
  invalid: number;
  inFlight: number;
  retries: number;
  state: "running" | "paused" | "cancelled" | "done";
  /** Milliseconds spent running (pauses excluded), for the rate. */
  activeMs: number;
  /** Why reading stopped early (a broken CSV record, a file that is not UTF-8); the rows before it were sent. */
  sourceError?: string;
};

export type ImportOptions = {
  source: AsyncIterable<SourceRow>;
  send: SendBatch;
  /** Turns what `send` threw into what the scheduler needs (e.g. from an `ApiError`). */
  classify: (error: unknown) => SendFailure;
  onFailure: (row: number, values: readonly string[], reason: string) => void;
  onProgress?: (progress: ImportProgress) => void;
  commonProps?: Record<string, unknown>;
  batchSize?: number;
  maxBatchBytes?: number;
  concurrency?: number;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
};

/** §8: at most 100 events per batchPushEvents request. */
export const MAX_BATCH_EVENTS = 100;
export const DEFAULT_CONCURRENCY = 4;
/** Under the proxy's 1 MiB body limit, with room for the envelope. */
export const DEFAULT_MAX_BATCH_BYTES = 900 * 1024;

type Item = SourceRow & { event: EventItem; size: number };

const ITEM_INDEX = /^events(?:\[(\d+)\]|\.(\d+))(?:\.|$)/;

/** The item a field error names (`events[3].date`, `events.3.date`), or undefined. */
export function itemIndexOf(field: string): number | undefined {
  const m = ITEM_INDEX.exec(field);
  return m ? Number(m[1] ?? m[2]) : undefined;
}

/**
 * An upper bound of an event's JSON size in UTF-8 bytes without serializing it: 6 bytes per UTF-16
 * unit covers every escape (`\u0001`) and every non-ASCII character; numbers take at most 24.
 */
export function jsonSizeBound(event: EventItem): number {
  let n = 3;
  for (const key in event) {
    const v = event[key]!;
    n += key.length * 6 + 4 + (typeof v === "string" ? v.length * 6 + 2 : 24);
  }
  return n;
}

export function backoffMs(attempt: number, base: number, max: number, random: () => number, retryAfterSeconds?: number): number {
  const exp = Math.min(max, base * 2 ** (attempt - 1));
  const jittered = exp / 2 + random() * (exp / 2);
  return retryAfterSeconds === undefined ? jittered : Math.max(jittered, Math.min(retryAfterSeconds * 1000, max * 4));
}

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

export class EventImport {
  readonly progress: ImportProgress = { rowsRead: 0, bytesRead: 0, sent: 0, failed: 0, invalid: 0, inFlight: 0, retries: 0, state: "running", activeMs: 0 };
  /** Resolves when every row read has been sent or reported (or the import was cancelled). */
  readonly done: Promise<ImportProgress>;
  private readonly abort = new AbortController();
  private resumeWaiters: (() => void)[] = [];
  private slotWaiters: (() => void)[] = [];
  private readonly o: Required<Omit<ImportOptions, "onProgress" | "commonProps">> & Pick<ImportOptions, "onProgress" | "commonProps">;
  private activeSince: number;

  constructor(options: ImportOptions) {
    this.o = {
      batchSize: MAX_BATCH_EVENTS,
      maxBatchBytes: DEFAULT_MAX_BATCH_BYTES,
      concurrency: DEFAULT_CONCURRENCY,
      maxAttempts: 5,
      baseDelayMs: 500,
      maxDelayMs: 15_000,
      sleep: defaultSleep,
      random: Math.random,
      now: () => performance.now(),
      // Options given as undefined keep their defaults.
      ...(Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as ImportOptions),
    };
    // Never more than §8 allows, whatever the caller asks.
    this.o.batchSize = Math.max(1, Math.min(MAX_BATCH_EVENTS, this.o.batchSize));
    this.o.concurrency = Math.max(1, this.o.concurrency);
    this.activeSince = this.o.now();
    this.done = this.run();
  }

  pause(): void {
    if (this.progress.state !== "running") return;
    this.progress.activeMs += this.o.now() - this.activeSince;
    this.progress.state = "paused";
    this.report();
  }

  resume(): void {
    if (this.progress.state !== "paused") return;
    this.activeSince = this.o.now();
    this.progress.state = "running";
    for (const wake of this.resumeWaiters.splice(0)) wake();
    this.report();
  }

  cancel(): void {
    if (this.progress.state === "done" || this.progress.state === "cancelled") return;
    if (this.progress.state === "running") this.progress.activeMs += this.o.now() - this.activeSince;
    this.progress.state = "cancelled";
    this.abort.abort();
    for (const wake of [...this.resumeWaiters.splice(0), ...this.slotWaiters.splice(0)]) wake();
    this.report();
  }

  /** The current rate in events per second of running time. */
  rate(): number {
    const ms = this.progress.activeMs + (this.progress.state === "running" ? this.o.now() - this.activeSince : 0);
    return ms > 0 ? (this.progress.sent * 1000) / ms : 0;
  }

  private get cancelled() {
    return this.abort.signal.aborted;
  }

  private report() {
    this.o.onProgress?.({ ...this.progress });
  }

  private fail(item: Pick<SourceRow, "row" | "values">, reason: string) {
    this.progress.failed += 1;
    this.o.onFailure(item.row, item.values, reason);
  }

  /** Waits while paused; false when cancelled. */
  private async gate(): Promise<boolean> {
    while (this.progress.state === "paused") await new Promise<void>((r) => this.resumeWaiters.push(r));
    return !this.cancelled;
  }

  private async slot(): Promise<boolean> {
    while (this.progress.inFlight >= this.o.concurrency && !this.cancelled) await new Promise<void>((r) => this.slotWaiters.push(r));
    return this.gate();
  }

  private async run(): Promise<ImportProgress> {
    const running = new Set<Promise<void>>();
    let batch: Item[] = [];
    let bytes = 0;
    const dispatch = async () => {
      const items = batch;
      batch = [];
      bytes = 0;
      if (!(await this.slot())) {
        for (const item of items) this.fail(item, "cancelled before sending");
        return;
      }
      this.progress.inFlight += 1;
      const p = this.sendItems(items).finally(() => {
        this.progress.inFlight -= 1;
        running.delete(p);
        this.slotWaiters.shift()?.();
        this.report();
      });
      running.add(p);
    };
    try {
      for await (const source of this.o.source) {
        this.progress.rowsRead += 1;
        this.progress.bytesRead = source.bytesRead;
        if (!source.event) {
          this.progress.invalid += 1;
          this.fail(source, source.reason);
          this.report();
          continue;
        }
        const size = jsonSizeBound(source.event);
        if (batch.length > 0 && bytes + size > this.o.maxBatchBytes) await dispatch();
        batch.push({ ...source, event: source.event, size });
        bytes += size;
        if (batch.length >= this.o.batchSize) await dispatch();
        if (this.cancelled) break;
        // Only a paused import waits here: an await per row would cost a promise and a turn each.
        if (this.progress.state === "paused" && !(await this.gate())) break;
      }
    } catch (error) {
      this.progress.sourceError = error instanceof Error ? error.message : String(error);
    }
    try {
      if (batch.length > 0 && !this.cancelled) await dispatch();
      for (const item of batch) this.fail(item, "cancelled before sending");
    } finally {
      await Promise.all(running);
    }
    if (this.progress.state === "running") {
      this.progress.activeMs += this.o.now() - this.activeSince;
      this.progress.state = "done";
    } else if (this.progress.state === "paused") this.progress.state = "done";
    this.report();
    return { ...this.progress };
  }

  /** One batch, until it is stored or each of its rows has failed. */
  private async sendItems(items: Item[]): Promise<void> {
    let pending = items;
    let attempt = 0;
    while (pending.length > 0) {
      if (!(await this.gate())) {
        for (const item of pending) this.fail(item, "cancelled before sending");
        return;
      }
      attempt += 1;
      try {
        await this.o.send({ events: pending.map((i) => i.event), ...(this.o.commonProps ? { commonProps: this.o.commonProps } : {}) }, this.abort.signal);
        this.progress.sent += pending.length;
        return;
      } catch (error) {
        if (this.cancelled) {
          for (const item of pending) this.fail(item, "cancelled while sending (the platform may have stored it)");
          return;
        }
        const failure = this.o.classify(error);
        if (failure.pause) {
          this.pause();
          attempt = 0;
          continue;
        }
        if (failure.transient) {
          if (attempt < this.o.maxAttempts) {
            this.progress.retries += 1;
            this.report();
            await this.o.sleep(backoffMs(attempt, this.o.baseDelayMs, this.o.maxDelayMs, this.o.random, failure.retryAfterSeconds), this.abort.signal);
            continue;
          }
          for (const item of pending) this.fail(item, `${failure.message} (gave up after ${attempt} attempts)`);
          return;
        }
        const byItem = new Map<number, string[]>();
        for (const fe of failure.fieldErrors) {
          const index = itemIndexOf(fe.field);
          if (index === undefined || index >= pending.length) continue;
          const field = fe.field.replace(ITEM_INDEX, "");
          byItem.set(index, [...(byItem.get(index) ?? []), field ? `${field}: ${fe.message}` : fe.message]);
        }
        if (byItem.size === 0) {
          for (const item of pending) this.fail(item, failure.message);
          return;
        }
        for (const [index, messages] of byItem) this.fail(pending[index]!, messages.join("; "));
        // The others were refused only because the batch was: send them again.
        pending = pending.filter((_, i) => !byItem.has(i));
        attempt = 0;
      }
    }
  }
}
