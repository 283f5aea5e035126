import { describe, expect, it } from "vitest";
import { BULK_CONCURRENCY, progressOf, runBounded, type RunProgress } from "./bulk-run";

/** A promise resolved or rejected from outside, to control the order tasks finish in. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("running a task per item with bounded concurrency", () => {
  it("never has more than `concurrency` tasks in flight, and runs them all", async () => {
    let inFlight = 0;
    let most = 0;
    const started: number[] = [];
    const items = Array.from({ length: 23 }, (_, i) => i);
    const run = runBounded(
      items,
      async (n) => {
        started.push(n);
        inFlight += 1;
        most = Math.max(most, inFlight);
        // Uneven durations, so slots free up out of order.
        await new Promise((r) => setTimeout(r, (n * 7) % 5));
        inFlight -= 1;
        return n * 2;
      },
      { concurrency: 3 },
    );
    const { results, notStarted } = await run;
    expect(most).toBe(3);
    expect(started).toHaveLength(23);
    expect(notStarted).toEqual([]);
    expect(results.map((r) => (r.status === "done" ? r.value : undefined))).toEqual(items.map((n) => n * 2));
  });

  it("starts only `concurrency` tasks before any finishes", async () => {
    const gates = Array.from({ length: 6 }, () => deferred());
    const started: number[] = [];
    const run = runBounded([0, 1, 2, 3, 4, 5], (n) => {
      started.push(n);
      return gates[n]!.promise;
    }, { concurrency: 2 });
    await tick();
    expect(started).toEqual([0, 1]);
    gates[1]!.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.resolve();
    await run;
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("keeps the input order in the results whatever order the tasks finish in", async () => {
    const gates = ["a", "b", "c", "d"].map(() => deferred<string>());
    const run = runBounded(["a", "b", "c", "d"], (id, index) => gates[index]!.promise.then((v) => `${id}:${v}`), { concurrency: 4 });
    gates[3]!.resolve("4");
    gates[1]!.resolve("2");
    await tick();
    gates[2]!.resolve("3");
    gates[0]!.resolve("1");
    const { results } = await run;
    expect(results.map((r) => r.item)).toEqual(["a", "b", "c", "d"]);
    expect(results.map((r) => (r.status === "done" ? r.value : r.error))).toEqual(["a:1", "b:2", "c:3", "d:4"]);
  });

  it("collects each failure with its item and error, and goes on with the rest", async () => {
    const boom = new Error("customer 2 not found");
    const { results } = await runBounded(["1", "2", "3", "4"], async (id) => {
      if (id === "2") throw boom;
      if (id === "4") return Promise.reject("plain rejection");
      return id;
    }, { concurrency: 2 });
    expect(results).toEqual([
      { item: "1", status: "done", value: "1" },
      { item: "2", status: "failed", error: boom },
      { item: "3", status: "done", value: "3" },
      { item: "4", status: "failed", error: "plain rejection" },
    ]);
  });

  it("counts a task that throws before returning a promise as failed", async () => {
    const { results } = await runBounded(["x"], () => {
      throw new TypeError("sync");
    });
    expect(results[0]).toMatchObject({ item: "x", status: "failed" });
  });

  it("stops starting new tasks once cancelled; tasks in flight finish and are reported", async () => {
    const controller = new AbortController();
    const gates = Array.from({ length: 10 }, () => deferred());
    const started: number[] = [];
    const run = runBounded(Array.from({ length: 10 }, (_, i) => i), (n) => {
      started.push(n);
      return gates[n]!.promise;
    }, { concurrency: 3, signal: controller.signal });
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    controller.abort();
    for (const g of gates) g.resolve();
    const { results, notStarted, cancelled } = await run;
    expect(started).toEqual([0, 1, 2, 3]);
    expect(cancelled).toBe(true);
    expect(results.map((r) => r.item)).toEqual([0, 1, 2, 3]);
    expect(notStarted).toEqual([4, 5, 6, 7, 8, 9]);
  });

  it("starts nothing when already cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    let calls = 0;
    const { results, notStarted, cancelled } = await runBounded(["a", "b"], async () => void (calls += 1), { signal: controller.signal });
    expect(calls).toBe(0);
    expect(results).toEqual([]);
    expect(notStarted).toEqual(["a", "b"]);
    expect(cancelled).toBe(true);
  });

  it("reports progress after every settled task", async () => {
    const seen: RunProgress[] = [];
    await runBounded([1, 2, 3], async (n) => {
      if (n === 2) throw new Error("no");
    }, { concurrency: 1, onProgress: (p) => seen.push(p) });
    expect(seen).toEqual([
      { done: 1, total: 3, succeeded: 1, failed: 0 },
      { done: 2, total: 3, succeeded: 1, failed: 1 },
      { done: 3, total: 3, succeeded: 2, failed: 1 },
    ]);
  });

  it("handles no items, and refuses a concurrency that is not a positive integer", async () => {
    expect(await runBounded([], async () => 1)).toEqual({ results: [], notStarted: [], cancelled: false });
    await expect(runBounded([1], async () => 1, { concurrency: 0 })).rejects.toThrow(RangeError);
    await expect(runBounded([1], async () => 1, { concurrency: 1.5 })).rejects.toThrow(RangeError);
    expect(BULK_CONCURRENCY).toBeGreaterThan(1);
  });

  it("summarises results as progress", () => {
    expect(progressOf([{ item: 1, status: "done", value: 1 }, { item: 2, status: "failed", error: 0 }], 5)).toEqual({ done: 2, total: 5, succeeded: 1, failed: 1 });
  });
});
