import { describe, expect, it } from "vitest";
import { startApiKitForFile } from "./testkit";

const kit = await startApiKitForFile();

const baseInfo = {
  sid: "S-1", telephone: "021-60000000", business_name: "贝果咖啡", branch_name: "人民广场店", province: "上海", city: "上海市", district: "黄浦区",
  address: "人民大道 1 号", categories: ["美食,咖啡厅"], longitude: 121.47, latitude: 31.23, photo_list: [{ photo_url: "https://img.test/1.jpg" }], offset_type: 1,
};
const shopInfoAll = (info: Record<string, unknown> = baseInfo) => JSON.stringify({ business: { base_info: info } });
const storePut = (path: string, content: string) =>
  fetch(`${kit.sandbox.urls.alpha}/__sandbox/storage`, { method: "PUT", body: JSON.stringify({ environment: "alpha", path, content }) });

describe("§4.8 stores", () => {
  it("§4.8 create answers {shop} without an error field", async () => {
    const res = await kit.call("POST", "/v1/stores", { body: { shopInfoAll: shopInfoAll() } });
    expect(res.json.error).toBeUndefined();
    expect(res.json.shop).toMatchObject({ sid: "S-1", branchName: "人民广场店", businessName: "贝果咖啡", shopInfoAll: shopInfoAll() });
  });

  it("§4.8 every required base_info field is checked; a missing one gives {error: {code, message}}", async () => {
    for (const field of ["sid", "telephone", "business_name", "branch_name", "province", "city", "district", "address", "categories", "longitude", "latitude"]) {
      const info: Record<string, unknown> = { ...baseInfo };
      delete info[field];
      const res = await kit.call("POST", "/v1/stores", { body: { shopInfoAll: shopInfoAll(info) } });
      expect(res.json.shop, field).toBeUndefined();
      expect(res.json.error.message, field).toContain(field);
    }
    expect((await kit.call("POST", "/v1/stores", { body: { shopInfoAll: "{not json" } })).json.error.message).toMatch(/JSON/);
    expect((await kit.call("POST", "/v1/stores", { body: {} })).json.error.message).toMatch(/shopInfoAll/);
  });

  it("a sid is unique per tenant: create and update refuse one another shop holds, naming base_info.sid", async () => {
    const first = (await kit.call("POST", "/v1/stores", { body: { shopInfoAll: shopInfoAll({ ...baseInfo, sid: "DUP-1" }) } })).json.shop;
    const again = await kit.call("POST", "/v1/stores", { body: { shopInfoAll: shopInfoAll({ ...baseInfo, sid: "DUP-1" }) } });
    expect(again.json.shop).toBeUndefined();
    expect(again.json.error.message).toMatch(/base_info\.sid DUP-1 is already used/);
    const other = (await kit.call("POST", "/v1/stores", { body: { shopInfoAll: shopInfoAll({ ...baseInfo, sid: "DUP-2" }) } })).json.shop;
    expect((await kit.call("PUT", `/v1/stores/${other.id}`, { body: { shopInfoAll: shopInfoAll({ ...baseInfo, sid: "DUP-1" }) } })).json.error.message).toMatch(/already used/);
    // Its own sid is no conflict.
    expect((await kit.call("PUT", `/v1/stores/${first.id}`, { body: { shopInfoAll: shopInfoAll({ ...baseInfo, sid: "DUP-1", telephone: "021-1" }) } })).json.shop.sid).toBe("DUP-1");
    const control = (await (await fetch(`${kit.sandbox.urls.alpha}/__sandbox/stores?environment=alpha`)).json()) as { rows: Array<{ id: string; sid: string }> };
    expect(control.rows.filter((r) => r.sid === "DUP-1").map((r) => r.id)).toEqual([String(first.id)]);
  });

  it("§4.8 PUT replaces shopInfoAll; DELETE answers error.message 'success'", async () => {
    const shop = (await kit.call("POST", "/v1/stores", { body: { shopInfoAll: shopInfoAll({ ...baseInfo, sid: "S-3" }) } })).json.shop;
    const updated = await kit.call("PUT", `/v1/stores/${shop.id}`, { body: { shopInfoAll: shopInfoAll({ ...baseInfo, sid: "S-3", branch_name: "南京路店" }) } });
    expect(updated.json.shop.branchName).toBe("南京路店");
    const deleted = await kit.call("DELETE", `/v1/stores/${shop.id}`);
    expect(deleted.json.error.message).toBe("success");
    expect((await kit.call("DELETE", `/v1/stores/${shop.id}`)).json.error.message).not.toBe("success");
  });

  it("§4.8 store groups answer {shopGroup: {success, failed, shopGroup}}; GET lists the group's shops", async () => {
    const a = (await kit.call("POST", "/v1/stores", { body: { shopInfoAll: shopInfoAll({ ...baseInfo, sid: "S-4a" }) } })).json.shop;
    const b = (await kit.call("POST", "/v1/stores", { body: { shopInfoAll: shopInfoAll({ ...baseInfo, sid: "S-4b" }) } })).json.shop;
    const missing = 9007199254740993n;
    const res = await kit.call("POST", "/v1/storesGroups", { body: { name: "华东", remark: "测试", shopList: `${a.id},${b.id},${missing}` } });
    expect(res.json.shopGroup.success).toEqual([a.id, b.id]);
    expect(res.json.shopGroup.failed).toEqual([missing]);
    expect(res.json.shopGroup.shopGroup).toMatchObject({ name: "华东", remark: "测试", id: expect.any(BigInt) });
    const list = await kit.call("GET", `/v1/storesGroups/${res.json.shopGroup.shopGroup.id}`);
    expect(list.json.shopGroupList.map((s: { id: bigint }) => s.id)).toEqual([a.id, b.id]);
    expect(Object.keys(list.json.shopGroupList[0]).sort()).toEqual(["dateCreated", "id", "lastUpdated", "ownerId", "remark", "shopInfoAll", "shopName", "sid", "branchName"].sort());
    expect((await kit.call("POST", "/v1/storesGroups", { body: { name: "x", shopList: "1" } })).json.error.message).toMatch(/remark/);
    expect((await kit.call("GET", "/v1/storesGroups/123")).json.error).toBeDefined();
  });
});

