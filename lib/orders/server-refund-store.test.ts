import { describe, expect, it } from "vitest";
import { concurrently, describeEachDialect, openTwinTestStores, testDialects, warnIfPostgresSkipped } from "@/lib/store/testing";
import { abandonRefund, beginRefund, completeRefund, markRefundsDeleted, refundsOf } from "./server-refund-store";

warnIfPostgresSkipped("order refunds store (004-order-refunds)");

const scope = { openAppId: "oa-alpha", tenantId: "80000000001" };
const facts = (requestKey: string, orderNo = "SO-1") => ({ orderNo, requestKey, refundState: "完全退单", refundTotal: "599", lineIds: ["1", "2"], by: "Li Wei" });

describeEachDialect("order refunds store", (t) => {
  it("one claim per request key, even when two arrive at once; the answer completes it", async () => {
    const [a, b] = await Promise.all([beginRefund(t.store, scope, facts("k-1")), beginRefund(t.store, scope, facts("k-1"))]);
    const claims = [a, b].filter((c) => "id" in c);
    expect(claims).toHaveLength(1);
    const id = (claims[0] as { id: string }).id;
    const record = await completeRefund(t.store, id, { orderNo: "SO-1", refundTotal: 599.5, dateRefund: "2026-11-27T02:00:00Z" });
    expect(record).toMatchObject({ orderNo: "SO-1", status: "recorded", refundTotal: "599.5", lineIds: ["1", "2"], dateRefund: "2026-11-27T02:00:00Z", recordedBy: "Li Wei" });
    const again = await beginRefund(t.store, scope, facts("k-1"));
    expect("existing" in again && again.existing.status).toBe("recorded");
  });

  it("an abandoned claim frees its key; records are per tenant; deleting marks the order's standing ones", async () => {
    const first = await beginRefund(t.store, scope, facts("k-2"));
    await abandonRefund(t.store, (first as { id: string }).id);
    const second = await beginRefund(t.store, scope, facts("k-2"));
    expect("id" in second).toBe(true);
    await completeRefund(t.store, (second as { id: string }).id, { refundTotal: 10 });
    const other = await beginRefund(t.store, { ...scope, tenantId: "2" }, facts("k-2"));
    await completeRefund(t.store, (other as { id: string }).id, { refundTotal: 5 });

    expect(Object.keys(await refundsOf(t.store, scope, ["SO-1", "SO-2"]))).toEqual(["SO-1"]);
    expect(await markRefundsDeleted(t.store, scope, "SO-1", "Zhang Min", 1_700_000_000_000)).toBe(1);
    const [record] = (await refundsOf(t.store, scope, ["SO-1"]))["SO-1"]!;
    expect(record).toMatchObject({ status: "deleted", deletedBy: "Zhang Min", deletedAt: 1_700_000_000_000 });
    expect((await refundsOf(t.store, { ...scope, tenantId: "2" }, ["SO-1"]))["SO-1"]![0]!.status).toBe("recorded");
  });
});

for (const dialect of testDialects) {
  describe.skipIf(!dialect.enabled)(`refund claims race on ${dialect.name}`, () => {
    it("20 concurrent first claims of one request key over two store instances: one claim, one row, no error", async () => {
      const { stores, cleanup } = await openTwinTestStores(dialect);
      try {
        const { results, errors } = await concurrently(20, (i) => beginRefund(stores[i % 2]!, scope, facts("race-key-1")));
        expect(errors).toEqual([]);
        expect(results.filter((r) => typeof r === "object" && r !== null && "id" in r)).toHaveLength(1);
        expect((await refundsOf(stores[0], scope, ["SO-1"]))["SO-1"]).toHaveLength(1);
      } finally {
        await cleanup();
      }
    });
  });
}
