import { describe, expect, it } from "vitest";
import { startApiKitForFile } from "./testkit";

/**
 * §4.5 tag rules the console relies on (the Tags page): refusals change nothing, merge keeps a
 * customer's target tag once, and a tag is unique by name. lists-tags.test.ts covers the happy paths.
 */

const kit = await startApiKitForFile();
const customers: bigint[] = [];
for (let i = 0; i < 3; i++) customers.push(await kit.createCustomer(`标签客户${i}`));

type TagJson = { id: bigint; name: string; dimension: string };
const newTag = async (name: string, dimension = "basic"): Promise<TagJson> => (await kit.call("POST", "/v1/tags", { body: { name, dimension } })).json;
const allTags = async (): Promise<TagJson[]> => (await kit.call("GET", "/v1/tags", { query: { rows: 1000 } })).json.rows;
const tagsOf = async (customerId: bigint): Promise<string[]> =>
  ((await kit.call("GET", "/v1/tagservice/getCustomerTags", { query: { customerId: String(customerId) } })).json[String(customerId)] as string).split(",").filter(Boolean);

describe("§4.5 tag dimensions", () => {
  it("§2.6 a built-in dimension key cannot be created again; a new key can, once", async () => {
    const dup = await kit.call("POST", "/v1/tagdimensions", { body: { name: "again", dimensionKey: "basic" } });
    expect(dup.json.error.fieldErrors[0].fieldName).toBe("dimensionKey");
    const made = await kit.call("POST", "/v1/tagdimensions", { body: { name: "渠道", dimensionKey: "channel" } });
    expect(made.json).toMatchObject({ dimensionKey: "channel", name: "渠道", id: expect.any(BigInt) });
    expect((await kit.call("POST", "/v1/tagdimensions", { body: { name: "渠道2", dimensionKey: "channel" } })).json.error).toBeDefined();
  });

  it("§8 dimensionKey and name at most 255 characters (code points)", async () => {
    expect((await kit.call("POST", "/v1/tagdimensions", { body: { name: "n", dimensionKey: "k".repeat(256) } })).json.error.fieldErrors[0].fieldName).toBe("dimensionKey");
    expect((await kit.call("POST", "/v1/tagdimensions", { body: { name: "长".repeat(256), dimensionKey: "k256" } })).json.error.fieldErrors[0].fieldName).toBe("name");
    expect((await kit.call("POST", "/v1/tagdimensions", { body: { name: "长".repeat(255), dimensionKey: "😀".repeat(255) } })).json.id).toEqual(expect.any(BigInt));
  });
});

