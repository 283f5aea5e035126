import { describe, expect, it } from "vitest";
import { concurrently, describeEachDialect, openTwinTestStores, testDialects, warnIfPostgresSkipped } from "@/lib/store/testing";
import { readPreferences, writePreference } from "./server-preferences";

warnIfPostgresSkipped("console preferences");

const BIG_TENANT = "9007199254740993123"; // above 2^53: ids stay strings (§2)
const li = { openAppId: "alpha-app", tenantId: BIG_TENANT, userId: "7" };
const zhang = { ...li, userId: "8" };
const otherTenant = { ...li, tenantId: "2" };
const otherEnvironment = { ...li, openAppId: "beta-app" };

describeEachDialect("console preferences", (t) => {
  it("labels are the tenant's: every staff member of it sees them, no other tenant or environment does", async () => {
    await writePreference(t.store, li, "attrLabels", { attr1: "Store" }, "Li Wei");
    expect((await readPreferences(t.store, zhang)).attrLabels).toEqual({ attr1: "Store" });
    expect((await readPreferences(t.store, otherTenant)).attrLabels).toEqual({});
    expect((await readPreferences(t.store, otherEnvironment)).attrLabels).toEqual({});
  });

  it("the column choice is the user's own", async () => {
    await writePreference(t.store, li, "customerColumns", ["id", "email"], "Li Wei");
    expect((await readPreferences(t.store, li)).customerColumns).toEqual(["email", "id"]);
    expect((await readPreferences(t.store, zhang)).customerColumns).toBeNull();
    expect((await readPreferences(t.store, otherTenant)).customerColumns).toBeNull();
  });

  it("the last write wins (one row per key)", async () => {
    await writePreference(t.store, li, "attrLabels", { attr1: "Store" }, "Li Wei", 1);
    await writePreference(t.store, zhang, "attrLabels", { attr1: "Shop", attr2: "Tier" }, "Zhang Min", 2);
    expect((await readPreferences(t.store, li)).attrLabels).toEqual({ attr1: "Shop", attr2: "Tier" });
    const rows = await t.store.db.selectFrom("console_preferences").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: "", updated_by: "Zhang Min" });
  });

  it("a stored value that no longer passes its check is left out, not an error", async () => {
    await t.store.db.insertInto("console_preferences").values({ open_app_id: li.openAppId, tenant_id: li.tenantId, user_id: "7", key: "customerColumns", value: '["gone"]', updated_by: null, updated_at: 1 }).execute();
    await t.store.db.insertInto("console_preferences").values({ open_app_id: li.openAppId, tenant_id: li.tenantId, user_id: "", key: "attrLabels", value: "{not json", updated_by: null, updated_at: 1 }).execute();
    expect(await readPreferences(t.store, li)).toEqual({ attrLabels: {}, customerColumns: null });
  });
});

for (const dialect of testDialects) {
  describe.skipIf(!dialect.enabled)(`preference first writes race on ${dialect.name}`, () => {
    it("20 concurrent first writes of one key over two store instances: one row, a written value, no error", async () => {
      const { stores, cleanup } = await openTwinTestStores(dialect);
      try {
        const { errors } = await concurrently(20, (i) => writePreference(stores[i % 2]!, li, "attrLabels", { attr1: `Label ${i}` }, "Li Wei", 1000 + i));
        expect(errors).toEqual([]);
        const rows = await stores[0].db.selectFrom("console_preferences").selectAll().where("key", "=", "attrLabels").execute();
        expect(rows).toHaveLength(1);
        expect((await readPreferences(stores[1], zhang)).attrLabels.attr1).toMatch(/^Label \d+$/);
      } finally {
        await cleanup();
      }
    });
  });
}
