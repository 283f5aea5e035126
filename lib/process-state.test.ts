import { describe, expect, it, vi } from "vitest";

describe("process state", () => {
  it("is one per process, even across two copies of the module (Next's instrumentation and route bundles)", async () => {
    const first = await import("./process-state");
    vi.resetModules();
    const second = await import("./process-state");
    expect(second).not.toBe(first);
    const made = first.processValue("test-shared", () => ({ made: 1 }));
    expect(second.processValue("test-shared", () => ({ made: 2 }))).toBe(made);
    second.processSlot<number>("test-slot").set(7);
    expect(first.processSlot<number>("test-slot").get()).toBe(7);
  });

  it("the dashboard cache a start-up subscriber forgets is the one the routes fill", async () => {
    const routes = await import("./dashboard/dashboard-cache");
    vi.resetModules();
    const startup = await import("./dashboard/dashboard-cache");
    const key = { openAppId: "oa-bundles", tenantId: "1" };
    await routes.sharedDashboardCache<string>().get(routes.installationCacheKey(key), async () => "figures");
    startup.forgetInstallationFigures(key);
    expect(routes.sharedDashboardCache<string>().peek(routes.installationCacheKey(key))).toBeUndefined();
  });
});
