import { describe, expect, it } from "vitest";
import { CACHE_TTL_MS, createDashboardCache, MIN_REFRESH_MS } from "./dashboard-cache";

function setup() {
  let now = 1_000_000;
  const cache = createDashboardCache<number>(() => now);
  let runs = 0;
  const compute = () => Promise.resolve(++runs);
  return { cache, compute, runs: () => runs, advance: (ms: number) => void (now += ms) };
}

describe("the overview's cache", () => {
  it("serves the same figures within the TTL, then computes again", async () => {
    const { cache, compute, runs, advance } = setup();
    expect(cache.peek("t")).toBeUndefined();
    expect(await cache.get("t", compute)).toMatchObject({ value: 1, cached: false });
    advance(CACHE_TTL_MS - 1);
    expect(await cache.get("t", compute)).toMatchObject({ value: 1, cached: true });
    expect(cache.peek("t")?.value).toBe(1);
    advance(1);
    expect(cache.peek("t")).toBeUndefined();
    expect(await cache.get("t", compute)).toMatchObject({ value: 2, cached: false });
    expect(runs()).toBe(2);
  });

  it("keeps tenants apart", async () => {
    const { cache, compute } = setup();
    await cache.get("a", compute);
    expect((await cache.get("b", compute)).value).toBe(2);
  });

  it("shares one computation between requests that arrive together (single flight)", async () => {
    const { cache, advance } = setup();
    let release!: (n: number) => void;
    let runs = 0;
    const slow = () => {
      runs += 1;
      return new Promise<number>((resolve) => (release = resolve));
    };
    const first = cache.get("t", slow);
    const second = cache.get("t", slow);
    const refresh = cache.refresh("t", slow);
    advance(5);
    release(7);
    expect((await Promise.all([first, second, refresh])).map((r) => r.value)).toEqual([7, 7, 7]);
    expect(runs).toBe(1);
  });

  it("a double click on refresh costs one computation; later it recomputes", async () => {
    const { cache, compute, runs, advance } = setup();
    await cache.get("t", compute);
    advance(MIN_REFRESH_MS - 1);
    expect(await cache.refresh("t", compute)).toMatchObject({ value: 1, cached: true });
    advance(1);
    expect(await cache.refresh("t", compute)).toMatchObject({ value: 2, cached: false });
    expect(runs()).toBe(2);
  });

  it("does not cache a failure", async () => {
    const { cache, compute } = setup();
    await expect(cache.get("t", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect((await cache.get("t", compute)).value).toBe(1);
  });
});
