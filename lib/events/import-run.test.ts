import { describe, expect, it } from "vitest";
import type { EventItem } from "./event-rows";
import { EventImport, itemIndexOf, jsonSizeBound, type BatchBody, type BatchOutcome, type SendBatches, type SendFailure, type SourceRow } from "./import-run";

const ev = (i: number): EventItem => ({ identityType: "crm", identityValue: `C-${i}`, event: "open_page", date: "2026-11-20T08:00:00Z" });

async function* rows(n: number, opts: { invalid?: (i: number) => boolean; pulled?: { count: number }; size?: (i: number) => number } = {}): AsyncGenerator<SourceRow> {
  for (let i = 1; i <= n; i++) {
    if (opts.pulled) opts.pulled.count = i;
    const values = [`C-${i}`];
    if (opts.invalid?.(i)) yield { row: i + 1, values, bytesRead: i, reason: "bad date" };
    else yield { row: i + 1, values, bytesRead: i, event: opts.size ? { ...ev(i), summary: "x".repeat(opts.size(i)) } : ev(i) };
  }
}

class FakeError extends Error {
  constructor(readonly failure: SendFailure) {
    super(failure.message);
  }
}
const classify = (e: unknown): SendFailure => (e instanceof FakeError ? e.failure : { transient: false, fieldErrors: [], message: String(e) });
const noSleep = async () => {};
const tick = () => new Promise((r) => setTimeout(r, 0));

type SendOne = (body: BatchBody, signal: AbortSignal) => Promise<void>;

/** A request whose batches are sent one after another, each stored unless `one` throws. */
const perBatch =
  (one: SendOne): SendBatches =>
  async (bodies, signal) => {
    const outcomes: BatchOutcome[] = [];
    for (const body of bodies) {
      signal.throwIfAborted();
      try {
        await one(body, signal);
        outcomes.push({ stored: true });
      } catch (error) {
        outcomes.push({ stored: false, error });
      }
    }
    return outcomes;
  };

type Options = ConstructorParameters<typeof EventImport>[0];

/** `send` sends one batch (through `perBatch`); `sendRequest` replaces the whole request. */
function harness(extra: Partial<Omit<Options, "send">> & { source: AsyncIterable<SourceRow>; send?: SendOne; sendRequest?: SendBatches }) {
  const failures: { row: number; reason: string }[] = [];
  const batches: EventItem[][] = [];
  const { send, sendRequest, ...rest } = extra;
  const run = new EventImport({
    send:
      sendRequest ??
      perBatch(
        send ??
          (async (body) => {
            batches.push(body.events);
          }),
      ),
    classify,
    onFailure: (row, _values, reason) => failures.push({ row, reason }),
    sleep: noSleep,
    ...rest,
  });
  return { run, failures, batches };
}

