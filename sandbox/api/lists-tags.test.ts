import { describe, expect, it } from "vitest";
import { startApiKitForFile } from "./testkit";

const kit = await startApiKitForFile();
const customers: bigint[] = [];
for (let i = 0; i < 6; i++) customers.push(await kit.createCustomer(`名单${i}`));

const newList = async (name = "名单") => (await kit.call("POST", "/v1/lists", { body: { name } })).json;

describe("§4.4 lists", () => {
  it("§4.4 list names are not checked for uniqueness; §8 at most 255 characters", async () => {
    const a = await newList("同名");
    const b = await newList("同名");
    expect(a.id).not.toBe(b.id);
    expect(a).toMatchObject({ name: "同名", dateCreated: expect.any(String), lastUpdated: expect.any(String) });
    expect((await kit.call("POST", "/v1/lists", { body: { name: "长".repeat(256) } })).json.error.fieldErrors[0].fieldName).toBe("name");
    expect((await kit.call("POST", "/v1/lists", { body: {} })).json.error.fieldErrors[0].fieldName).toBe("name");
  });

  it("§4.4 GET /v1/lists answers {page, records, total (pages), rows}", async () => {
    const res = await kit.call("GET", "/v1/lists", { query: { rows: 1 } });
    expect(res.json.page).toBe(1);
    expect(res.json.total).toBe(res.json.records);
    expect(res.json.rows).toHaveLength(1);
  });

  it("§4.4 POST /v1/listMembers takes and answers {data}", async () => {
    const list = await newList();
    const res = await kit.call("POST", "/v1/listMembers", { body: { data: { customerId: customers[0], listId: list.id } } });
    expect(res.json.data).toMatchObject({ listId: list.id, customerId: customers[0], id: expect.any(BigInt) });
    const missing = await kit.call("POST", "/v1/listMembers", { body: { data: { listId: list.id } } });
    expect(missing.json.error.fieldErrors[0].fieldName).toBe("data.customerId");
  });

  it("§4.4 listMembersBatch answers {items}; memberCount counts; removeFromList removes", async () => {
    const list = await newList();
    const res = await kit.call("POST", "/v1/listMembersBatch", { body: { items: customers.map((customerId) => ({ customerId, listId: list.id })) } });
    expect(res.json.items).toHaveLength(6);
    expect((await kit.call("GET", "/v1/listservice/memberCount", { query: { listId: list.id } })).json).toBe(6);
    await kit.call("POST", "/v1/listservice/removeFromList", { query: { customerIds: `${customers[0]},${customers[1]}`, listId: list.id } });
    expect((await kit.call("GET", "/v1/listservice/memberCount", { query: { listId: list.id } })).json).toBe(4);
    expect((await kit.call("GET", "/v1/listservice/memberCount", { query: { listId: list.id, joinListDateSince: "2100-01-01T00:00:00" } })).json).toBe(0);
  });

  it("§7.1 removeFromList and getCustomerTags need their customer ids: missing or not numbers, a field error and nothing removed", async () => {
    const list = await newList();
    await kit.call("POST", "/v1/listMembers", { body: { data: { customerId: customers[0], listId: list.id } } });
    for (const query of [{ listId: list.id }, { listId: list.id, customerIds: "1,abc" }, { listId: list.id, customerIds: "," }] as Array<Record<string, string>>) {
      const res = await kit.call("POST", "/v1/listservice/removeFromList", { query });
      expect(res.json.error.fieldErrors[0].fieldName).toBe("customerIds");
    }
    expect((await kit.call("GET", "/v1/listservice/memberCount", { query: { listId: list.id } })).json).toBe(1);
    for (const query of [{}, { customerId: "abc" }] as Array<Record<string, string>>) {
      expect((await kit.call("GET", "/v1/tagservice/getCustomerTags", { query })).json.error.fieldErrors[0].fieldName).toBe("customerId");
    }
  });

  it("§4.4 sinceId is a lower bound ascending and an upper bound descending", async () => {
    const list = await newList();
    const items = (await kit.call("POST", "/v1/listMembersBatch", { body: { items: customers.map((customerId) => ({ customerId, listId: list.id })) } })).json.items;
    const ids = items.map((m: { id: bigint }) => m.id).sort((a: bigint, b: bigint) => (a < b ? -1 : 1));
    const asc = await kit.call("GET", "/v1/listMembers", { query: { listId: list.id, sidx: "id", sinceId: ids[2] } });
    expect(asc.json.items.map((m: { id: bigint }) => m.id)).toEqual(ids.slice(3));
    const desc = await kit.call("GET", "/v1/listMembers", { query: { listId: list.id, sidx: "id", sord: "desc", sinceId: ids[2] } });
    expect(desc.json.items.map((m: { id: bigint }) => m.id)).toEqual([ids[1], ids[0]]);
  });

  it("§4.4 listMembers sidx defaults to customerId; rows at most 10000", async () => {
    const list = await newList();
    await kit.call("POST", "/v1/listMembersBatch", { body: { items: [...customers].reverse().map((customerId) => ({ customerId, listId: list.id })) } });
    const res = await kit.call("GET", "/v1/listMembers", { query: { listId: list.id, rows: 3 } });
    expect(res.json.items.map((m: { customerId: bigint }) => m.customerId)).toEqual(customers.slice(0, 3));
    expect((await kit.call("GET", "/v1/listMembers", { query: { rows: 10001 } })).json.error.fieldErrors[0].fieldName).toBe("rows");
    expect((await kit.call("GET", "/v1/listMembers", { query: { rows: 10000, listId: list.id } })).json.items).toHaveLength(6);
  });

  it("§4.4 deleting a list keeps its customers; DELETE listMembers/{id} removes one membership", async () => {
    const list = await newList();
    const member = (await kit.call("POST", "/v1/listMembers", { body: { data: { customerId: customers[2], listId: list.id } } })).json.data;
    expect((await kit.call("DELETE", `/v1/listMembers/${member.id}`)).status).toBe(204);
    expect((await kit.call("DELETE", `/v1/lists/${list.id}`)).status).toBe(204);
    expect((await kit.call("GET", `/v1/customers/${customers[2]}`)).status).toBe(200);
    expect((await kit.call("GET", "/v1/listservice/memberCount", { query: { listId: list.id } })).status).toBe(404);
  });
});

