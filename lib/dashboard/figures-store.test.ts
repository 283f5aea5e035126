import { expect, it } from "vitest";
import type { PlatformCall } from "@/lib/platform/installation-call";
import { saveInstallation } from "@/lib/store/installations";
import { describeEachDialect, type TestStore } from "@/lib/store/testing";
import { TaskCancelled } from "@/lib/tasks/task-types";
import { CALL_BUDGET } from "./compute-dashboard";
import type { DashboardData } from "./dashboard-data";
import { computeFiguresTask, type FiguresContext } from "./figures-task";
import { dueFigures, forgetFigures, markFiguresStale, readFigures, saveFigures } from "./figures-store";

const key = { openAppId: "oa-1", tenantId: "t-1" };
const other = { openAppId: "oa-1", tenantId: "t-2" };
const data = (asOf: string) => ({ asOf, calls: 3, customers: {}, events: { ok: false }, orders: { ok: false } }) as unknown as DashboardData;

async function install(t: TestStore, k: typeof key) {
  await saveInstallation(t.store, { ...k, tokens: { accessToken: "a", refreshToken: "r", accessTokenExpiresAt: 1e13 } });
}

describeEachDialect("the overview's stored figures", (t) => {
  it("are read back as saved, per tenant, and forgotten on a reinstall", async () => {
    await saveFigures(t.store, key, data("2026-11-27T00:00:00.000Z"), 1000);
    expect(await readFigures(t.store, key)).toEqual({ data: data("2026-11-27T00:00:00.000Z"), computedAt: 1000, staleSince: null });
    expect(await readFigures(t.store, other)).toBeUndefined();
    await saveFigures(t.store, key, data("2026-11-27T01:00:00.000Z"), 2000);
    expect((await readFigures(t.store, key))?.computedAt).toBe(2000);
    await forgetFigures(t.store, key);
    expect(await readFigures(t.store, key)).toBeUndefined();
  });

  it("a change marks them stale once; a computation that started before a change keeps the mark", async () => {
    await saveFigures(t.store, key, data("a"), 1000);
    await markFiguresStale(t.store, key, 1500);
    await markFiguresStale(t.store, key, 1700);
    expect((await readFigures(t.store, key))?.staleSince).toBe(1500);
    // Started at 1400, before the change at 1500: the change is not in it.
    await saveFigures(t.store, key, data("b"), 1800, 1400);
    expect((await readFigures(t.store, key))?.staleSince).toBe(1500);
    // Started at 1600, after it: clean.
    await saveFigures(t.store, key, data("c"), 1900, 1600);
    expect((await readFigures(t.store, key))?.staleSince).toBeNull();
    // A tenant without figures has nothing to mark.
    await markFiguresStale(t.store, other, 1500);
    expect(await readFigures(t.store, other)).toBeUndefined();
  });

  it("are due when missing, old, or stale for longer than the delay", async () => {
    await install(t, key);
    await install(t, other);
    const policy = { maxAgeMs: 10_000, staleDelayMs: 1000 };
    expect(await dueFigures(t.store, 5000, policy)).toEqual(expect.arrayContaining([key, other]));
    await saveFigures(t.store, key, data("a"), 5000);
    await saveFigures(t.store, other, data("a"), 5000);
    expect(await dueFigures(t.store, 6000, policy)).toEqual([]);
    await markFiguresStale(t.store, key, 6000);
    expect(await dueFigures(t.store, 6500, policy)).toEqual([]);
    expect(await dueFigures(t.store, 7001, policy)).toEqual([key]);
    expect(await dueFigures(t.store, 15_001, policy)).toEqual(expect.arrayContaining([key, other]));
  });

  it("the task computes with the installation's calls, reports progress against the budget and stores the figures", async () => {
    let now = 10_000;
    const progress: number[] = [];
    const call = (async () => {
      now += 1;
      return { rows: [] };
    }) as unknown as PlatformCall;
    const ctx: FiguresContext = { key, signal: new AbortController().signal, now: () => now, progress: async (u) => void progress.push(u.done) };
    const result = await computeFiguresTask(ctx, { call, store: t.store });
    const stored = await readFigures(t.store, key);
    expect(stored?.computedAt).toBe(result.computedAt);
    expect(stored?.data.calls).toBe(result.calls);
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(CALL_BUDGET);
    expect(progress.length).toBeGreaterThan(2);
  });

  it("a cancelled task stores nothing", async () => {
    const call = (async () => ({ rows: [] })) as unknown as PlatformCall;
    let calls = 0;
    const ctx: FiguresContext = {
      key,
      signal: new AbortController().signal,
      now: () => 1,
      progress: async () => {
        if (++calls > 3) throw new TaskCancelled();
      },
    };
    await expect(computeFiguresTask(ctx, { call, store: t.store })).rejects.toBeInstanceOf(TaskCancelled);
    expect(await readFigures(t.store, key)).toBeUndefined();
  });
});