describe("event import scheduler", () => {
  it("§8 never sends more than 100 events per request, even when asked to", async () => {
    const { run, batches } = harness({ source: rows(1234), batchSize: 500 });
    const result = await run.done;
    expect(Math.max(...batches.map((b) => b.length))).toBe(100);
    expect(batches.flat()).toHaveLength(1234);
    expect(result).toMatchObject({ sent: 1234, failed: 0, rowsRead: 1234, state: "done" });
  });

  it("cuts a request before its JSON passes the app's byte limit", async () => {
    const requests: BatchBody[][] = [];
    const { run } = harness({
      source: rows(30, { size: () => 1000 }),
      maxRequestBytes: 10_000,
      sendRequest: async (bodies) => {
        requests.push(bodies);
        return bodies.map(() => ({ stored: true }));
      },
    });
    const result = await run.done;
    expect(requests.every((r) => JSON.stringify({ batches: r }).length <= 10_000)).toBe(true);
    expect(requests.flat().flatMap((b) => b.events)).toHaveLength(30);
    expect(result.sent).toBe(30);
  });

  it("at the request's byte limit sends the complete batches and keeps the one being filled whole", async () => {
    const requests: number[][] = [];
    let releaseFirst!: () => void;
    const first = new Promise<void>((r) => (releaseFirst = r));
    const { run } = harness({
      source: rows(400, { size: () => 10 }),
      concurrency: 1,
      // Room for a batch and a half.
      maxRequestBytes: 150 * jsonSizeBound({ ...ev(100), summary: "x".repeat(10) }),
      sendRequest: async (bodies) => {
        requests.push(bodies.map((b) => b.events.length));
        if (requests.length === 1) await first;
        return bodies.map(() => ({ stored: true }));
      },
    });
    for (let i = 0; i < 10; i++) await tick();
    releaseFirst();
    const result = await run.done;
    expect(requests).toEqual([[100], [100], [100], [100]]);
    expect(result.sent).toBe(400);
  });

  it("keeps at most `concurrency` requests in flight, fills the waiting request up to batchesPerRequest, and reads only as fast as it sends", async () => {
    let inFlight = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const pulled = { count: 0 };
    const sizes: number[] = [];
    const { run } = harness({
      source: rows(5000, { pulled }),
      concurrency: 3,
      batchesPerRequest: 10,
      sendRequest: async (bodies) => {
        sizes.push(bodies.length);
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise<void>((r) => release.push(r));
        inFlight -= 1;
        return bodies.map(() => ({ stored: true }));
      },
    });
    for (let i = 0; i < 20; i++) await tick();
    // The first requests leave at once with one batch each; then the next one fills while it waits
    // for a slot: the reader is 3 + 10 batches ahead, no more.
    expect(inFlight).toBe(3);
    expect(sizes).toEqual([1, 1, 1]);
    expect(run.progress.inFlight).toBe(3);
    expect(pulled.count).toBeLessThanOrEqual(1301);
    while (run.progress.state !== "done") {
      release.splice(0).forEach((r) => r());
      await tick();
    }
    expect(most).toBe(3);
    // With 30+ batches in flight, a request leaves only when full (the last one with the rest).
    expect(sizes.slice(3, -1).every((n) => n === 10)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(50);
    expect(run.progress).toMatchObject({ sent: 5000, inFlight: 0 });
  });

  it("a batch the app did not send goes again without using up an attempt; a request that failed as a whole is retried", async () => {
    let calls = 0;
    const requests: number[] = [];
    let releaseFirst!: () => void;
    const first = new Promise<void>((r) => (releaseFirst = r));
    const { run, failures } = harness({
      source: rows(300),
      concurrency: 1,
      maxAttempts: 2,
      sendRequest: async (bodies) => {
        calls += 1;
        requests.push(bodies.length);
        if (calls === 1) await first;
        if (calls === 2) throw new FakeError({ transient: true, fieldErrors: [], message: "network error" });
        // The first batch fails once for a 503, and the app stops there: the others are not sent.
        if (calls === 3) return bodies.map((_, i) => (i === 0 ? { stored: false, error: new FakeError({ transient: true, fieldErrors: [], message: "HTTP 503" }) } : { stored: false }));
        return bodies.map(() => ({ stored: true }));
      },
    });
    for (let i = 0; i < 10; i++) await tick();
    releaseFirst();
    const result = await run.done;
    // 1 batch at once (a free slot); the other 2 fail together, then 1 of them gets its 2nd failure
    // (503) with the other not sent; both were at 1 attempt, so the 503 one gives up and the other goes on.
    expect(requests).toEqual([1, 2, 2, 1]);
    expect(failures).toHaveLength(100);
    expect(failures[0]!.reason).toMatch(/HTTP 503 \(gave up after 2 attempts\)/);
    expect(result).toMatchObject({ sent: 200, failed: 100, retries: 2 });
  });

  it("an answer with the wrong number of results counts as a failed request", async () => {
    const { run, failures } = harness({ source: rows(3), sendRequest: async () => [] });
    await run.done;
    expect(failures.map((f) => f.reason)).toEqual(Array(3).fill("Error: the app answered 0 results for 1 batches"));
  });

  it("reports invalid rows with their reason and never sends them", async () => {
    const { run, failures, batches } = harness({ source: rows(10, { invalid: (i) => i % 4 === 0 }) });
    const result = await run.done;
    expect(failures).toEqual([{ row: 5, reason: "bad date" }, { row: 9, reason: "bad date" }]);
    expect(batches.flat()).toHaveLength(8);
    expect(result).toMatchObject({ sent: 8, failed: 2, invalid: 2 });
  });

  it("retries 429 / 5xx / network failures with backoff, then succeeds", async () => {
    const waits: number[] = [];
    let calls = 0;
    const { run } = harness({
      source: rows(5),
      random: () => 0.5,
      sleep: async (ms) => void waits.push(ms),
      send: async () => {
        calls += 1;
        if (calls <= 2) throw new FakeError({ transient: true, fieldErrors: [], message: "HTTP 503", retryAfterSeconds: calls === 2 ? 3 : undefined });
      },
    });
    const result = await run.done;
    expect(result).toMatchObject({ sent: 5, failed: 0, retries: 2 });
    expect(waits).toEqual([375, 3000]);
  });

  it("gives up after maxAttempts and reports the batch's rows with the reason", async () => {
    let calls = 0;
    const { run, failures } = harness({
      source: rows(3),
      maxAttempts: 4,
      send: async () => {
        calls += 1;
        throw new FakeError({ transient: true, fieldErrors: [], message: "network error" });
      },
    });
    await run.done;
    expect(calls).toBe(4);
    expect(failures.map((f) => f.row)).toEqual([2, 3, 4]);
    expect(failures[0]!.reason).toMatch(/network error.*4 attempts/);
  });

  it("a batch refused for some items: those rows fail with the message, the others are sent again", async () => {
    const sent: string[][] = [];
    const { run, failures } = harness({
      source: rows(5),
      send: async (body) => {
        const ids = body.events.map((e) => String(e.identityValue));
        if (ids.includes("C-2") || ids.includes("C-4")) {
          const fieldErrors = [];
          if (ids.includes("C-2")) fieldErrors.push({ field: `events[${ids.indexOf("C-2")}].c_x`, message: "c_x already has 40 string properties" });
          if (ids.includes("C-4")) fieldErrors.push({ field: `events.${ids.indexOf("C-4")}.date`, message: "must be a UTC time" });
          throw new FakeError({ transient: false, fieldErrors, message: "refused" });
        }
        sent.push(ids);
      },
    });
    const result = await run.done;
    expect(failures).toEqual([
      { row: 3, reason: "c_x: c_x already has 40 string properties" },
      { row: 5, reason: "date: must be a UTC time" },
    ]);
    expect(sent).toEqual([["C-1", "C-3", "C-5"]]);
    expect(result).toMatchObject({ sent: 3, failed: 2 });
  });

  it("a refusal that names no item fails the whole batch with its message", async () => {
    const { run, failures } = harness({
      source: rows(2),
      send: async () => {
        throw new FakeError({ transient: false, fieldErrors: [], message: "forbidden" });
      },
    });
    await run.done;
    expect(failures.map((f) => f.reason)).toEqual(["forbidden", "forbidden"]);
  });

  it("pause stops new requests until resume; cancel aborts those in flight and stops reading", async () => {
    let calls = 0;
    const pulled = { count: 0 };
    const gates: (() => void)[] = [];
    const { run, failures } = harness({
      source: rows(100_000, { pulled }),
      concurrency: 1,
      send: async (_body, signal) => {
        calls += 1;
        await new Promise<void>((resolve, reject) => {
          gates.push(resolve);
          signal.addEventListener("abort", () => reject(new Error("aborted")));
        });
      },
    });
    await tick();
    expect(calls).toBe(1);
    run.pause();
    gates.shift()!();
    for (let i = 0; i < 10; i++) await tick();
    expect(calls).toBe(1);
    expect(run.progress).toMatchObject({ state: "paused", sent: 100 });
    run.resume();
    for (let i = 0; i < 10; i++) await tick();
    expect(calls).toBe(2);
    run.cancel();
    const result = await run.done;
    expect(result.state).toBe("cancelled");
    expect(result.sent).toBe(100);
    // The second request carried a full 10 batches; the reader had filled the next one, no more.
    expect(failures.filter((f) => /cancelled while sending/.test(f.reason))).toHaveLength(1000);
    expect(pulled.count).toBeLessThanOrEqual(2101);
  });

  it("a broken record stops reading, the rows before it are still sent, and the reason is kept", async () => {
    async function* broken(): AsyncGenerator<SourceRow> {
      yield* rows(3);
      throw new Error("record 5 has a quoted field that is never closed");
    }
    const { run, batches } = harness({ source: broken() });
    const result = await run.done;
    expect(batches.flat()).toHaveLength(3);
    expect(result.sourceError).toMatch(/never closed/);
  });

  it("sends commonProps with every batch (§4.3, e.g. externalIdGenerator md5)", async () => {
    const bodies: unknown[] = [];
    const { run } = harness({ source: rows(2), commonProps: { externalIdGenerator: "md5" }, send: async (body) => void bodies.push(body) });
    await run.done;
    expect(bodies).toEqual([{ events: [ev(1), ev(2)], commonProps: { externalIdGenerator: "md5" } }]);
  });

  it("bounds an event's JSON size from above in UTF-8 bytes (Chinese, escapes, control characters)", () => {
    for (const e of [ev(1), { ...ev(2), targetName: "页面\u0001\"\\\n😀", score: -1.2345678901234567e-300 }]) {
      expect(jsonSizeBound(e)).toBeGreaterThanOrEqual(new TextEncoder().encode(JSON.stringify(e)).length + 1);
    }
  });

  it("reads item indexes in both notations", () => {
    expect(itemIndexOf("events[12].date")).toBe(12);
    expect(itemIndexOf("events.3.score")).toBe(3);
    expect(itemIndexOf("events")).toBeUndefined();
  });

  it("a batch refused for sign-in pauses the import and is sent again on resume", async () => {
    let calls = 0;
    const { run, failures } = harness({
      source: rows(3),
      send: async () => {
        calls += 1;
        if (calls === 1) throw new FakeError({ transient: false, pause: true, fieldErrors: [], message: "reauth_required" });
      },
    });
    for (let i = 0; i < 5; i++) await tick();
    expect(run.progress.state).toBe("paused");
    run.resume();
    const result = await run.done;
    expect(result).toMatchObject({ sent: 3, failed: 0, state: "done" });
    expect(failures).toEqual([]);
  });
});