describe("§4.5 tags", () => {
  it("§2.6 the built-in dimensions basic, interests and consumptive_habit exist", async () => {
    const res = await kit.call("GET", "/v1/tagdimensions");
    expect(res.json.map((d: { dimensionKey: string }) => d.dimensionKey)).toEqual(expect.arrayContaining(["basic", "interests", "consumptive_habit"]));
  });

  it("§4.5 tag dimensions: create; GET max defaults to 20", async () => {
    for (let i = 0; i < 20; i++) await kit.call("POST", "/v1/tagdimensions", { body: { name: `维度${i}`, dimensionKey: `dim_${i}` } });
    expect((await kit.call("GET", "/v1/tagdimensions")).json).toHaveLength(20);
    expect((await kit.call("GET", "/v1/tagdimensions", { query: { max: 100 } })).json).toHaveLength(23);
  });

  it("§8 tag name at most 32 characters; dimension must exist", async () => {
    expect((await kit.call("POST", "/v1/tags", { body: { name: "长".repeat(33), dimension: "basic" } })).json.error.fieldErrors[0].fieldName).toBe("name");
    expect((await kit.call("POST", "/v1/tags", { body: { name: "x", dimension: "no_such" } })).json.error.fieldErrors[0].fieldName).toBe("dimension");
    const ok = await kit.call("POST", "/v1/tags", { body: { name: "长".repeat(32), dimension: "basic" } });
    expect(ok.json).toMatchObject({ dimension: "basic", id: expect.any(BigInt) });
  });

  it("§4.5 PUT renames or moves a tag; GET /v1/tags pages {page, records, total, rows}", async () => {
    const tag = (await kit.call("POST", "/v1/tags", { body: { name: "改名前", dimension: "basic" } })).json;
    const res = await kit.call("PUT", `/v1/tags/${tag.id}`, { body: { name: "改名后", dimension: "interests" } });
    expect(res.json).toMatchObject({ id: tag.id, name: "改名后", dimension: "interests" });
    const page = await kit.call("GET", "/v1/tags", { query: { rows: 1 } });
    expect(Object.keys(page.json).sort()).toEqual(["page", "records", "rows", "total"]);
  });

  it("§4.5 addCustomerTag answers the names; getCustomerTags maps each id to comma-separated names", async () => {
    const added = await kit.call("POST", "/v1/tagservice/addCustomerTag", { body: { customerId: customers[3], tags: [{ name: "咖啡" }, { name: "茶" }] } });
    expect(added.json).toEqual(["咖啡", "茶"]);
    await kit.call("POST", "/v1/tagservice/addCustomerTag", { body: { customerId: customers[4], tags: [{ name: "茶" }] } });
    const map = await kit.call("GET", "/v1/tagservice/getCustomerTags", { query: { customerId: `${customers[3]},${customers[4]}` } });
    expect(map.json).toEqual({ [String(customers[3])]: "咖啡,茶", [String(customers[4])]: "茶" });
  });

  it("§4.5 removeCustomerTag takes name strings and answers the removed names", async () => {
    await kit.call("POST", "/v1/tagservice/addCustomerTag", { body: { customerId: customers[5], tags: [{ name: "甲" }, { name: "乙" }] } });
    const res = await kit.call("POST", "/v1/tagservice/removeCustomerTag", { body: { customerId: customers[5], tags: ["甲", "丙"] } });
    expect(res.json).toEqual(["甲"]);
    expect((await kit.call("GET", "/v1/tagservice/getCustomerTags", { query: { customerId: customers[5]! } })).json[String(customers[5])]).toBe("乙");
  });

  it("§4.5 merge: customers with fromId get toId, fromId is deleted, answer {success: true}", async () => {
    const from = (await kit.call("POST", "/v1/tags", { body: { name: "旧标签", dimension: "basic" } })).json;
    const to = (await kit.call("POST", "/v1/tags", { body: { name: "新标签", dimension: "basic" } })).json;
    await kit.call("POST", "/v1/tagservice/addCustomerTag", { body: { customerId: customers[0], tags: [{ name: "旧标签" }] } });
    const res = await kit.call("POST", `/v1/tags/${from.id}/mergeto/${to.id}`);
    expect(res.json).toEqual({ success: true });
    expect((await kit.call("GET", "/v1/tagservice/getCustomerTags", { query: { customerId: customers[0]! } })).json[String(customers[0])]).toContain("新标签");
    expect((await kit.call("DELETE", `/v1/tags/${from.id}`)).status).toBe(404);
  });

  it("§4.5 external tags: names over 64 characters fail; the answer is {code: SUCCESS, success, failed}", async () => {
    const res = await kit.call("POST", "/v1/externalTags", { body: { tags: ["外部A", "x".repeat(65)] } });
    expect(res.json).toEqual({ code: "SUCCESS", success: ["外部A"], failed: ["x".repeat(65)] });
  });

  it("§4.5 external tags without `tags` import every file of the current day's folder", async () => {
    const day = new Date().toISOString().slice(0, 10).replace(/-/g, "");
    await fetch(`${kit.sandbox.urls.alpha}/__sandbox/storage`, { method: "PUT", body: JSON.stringify({ environment: "alpha", path: `oss://sandbox/external-tags/${day}/a.txt`, content: "文件标签1\n文件标签2\n" }) });
    await fetch(`${kit.sandbox.urls.alpha}/__sandbox/storage`, { method: "PUT", body: JSON.stringify({ environment: "alpha", path: "oss://sandbox/external-tags/20000101/old.txt", content: "旧文件标签\n" }) });
    const res = await kit.call("POST", "/v1/externalTags", { body: {} });
    expect(res.json.success).toEqual(["文件标签1", "文件标签2"]);
  });
});