describe("§4.6 media import", () => {
  it("§4.6 importData answers {taskList} with one task per file, no error field", async () => {
    await storePut("oss://bucket/media/view-1.csv", "2026-11-01,mobile,13800000001,banner-a,3\n2026-11-02,mobile,13800000002,banner-a,1\n");
    await storePut("oss://bucket/media/mixed.csv", "event.mediaClick,2026-11-01,mobile,13800000001,banner-a,1\n");
    const res = await kit.call("POST", "/v1/third_party_data/importData", {
      body: { fileList: [{ file: "oss://bucket/media/view-1.csv", eventType: "event.mediaView" }, { file: "oss://bucket/media/mixed.csv" }] },
    });
    expect(res.json.error).toBeUndefined();
    expect(res.json.taskList).toHaveLength(2);
    expect(typeof res.json.taskList[0]).toBe("bigint");
    // The control plane shows what was sent (tests of the console check it).
    const tasks = (await (await fetch(`${kit.sandbox.urls.alpha}/__sandbox/media/tasks`)).json()) as { rows: Array<{ id: string; file: string; eventType: string | null }> };
    expect(tasks.rows.slice(-2)).toMatchObject([
      { id: String(res.json.taskList[0]), file: "oss://bucket/media/view-1.csv", eventType: "event.mediaView" },
      { id: String(res.json.taskList[1]), file: "oss://bucket/media/mixed.csv", eventType: null },
    ]);
  });

  it("§4.6 a later file replaces that day's data; re-importing is harmless", async () => {
    const db = kit.sandbox.ctx.db;
    const tenant = kit.sandbox.ctx.config.environments[0]!.tenant.id;
    const total = () => (db.prepare("SELECT coalesce(sum(count), 0) AS n FROM media_records WHERE tenant_id = ? AND day = '2026-10-10'").get(tenant) as { n: number }).n;
    await storePut("oss://bucket/media/d1.csv", "2026-10-10,mobile,1,a,5\n");
    await storePut("oss://bucket/media/d2.csv", "2026-10-10,mobile,1,a,7\n");
    const run = (file: string) => kit.call("POST", "/v1/third_party_data/importData", { body: { fileList: [{ file, eventType: "event.mediaView" }] } });
    await run("oss://bucket/media/d1.csv");
    await run("oss://bucket/media/d1.csv");
    expect(total()).toBe(5);
    await run("oss://bucket/media/d2.csv");
    expect(total()).toBe(7);
  });

  it("§4.6 / §7.5 error only when no task was created: missing file, bad eventType, not oss://", async () => {
    for (const fileList of [[{ file: "oss://bucket/none.csv" }], [{ file: "oss://bucket/media/d1.csv", eventType: "event.other" }], [{ file: "s3://x" }], []]) {
      const res = await kit.call("POST", "/v1/third_party_data/importData", { body: { fileList } });
      expect(res.json.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      expect(res.json.taskList).toBeUndefined();
    }
  });
});

describe("change events for the webhook sender", () => {
  it("stores publish created, updated and deleted", async () => {
    kit.changes.length = 0;
    const info = { ...baseInfo, sid: "S-5" };
    const shop = (await kit.call("POST", "/v1/stores", { body: { shopInfoAll: shopInfoAll(info) } })).json.shop;
    await kit.call("PUT", `/v1/stores/${shop.id}`, { body: { shopInfoAll: shopInfoAll(info) } });
    await kit.call("DELETE", `/v1/stores/${shop.id}`);
    expect(kit.changes.map((c) => `${c.resource}.${c.action}.${c.id}`)).toEqual([`store.created.${shop.id}`, `store.updated.${shop.id}`, `store.deleted.${shop.id}`]);
  });
});
