import { describe, expect, it } from "vitest";
import { CACHE_TTL_MS, createDashboardCache, forgetInstallationFigures, installationCacheKey, MIN_REFRESH_MS, sharedDashboardCache } from "./dashboard-cache";

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

describe("the process's cache after a (re)install", () => {
  it("forgets the installation's figures: the tenant is not served figures of before", async () => {
    const cache = sharedDashboardCache<number>();
    const key = { openAppId: "oa-forget", tenantId: "80000000001" };
    const other = { openAppId: "oa-forget", tenantId: "80000000002" };
    let runs = 0;
    const compute = () => Promise.resolve(++runs);
    await cache.get(installationCacheKey(key), compute);
    await cache.get(installationCacheKey(other), compute);
    forgetInstallationFigures(key);
    expect(cache.peek(installationCacheKey(key))).toBeUndefined();
    expect(cache.peek(installationCacheKey(other))?.value).toBe(2);
    expect(await cache.get(installationCacheKey(key), compute)).toMatchObject({ value: 3, cached: false });
  });

  it("a computation in flight when the tenant is reinstalled does not fill the cache", async () => {
    const { cache } = setup();
    let finish!: (value: number) => void;
    const running = cache.get("t", () => new Promise<number>((resolve) => (finish = resolve)));
    cache.forget("t");
    finish(1);
    await running;
    expect(cache.peek("t")).toBeUndefined();
  });
});