describe("change events for the webhook sender", () => {
  it("lists, members, tags and customer tags publish their changes", async () => {
    kit.changes.length = 0;
    const list = await newList("发布");
    await kit.call("POST", "/v1/listMembers", { body: { data: { customerId: customers[0], listId: list.id } } });
    await kit.call("POST", "/v1/listservice/removeFromList", { query: { customerIds: String(customers[0]), listId: list.id } });
    await kit.call("DELETE", `/v1/lists/${list.id}`);
    const tag = (await kit.call("POST", "/v1/tags", { body: { name: "发布标签", dimension: "basic" } })).json;
    await kit.call("POST", "/v1/tagservice/addCustomerTag", { body: { customerId: customers[1], tags: [{ name: "发布标签" }] } });
    await kit.call("POST", "/v1/tagservice/removeCustomerTag", { body: { customerId: customers[1], tags: ["发布标签"] } });
    await kit.call("DELETE", `/v1/tags/${tag.id}`);
    await kit.call("POST", "/v1/tagdimensions", { body: { name: "发布维度", dimensionKey: "pub_dim" } });
    expect(kit.changes.map((c) => `${c.resource}.${c.action}`)).toEqual([
      "list.created", "listMember.added", "listMember.removed", "list.deleted",
      "tag.created", "customerTag.added", "customerTag.removed", "tag.deleted", "tagDimension.created",
    ]);
    expect(kit.changes.every((c) => c.environment === "alpha" && c.tenantId === kit.sandbox.ctx.config.environments[0]!.tenant.id)).toBe(true);
  });
});
