import { describe, expect, it } from "vitest";
import { createLifecycleRegistry } from "./lifecycle";

const key = { openAppId: "oa", tenantId: "80000000001" };

describe("installation lifecycle registry", () => {
  it("calls the subscribers of the event's type only", async () => {
    const registry = createLifecycleRegistry();
    const seen: string[] = [];
    registry.on("installed", "index", async (e) => void seen.push(`installed:${e.key.tenantId}`));
    registry.on("disconnected", "index", async (e) => void seen.push(`disconnected:${e.key.tenantId}`));
    await registry.publish({ type: "installed", key });
    expect(seen).toEqual(["installed:80000000001"]);
  });

  it("isolates a failing subscriber: the others run, publish resolves (auth goes on), the failure is logged", async () => {
    const registry = createLifecycleRegistry();
    const seen: string[] = [];
    registry.on("installed", "broken", () => Promise.reject(new Error("store down")));
    registry.on("installed", "works", async () => void seen.push("works"));
    const warnings: Array<Record<string, unknown>> = [];
    await expect(registry.publish({ type: "installed", key }, { warn: (obj) => void warnings.push(obj as Record<string, unknown>) })).resolves.toBeUndefined();
    expect(seen).toEqual(["works"]);
    expect(warnings).toEqual([expect.objectContaining({ feature: "broken", event: "installed", tenantId: "80000000001", err: "store down" })]);
  });
});
