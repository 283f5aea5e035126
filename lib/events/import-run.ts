import { backoffMs } from "@/lib/platform/backoff";
import type { EventItem } from "./event-rows";

/**
 * The batch scheduler of an event import: rows come from an async source (the CSV reader) and go to
 * the platform's `batchPushEvents` in batches of at most 100 events (§4.3, §8). Several batches
 * go in one "request" (`SendBatches`: at most `batchesPerRequest` batches and `maxRequestBytes` of
 * JSON), whose sender sends them on one after another (the import task's: import-send.ts); at most
 * `concurrency` requests are in flight, so the platform sees at most that many batches at once. A request leaves when it is full, or as soon as a batch is ready while fewer than
 * `concurrency` batches are in flight (the platform would wait for work otherwise: so the first
 * requests carry one batch each and a small file is not held back). The source is pulled only
 * while a request can be formed, so a file of any size is read at the pace of sending.
 *
 * Failures, each reported once with its row through `onFailure`:
 * - invalid rows (from the source) are never sent;
 * - a batch refused with field errors naming items (`events[3].date` from the platform,
 *   `events.3.date` from the app's validation): those rows fail with the message and the other rows
 *   are sent again (§4.3 does not say how one bad item fails a batch; the sandbox refuses the whole batch);
 * - a transient failure (network, 429, 5xx) of a batch or of the whole request is retried with
 *   exponential backoff and jitter (`Retry-After` when given), `maxAttempts` in all; then the batch's
 *   rows fail with the reason. A batch the app did not send (an earlier one's transient failure
 *   stopped the request) goes again without counting an attempt. A retry cannot store an event
 *   twice: every row carries a `date` and so an `externalId` (§2.3);
 * - any other refusal fails the batch's rows.
 * Pause stops new requests (those in flight finish); cancel aborts those in flight, whose rows are
 * reported as cancelled (the platform may or may not have stored them).
 */

export type SourceRow = { row: number; values: readonly string[]; bytesRead: number } & ({ event: EventItem; reason?: undefined } | { event?: undefined; reason: string });

/** One `batchPushEvents` body (§4.3). */
export type BatchBody = { events: EventItem[]; commonProps?: Record<string, unknown> };

/** What became of one batch of a request: stored, refused with `error`, or not sent (no `error`). */
export type BatchOutcome = { stored: true } | { stored: false; error?: unknown };

/**
 * Sends batches in one request and answers one outcome per batch, in order; throws when the request
 * as a whole failed (then none of its batches counts as stored).
 */
export type SendBatches = (batches: BatchBody[], signal: AbortSignal) => Promise<BatchOutcome[]>;

