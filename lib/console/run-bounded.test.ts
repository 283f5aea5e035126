import { describe, expect, it } from "vitest";
import { runBounded } from "./run-bounded";

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("runBounded", () => {
  it("never has more than `limit` calls in flight, and runs every item", async () => {
    let inFlight = 0;
    let most = 0;
    const out = await runBounded([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await tick();
      if (n % 2 === 0) await tick();
      inFlight -= 1;
      return n * 10;
    });
    expect(most).toBe(3);
    expect(out.map((o) => (o.ok ? o.value : null))).toEqual([10, 20, 30, 40, 50, 60, 70]);
  });

  it("keeps the order of the items whatever order they finish in", async () => {
    const out = await runBounded(["slow", "fast"], 2, async (s) => {
      if (s === "slow") await new Promise((r) => setTimeout(r, 20));
      return s;
    });
    expect(out.map((o) => o.item)).toEqual(["slow", "fast"]);
  });

  it("turns a failure into a result and goes on", async () => {
    const boom = new Error("no");
    const out = await runBounded([1, 2, 3], 1, async (n) => {
      if (n === 2) throw boom;
      return n;
    });
    expect(out).toEqual([
      { item: 1, ok: true, value: 1 },
      { item: 2, ok: false, error: boom },
      { item: 3, ok: true, value: 3 },
    ]);
  });

  it("starts nothing new once aborted, and reports progress as items settle", async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const out = await runBounded([1, 2, 3, 4, 5], 2, async (n) => {
      await tick();
      if (n === 2) controller.abort();
      return n;
    }, { signal: controller.signal, onSettled: (_, settled) => seen.push(settled) });
    // 3 started (when 1 finished) before 2 aborted: it finishes; 4 and 5 never start.
    expect(out.map((o) => o.item)).toEqual([1, 2, 3]);
    expect(seen).toEqual([1, 2, 3]);
  });

  it("refuses a limit below 1 and handles no items", async () => {
    await expect(runBounded([1], 0, async () => 1)).rejects.toThrow(RangeError);
    expect(await runBounded([], 4, async () => 1)).toEqual([]);
  });
});
