import { describe, expect, it } from "vitest";
import { createIndexEventRegistry, type IndexEvent } from "./index-events";

const key = { openAppId: "app", tenantId: "t1" };

describe("index events", () => {
  it("delivers each event to its type's subscribers only", async () => {
    const registry = createIndexEventRegistry();
    const seen: string[] = [];
    registry.on("changed", "a", async (e) => void seen.push(`a:${e.ids.join(",")}`));
    registry.on("removed", "b", async (e) => void seen.push(`b:${e.ids.join(",")}`));
    await registry.publish({ type: "changed", key, tenant: 1, ids: ["1", "2"] });
    expect(seen).toEqual(["a:1,2"]);
  });

  it("a failing subscriber is logged and does not stop the others", async () => {
    const registry = createIndexEventRegistry();
    const seen: IndexEvent[] = [];
    const warnings: object[] = [];
    registry.on("backfilled", "broken", async () => {
      throw new Error("boom");
    });
    registry.on("backfilled", "fine", async (e) => void seen.push(e));
    await registry.publish({ type: "backfilled", key, tenant: 1 }, { warn: (obj) => void warnings.push(obj) });
    expect(seen).toHaveLength(1);
    expect(warnings).toEqual([expect.objectContaining({ feature: "broken", err: "boom" })]);
  });

  it("subscribing the same feature twice keeps one handler", async () => {
    const registry = createIndexEventRegistry();
    let calls = 0;
    registry.on("changed", "a", async () => void calls++);
    registry.on("changed", "a", async () => void calls++);
    await registry.publish({ type: "changed", key, tenant: 1, ids: ["1"] });
    expect(calls).toBe(1);
  });
});