describe("§4.5 tags", () => {
  it("PUT with a missing dimension or a taken name changes nothing", async () => {
    const a = await newTag("甲标签");
    await newTag("乙标签");
    expect((await kit.call("PUT", `/v1/tags/${a.id}`, { body: { dimension: "no_such" } })).json.error.fieldErrors[0].fieldName).toBe("dimension");
    expect((await kit.call("PUT", `/v1/tags/${a.id}`, { body: { name: "乙标签" } })).json.error.fieldErrors[0].fieldName).toBe("name");
    expect((await kit.call("PUT", `/v1/tags/${a.id}`, { body: { name: "x".repeat(33) } })).json.error.fieldErrors[0].fieldName).toBe("name");
    expect((await allTags()).find((t) => t.id === a.id)).toMatchObject({ name: "甲标签", dimension: "basic" });
    // Only the dimension: the name stays.
    expect((await kit.call("PUT", `/v1/tags/${a.id}`, { body: { dimension: "interests" } })).json).toMatchObject({ name: "甲标签", dimension: "interests" });
    expect((await kit.call("PUT", "/v1/tags/999999", { body: { name: "x" } })).status).toBe(404);
  });

  it("a renamed tag stays on its customers under the new name", async () => {
    const t = await newTag("改名标签");
    await kit.call("POST", "/v1/tagservice/addCustomerTag", { body: { customerId: customers[0], tags: [{ name: "改名标签" }] } });
    await kit.call("PUT", `/v1/tags/${t.id}`, { body: { name: "新名标签" } });
    expect(await tagsOf(customers[0]!)).toContain("新名标签");
    expect(await tagsOf(customers[0]!)).not.toContain("改名标签");
  });

  it("merge: a tag into itself is refused and changes nothing; unknown ids are 404", async () => {
    const t = await newTag("自合并");
    await kit.call("POST", "/v1/tagservice/addCustomerTag", { body: { customerId: customers[1], tags: [{ name: "自合并" }] } });
    const res = await kit.call("POST", `/v1/tags/${t.id}/mergeto/${t.id}`);
    expect(res.json.error).toBeDefined();
    expect((await allTags()).some((x) => x.id === t.id)).toBe(true);
    expect(await tagsOf(customers[1]!)).toContain("自合并");
    expect((await kit.call("POST", `/v1/tags/${t.id}/mergeto/999999`)).status).toBe(404);
    expect((await kit.call("POST", `/v1/tags/999999/mergeto/${t.id}`)).status).toBe(404);
    expect((await allTags()).some((x) => x.id === t.id)).toBe(true);
  });

  it("merge: a customer carrying both tags keeps the target once; customers of neither are untouched", async () => {
    const from = await newTag("合并源");
    const to = await newTag("合并目标");
    await kit.call("POST", "/v1/tagservice/addCustomerTag", { body: { customerId: customers[0], tags: [{ name: "合并源" }, { name: "合并目标" }] } });
    await kit.call("POST", "/v1/tagservice/addCustomerTag", { body: { customerId: customers[1], tags: [{ name: "合并源" }] } });
    const before2 = await tagsOf(customers[2]!);
    expect((await kit.call("POST", `/v1/tags/${from.id}/mergeto/${to.id}`)).json).toEqual({ success: true });
    expect((await tagsOf(customers[0]!)).filter((n) => n === "合并目标")).toHaveLength(1);
    expect(await tagsOf(customers[0]!)).not.toContain("合并源");
    expect(await tagsOf(customers[1]!)).toContain("合并目标");
    expect(await tagsOf(customers[2]!)).toEqual(before2);
    expect((await allTags()).some((x) => x.id === from.id)).toBe(false);
  });

  it("delete removes the tag from its customers; a second delete is 404", async () => {
    const t = await newTag("删除标签");
    await kit.call("POST", "/v1/tagservice/addCustomerTag", { body: { customerId: customers[2], tags: [{ name: "删除标签" }] } });
    expect((await kit.call("DELETE", `/v1/tags/${t.id}`)).status).toBe(204);
    expect(await tagsOf(customers[2]!)).not.toContain("删除标签");
    expect((await kit.call("DELETE", `/v1/tags/${t.id}`)).status).toBe(404);
  });

  it("addCustomerTag for a customer that does not exist is 404 and creates no tag", async () => {
    const res = await kit.call("POST", "/v1/tagservice/addCustomerTag", { body: { customerId: "123", tags: [{ name: "幽灵标签" }] } });
    expect(res.status).toBe(404);
    expect((await allTags()).some((x) => x.name === "幽灵标签")).toBe(false);
  });

  it("§4.5 external tags: `tags` that is not an array is refused; an empty array imports nothing", async () => {
    expect((await kit.call("POST", "/v1/externalTags", { body: { tags: "a,b" } })).json.error.fieldErrors[0].fieldName).toBe("tags");
    expect((await kit.call("POST", "/v1/externalTags", { body: { tags: [] } })).json).toEqual({ code: "SUCCESS", success: [], failed: [] });
    // §8: 64 characters is the limit, counted in characters.
    const res = await kit.call("POST", "/v1/externalTags", { body: { tags: ["长".repeat(64), "长".repeat(65)] } });
    expect(res.json).toEqual({ code: "SUCCESS", success: ["长".repeat(64)], failed: ["长".repeat(65)] });
  });
});
