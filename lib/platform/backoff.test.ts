import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backoffMs } from "./backoff";

describe("backoffMs", () => {
  const full = { baseMs: 100, maxMs: 1000, jitter: 1 };

  it("doubles from the base up to the cap, with the chosen share of jitter", () => {
    expect([1, 2, 3, 7].map((n) => backoffMs(n, full, () => 1))).toEqual([100, 200, 400, 1000]);
    expect(backoffMs(3, full, () => 0.5)).toBe(200);
    expect(backoffMs(1, { baseMs: 500, maxMs: 15_000, jitter: 0.5 }, () => 0.5)).toBe(375);
    expect(backoffMs(4, { baseMs: 20, maxMs: Infinity, jitter: 0 }, () => 0.9)).toBe(160);
  });

  it("waits at least a Retry-After, up to its cap", () => {
    expect(backoffMs(1, full, () => 1, 2)).toBe(2000);
    expect(backoffMs(1, { ...full, maxRetryAfterMs: 1500 }, () => 1, 2)).toBe(1500);
  });

  it("stays within [ceiling·(1−jitter), ceiling] for any draw", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), fc.constantFrom(0, 0.5, 1), (retry, draw, jitter) => {
        const ceiling = Math.min(1000, 100 * 2 ** (retry - 1));
        const delay = backoffMs(retry, { ...full, jitter }, () => draw);
        return delay >= Math.floor(ceiling * (1 - jitter)) && delay <= ceiling;
      }),
    );
  });
});
