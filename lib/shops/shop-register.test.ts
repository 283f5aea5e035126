import { describe, expect, it } from "vitest";
import { concurrently, describeEachDialect, openTwinTestStores, testDialects, warnIfPostgresSkipped } from "@/lib/store/testing";
import { addKnownShop, getShop, listGroups, listShops, namesOf, recordShops, rememberCreatedGroup, rememberReadGroup, shopWithSid } from "./shop-register";
import { listMediaImports, recordMediaImport } from "@/lib/media/media-imports";
import { beginShopWrite } from "./shop-writes";

warnIfPostgresSkipped("the shop register and media imports");

const alpha = { openAppId: "oa-alpha", tenantId: "1001" };
const other = { openAppId: "oa-alpha", tenantId: "1002" };
const big = "9007199254741993";

describeEachDialect("the shop register (§4.8)", (t) => {
  it("records shops per tenant; a sid is held by one shop: the platform's answer takes it from a stale row", async () => {
    await recordShops(t.store, alpha, [{ id: "1", sid: "S1", shopName: "A 店", shopStatus: "1" }], "created", 10);
    await recordShops(t.store, other, [{ id: "1", sid: "S1" }], "created", 10);
    expect(await shopWithSid(t.store, alpha, "S1")).toMatchObject({ id: "1" });
    expect(await shopWithSid(t.store, alpha, "S1", "1")).toBeUndefined();
    // Shop 1 was replaced behind the app's back: shop `big` now has S1.
    await recordShops(t.store, alpha, [{ id: big, shopInfoAll: JSON.stringify({ business: { base_info: { sid: "S1", business_name: "贝果", branch_name: "二店" } } }) }], "group", 20);
    expect(await getShop(t.store, alpha, big)).toMatchObject({ sid: "S1", businessName: "贝果", branchName: "二店", source: "group", seenAt: 20 });
    expect(await getShop(t.store, alpha, "1")).toMatchObject({ sid: null, shopName: "A 店", shopStatus: "1" });
    expect((await getShop(t.store, other, "1"))?.sid).toBe("S1");
  });

  it("a shop added by id is unseen until returned; then it keeps the answer's fields and becomes a group-read shop", async () => {
    expect((await addKnownShop(t.store, alpha, big, 5)).added).toBe(true);
    expect((await addKnownShop(t.store, alpha, big, 6)).added).toBe(false);
    expect(await listShops(t.store, alpha, { state: "unseen" })).toMatchObject({ total: 1, shops: [{ id: big, seenAt: null, source: "manual" }] });
    await recordShops(t.store, alpha, [{ id: big, sid: "S9", shopName: "九店" }], "group", 7);
    expect(await getShop(t.store, alpha, big)).toMatchObject({ source: "group", seenAt: 7, shopName: "九店" });
    expect((await listShops(t.store, alpha, { state: "unseen" })).total).toBe(0);
    expect(await namesOf(t.store, alpha, [big, "404"])).toEqual([{ id: big, name: "九店" }, { id: "404", name: null }]);
  });

  it("lists with search (wildcards taken literally), sort by id numerically, and counts", async () => {
    await recordShops(t.store, alpha, [{ id: "9", sid: "100%", shopName: "咖啡_一" }, { id: "10", sid: "B", shopName: "咖啡二" }, { id: big, sid: "C", shopName: "Tea" }], "created", 1);
    expect((await listShops(t.store, alpha, { sort: "id", order: "asc" })).shops.map((s) => s.id)).toEqual(["9", "10", big]);
    expect((await listShops(t.store, alpha, { q: "100%" })).shops.map((s) => s.id)).toEqual(["9"]);
    expect((await listShops(t.store, alpha, { q: "_" })).shops.map((s) => s.id)).toEqual(["9"]);
    expect(await listShops(t.store, alpha, { q: "咖啡", sort: "sid", order: "desc" })).toMatchObject({ total: 2, shops: [{ sid: "B" }, { sid: "100%" }] });
    expect(await listShops(t.store, alpha, { q: "tea" })).toMatchObject({ total: 1 });
  });

  it("remembers groups created and opened; a read updates the count", async () => {
    await rememberCreatedGroup(t.store, alpha, { id: big, name: "华东", remark: "r", createdByName: "王", added: ["1"], failed: ["2"] }, 100);
    await rememberReadGroup(t.store, alpha, big, 3, 200);
    await rememberReadGroup(t.store, alpha, "77", 0, 300);
    expect(await listGroups(t.store, alpha)).toEqual([
      { id: "77", name: null, remark: null, origin: "opened", createdByName: null, shopCount: 0, createdAt: 300, readAt: 300 },
      { id: big, name: "华东", remark: "r", origin: "created", createdByName: "王", shopCount: 3, createdAt: 100, readAt: 200 },
    ]);
    expect(await listGroups(t.store, other)).toEqual([]);
  });

  it("keeps media imports per tenant, latest first", async () => {
    const first = await recordMediaImport(t.store, alpha, { startedBy: "7", startedByName: "王", files: [{ file: "oss://b-1/a.csv" }], taskIds: [big] }, 1);
    const second = await recordMediaImport(t.store, alpha, { startedBy: "8", startedByName: null, files: [{ file: "oss://b-1/b.csv", eventType: "event.mediaClick" }], taskIds: ["1", "2"] }, 2);
    expect(await listMediaImports(t.store, alpha)).toEqual([second, first]);
    expect(await listMediaImports(t.store, other)).toEqual([]);
  });
});

for (const dialect of testDialects) {
  describe.skipIf(!dialect.enabled)(`the register's first writes race on ${dialect.name}`, () => {
    it("20 concurrent first reads of a group over two store instances: one row per shop, no error", async () => {
      const { stores, cleanup } = await openTwinTestStores(dialect);
      try {
        const shops = [{ id: big, sid: "S1", shopName: "一店" }, { id: "7", sid: "S7" }, { id: "12", shopName: "十二店" }];
        const { errors } = await concurrently(20, async (i) => {
          const store = stores[i % 2]!;
          // Each read lists the group's shops in its own order, as answers of two groups sharing shops would.
          await recordShops(store, alpha, i % 3 === 0 ? [...shops].reverse() : shops, "group", 100 + i);
          await rememberReadGroup(store, alpha, "55", shops.length, 100 + i);
        });
        expect(errors).toEqual([]);
        expect(await listShops(stores[0], alpha, { sort: "id", order: "asc" })).toMatchObject({ total: 3, shops: [{ id: "7", sid: "S7" }, { id: "12" }, { id: big, sid: "S1" }] });
        expect(await listGroups(stores[1], alpha)).toMatchObject([{ id: "55", shopCount: 3 }]);
      } finally {
        await cleanup();
      }
    });

    it("20 concurrent first claims of one creation's request key over two store instances: one claim, one row, no error", async () => {
      const { stores, cleanup } = await openTwinTestStores(dialect);
      try {
        const { results, errors } = await concurrently(20, (i) => beginShopWrite(stores[i % 2]!, alpha, { requestKey: "dialog-race-1", operation: "group.create", input: { name: "组" } }, 100 + i));
        expect(errors).toEqual([]);
        expect(results.filter((r) => typeof r === "object" && r !== null && "claimed" in r)).toHaveLength(1);
        expect(await stores[0].db.selectFrom("shop_write_requests").selectAll().execute()).toHaveLength(1);
      } finally {
        await cleanup();
      }
    });
  });
}