/** What the scheduler needs to know of a failed request. */
export type SendFailure = {
  transient: boolean;
  retryAfterSeconds?: number;
  /** Sign-in needed again (§5.2.9): the import pauses and the batch is sent again on resume. */
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
  /** Batches in requests that have not been answered yet. */
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
  send: SendBatches;
  /** Turns what `send` threw into what the scheduler needs (e.g. from an `ApiError`). */
  classify: (error: unknown) => SendFailure;
  onFailure: (row: number, values: readonly string[], reason: string) => void;
  /** The rows of a batch the platform stored (a background import's checkpoint follows them). */
  onStored?: (rows: readonly number[]) => void;
  onProgress?: (progress: ImportProgress) => void;
  commonProps?: Record<string, unknown>;
  batchSize?: number;
  batchesPerRequest?: number;
  maxRequestBytes?: number;
  /** Requests in flight. */
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
/** Batches per request: a request still ends within seconds, and its batches are sent back to back. */
export const DEFAULT_BATCHES_PER_REQUEST = 10;
/** The JSON of one request's batches at most (each batch is far below the platform's own limit). */
export const DEFAULT_MAX_REQUEST_BYTES = 900 * 1024;

type Item = SourceRow & { event: EventItem; size: number };
/** A batch on its way, with its own count of transient failures. */
type Batch = { items: Item[]; attempts: number };

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
  /** Requests in flight (`progress.inFlight` counts their batches). */
  private requests = 0;
  private readonly o: Required<Omit<ImportOptions, "onProgress" | "commonProps" | "onStored">> & Pick<ImportOptions, "onProgress" | "commonProps" | "onStored">;
  private activeSince: number;

  constructor(options: ImportOptions) {
    this.o = {
      batchSize: MAX_BATCH_EVENTS,
      batchesPerRequest: DEFAULT_BATCHES_PER_REQUEST,
      maxRequestBytes: DEFAULT_MAX_REQUEST_BYTES,
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
    this.o.batchesPerRequest = Math.max(1, this.o.batchesPerRequest);
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

  private slotFree(): boolean {
    return this.requests < this.o.concurrency;
  }

  private async slot(): Promise<boolean> {
    while (!this.slotFree() && !this.cancelled) await new Promise<void>((r) => this.slotWaiters.push(r));
    return this.gate();
  }

  private async run(): Promise<ImportProgress> {
    const running = new Set<Promise<void>>();
    // Complete batches waiting for a request and the batch being filled, with the JSON bytes of each.
    let ready: Item[][] = [];
    let readyBytes = 0;
    let batch: Item[] = [];
    let batchBytes = 0;
    const close = () => {
      if (batch.length > 0) ready.push(batch);
      readyBytes += batchBytes;
      batch = [];
      batchBytes = 0;
    };
    const dispatch = async () => {
      const batches = ready;
      ready = [];
      readyBytes = 0;
      if (!(await this.slot())) {
        for (const item of batches.flat()) this.fail(item, "cancelled before sending");
        return;
      }
      this.requests += 1;
      this.progress.inFlight += batches.length;
      const p = this.sendRequest(batches.map((items) => ({ items, attempts: 0 }))).finally(() => {
        this.requests -= 1;
        this.progress.inFlight -= batches.length;
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
        // At the request's byte limit the complete batches go; the batch being filled is cut only
        // when it alone reaches the limit (a cut batch is one more platform call).
        while ((ready.length > 0 || batch.length > 0) && readyBytes + batchBytes + size > this.o.maxRequestBytes) {
          if (ready.length === 0) close();
          await dispatch();
        }
        batch.push({ ...source, event: source.event, size });
        batchBytes += size;
        if (batch.length >= this.o.batchSize) {
          close();
          // A request leaves full, or at once while the platform would otherwise wait for work.
          if (ready.length >= this.o.batchesPerRequest || (this.slotFree() && this.progress.inFlight < this.o.concurrency)) await dispatch();
        }
        if (this.cancelled) break;
        // Only a paused import waits here: an await per row would cost a promise and a turn each.
        if (this.progress.state === "paused" && !(await this.gate())) break;
      }
    } catch (error) {
      this.progress.sourceError = error instanceof Error ? error.message : String(error);
    }
    try {
      close();
      while (ready.length > 0 && !this.cancelled) {
        const rest = ready.splice(this.o.batchesPerRequest);
        await dispatch();
        ready = rest;
      }
      for (const item of ready.flat()) this.fail(item, "cancelled before sending");
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

  private stored(batch: Batch) {
    this.progress.sent += batch.items.length;
    this.o.onStored?.(batch.items.map((i) => i.row));
  }

  private body(batch: Batch) {
    return { events: batch.items.map((i) => i.event), ...(this.o.commonProps ? { commonProps: this.o.commonProps } : {}) };
  }

  /** One request's batches, sent again as needed until each is stored or each of its rows has failed. */
  private async sendRequest(batches: Batch[]): Promise<void> {
    let pending = batches;
    while (pending.length > 0) {
      if (!(await this.gate())) {
        for (const b of pending) for (const item of b.items) this.fail(item, "cancelled before sending");
        return;
      }
      let outcomes: BatchOutcome[];
      try {
        outcomes = await this.o.send(pending.map((b) => this.body(b)), this.abort.signal);
        if (outcomes.length !== pending.length) throw new Error(`the app answered ${outcomes.length} results for ${pending.length} batches`);
      } catch (error) {
        outcomes = pending.map(() => ({ stored: false, error }));
      }
      if (this.cancelled) {
        pending.forEach((b, i) => {
          if (outcomes[i]!.stored) this.stored(b);
          else for (const item of b.items) this.fail(item, "cancelled while sending (the platform may have stored it)");
        });
        return;
      }
      const again: Batch[] = [];
      let waitMs = 0;
      let pause = false;
      pending.forEach((b, i) => {
        const outcome = outcomes[i]!;
        if (outcome.stored) {
          this.stored(b);
          return;
        }
        if (outcome.error === undefined) {
          again.push(b);
          return;
        }
        const failure = this.o.classify(outcome.error);
        if (failure.pause) {
          pause = true;
          again.push({ items: b.items, attempts: 0 });
          return;
        }
        if (failure.transient) {
          const attempts = b.attempts + 1;
          if (attempts >= this.o.maxAttempts) {
            for (const item of b.items) this.fail(item, `${failure.message} (gave up after ${attempts} attempts)`);
            return;
          }
          this.progress.retries += 1;
          waitMs = Math.max(waitMs, backoffMs(attempts, { baseMs: this.o.baseDelayMs, maxMs: this.o.maxDelayMs, jitter: 0.5, maxRetryAfterMs: this.o.maxDelayMs * 4 }, this.o.random, failure.retryAfterSeconds));
          again.push({ items: b.items, attempts });
          return;
        }
        const rest = this.failRefusedItems(b.items, failure);
        // The others were refused only because the batch was: send them again.
        if (rest.length > 0) again.push({ items: rest, attempts: 0 });
      });
      pending = again;
      if (pause) this.pause();
      else if (waitMs > 0) {
        this.report();
        await this.o.sleep(waitMs, this.abort.signal);
      }
    }
  }

  /** Fails the items a refusal names (or every item when it names none); answers the others. */
  private failRefusedItems(items: Item[], failure: SendFailure): Item[] {
    const byItem = new Map<number, string[]>();
    for (const fe of failure.fieldErrors) {
      const index = itemIndexOf(fe.field);
      if (index === undefined || index >= items.length) continue;
      const field = fe.field.replace(ITEM_INDEX, "");
      byItem.set(index, [...(byItem.get(index) ?? []), field ? `${field}: ${fe.message}` : fe.message]);
    }
    if (byItem.size === 0) {
      for (const item of items) this.fail(item, failure.message);
      return [];
    }
    for (const [index, messages] of byItem) this.fail(items[index]!, messages.join("; "));
    return items.filter((_, i) => !byItem.has(i));
  }
}
