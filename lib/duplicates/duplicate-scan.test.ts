import { describe, expect, it } from "vitest";
import { upsertCustomers, deleteCustomers } from "@/lib/search/index-store";
import { describeEachDialect } from "@/lib/store/testing";
import { clustersOf, pairsOf } from "./clusters";
import { dismissedPairs, dismissPair, recordMerge, replaceCustomerKeys, sharedKeys } from "./duplicate-store";
import { refreshCustomers, scanTenant, type ScanCheckpoint, type ScanContext } from "./duplicate-scan";
import type { Store } from "@/lib/store/database";

/** A TaskContext-shaped fake: records progress, cancels when asked. */
function fakeContext(tenant: number, checkpoint?: ScanCheckpoint) {
  const updates: Array<{ done: number; total?: number | null; message?: string | null }> = [];
  let cancelAfter = Infinity;
  const ctx: ScanContext & { updates: typeof updates; cancelAfter(n: number): void } = {
    input: { tenant },
    checkpoint,
    updates,
    cancelAfter(n) {
      cancelAfter = n;
    },
    async progress(update) {
      updates.push(update);
      if (updates.length >= cancelAfter) throw new Error("cancelled");
    },
    async throwIfCancelled() {},
  };
  return ctx;
}

async function queue(store: Store, tenant: number) {
  return clustersOf(pairsOf(await sharedKeys(store, tenant), await dismissedPairs(store, tenant)));
}

describeEachDialect("duplicate scan", (t) => {
  const T = 1;
  const seed = () =>
    upsertCustomers(t.store, T, [
      { id: "1", name: "李娜", mobile: "+86 13900000001", email: "Li.Na@gmail.com" },
      { id: "2", name: "李娜", mobile: "13900000001" },
      { id: "3", name: "Wang", email: "lina+shop@googlemail.com" },
      { id: "4", name: "张伟", mobile: "13900000004", identities: [{ type: "wechat", value: "ox" }] },
      { id: "5", name: "张伟", mobile: "13800000005", identities: [{ type: "wechat", value: "ox" }] },
      { id: "6", name: "赵六", mobile: "13900000006" },
      { id: "7", name: "钱七", mobile: "13900000007" },
      { id: "8", name: "钱七" },
    ]);

  it("finds every rule's pairs and clusters A=B, B=C", async () => {
    await seed();
    const birthdays = new Map([["7", "1990-01-01"], ["8", "1990-01-01"]]);
    const ctx = fakeContext(T);
    const result = await scanTenant({ store: t.store, birthdays: async (ids) => new Map(ids.map((id) => [id, birthdays.get(id) ?? null])) }, ctx);
    expect(result.customers).toBe(8);
    const clusters = await queue(t.store, T);
    expect(clusters.map((c) => [c.members, c.rules])).toEqual([
      [["4", "5"], ["identity"]],
      [["1", "2", "3"], ["mobile", "nameMobile8", "email"]],
      [["7", "8"], ["nameBirthday"]],
    ]);
    expect(ctx.updates.at(-1)).toMatchObject({ done: 8, total: 8 });
  });

  it("keeps up with changes: a new duplicate pairs, a removed customer leaves, a dismissal survives a re-scan", async () => {
    await seed();
    await scanTenant({ store: t.store }, fakeContext(T));
    await upsertCustomers(t.store, T, [{ id: "9", name: "赵六", mobile: "+86 139-0000-0006" }]);
    await refreshCustomers({ store: t.store }, T, ["9"]);
    expect((await queue(t.store, T)).find((c) => c.members.includes("9"))?.members).toEqual(["6", "9"]);

    await deleteCustomers(t.store, T, ["5"]);
    await refreshCustomers({ store: t.store }, T, ["5"]);
    expect((await queue(t.store, T)).some((c) => c.members.includes("4"))).toBe(false);

    await dismissPair(t.store, T, "9", "6", "staff", 1);
    await scanTenant({ store: t.store }, fakeContext(T));
    const after = await queue(t.store, T);
    expect(after.some((c) => c.members.includes("9"))).toBe(false);
    expect(after.some((c) => c.members.includes("1"))).toBe(true);
  });

  it("a late webhook about a customer merged away does not bring the pair back", async () => {
    await seed();
    await scanTenant({ store: t.store }, fakeContext(T));
    // Merged away through the finder (its keys gone at once); the index still holds it until the platform's merge notice.
    await recordMerge(t.store, T, { fromId: "5", toId: "4", rule: "identity", outcome: "merged", reason: null, identitiesRestored: 0, taskId: null, mergedBy: "staff", mergedAt: 1 });
    await replaceCustomerKeys(t.store, T, [{ id: "5", keys: [] }]);
    // A change to it sent before the merge (an identity added) reaches the index after.
    await refreshCustomers({ store: t.store }, T, ["5"]);
    expect((await queue(t.store, T)).some((c) => c.members.includes("5"))).toBe(false);
    // A refused merge leaves the customer a candidate.
    await recordMerge(t.store, T, { fromId: "2", toId: "1", rule: "mobile", outcome: "refused", reason: "no", identitiesRestored: 0, taskId: null, mergedBy: "staff", mergedAt: 2 });
    await refreshCustomers({ store: t.store }, T, ["2"]);
    expect((await queue(t.store, T)).some((c) => c.members.includes("2"))).toBe(true);
  });

  it("resumes from its checkpoint after a stop", async () => {
    await seed();
    const first = fakeContext(T);
    first.cancelAfter(1);
    await expect(scanTenant({ store: t.store }, first)).rejects.toThrow("cancelled");
    await scanTenant({ store: t.store }, fakeContext(T, { after: "4", phase: "keys", fresh: true }));
    expect((await queue(t.store, T)).map((c) => c.members)).toEqual([["4", "5"], ["1", "2", "3"]]);
  });

  it("one tenant's keys never pair with another's", async () => {
    await seed();
    await upsertCustomers(t.store, 2, [{ id: "100", mobile: "13900000001" }]);
    await scanTenant({ store: t.store }, fakeContext(T));
    await scanTenant({ store: t.store }, fakeContext(2));
    expect(await queue(t.store, 2)).toEqual([]);
  });
});

describe("fake context", () => {
  it("records progress", async () => {
    const ctx = fakeContext(1);
    await ctx.progress({ done: 1 });
    expect(ctx.updates).toEqual([{ done: 1 }]);
  });
});
