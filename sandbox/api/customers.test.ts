import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { md5 } from "./identities";
import { startApiKitForFile } from "./testkit";

const kit = await startApiKitForFile();
beforeEach(() => {
  kit.changes.length = 0;
});

let seq = 0;
const uniqueMobile = () => `139${String(10_000_000 + ++seq).slice(-8)}`;

async function createWithIdentities(customer: Record<string, unknown>, identities: Array<Record<string, unknown>>, query: Record<string, string> = {}) {
  return kit.call("POST", "/v1/customerandidentities", { body: { customer, customerIdentities: identities }, query });
}

describe("§4.1 create with identities", () => {
  it("§4.1 rule 3: no bound identity and no email/mobile match creates a new customer with all identities", async () => {
    const mobile = uniqueMobile();
    const res = await createWithIdentities({ name: "李雷", mobile }, [
      { identityType: "mobile", identityValue: mobile },
      { identityType: "crm-account", identityValue: `A${seq}`, identityName: "CRM" },
    ]);
    expect(res.status).toBe(200);
    expect(res.json.name).toBe("李雷");
    expect(typeof res.json.id).toBe("bigint");
    const ids = await kit.call("GET", "/v1/customeridentities", { query: { customerIds: res.json.id } });
    expect(ids.json.map((i: { identityType: string }) => i.identityType).sort()).toEqual(["crm-account", "mobile"]);
  });

  it("§4.1 rule 1: an identity already bound updates that customer and binds the other identities to it", async () => {
    const first = await createWithIdentities({ name: "韩梅梅" }, [{ identityType: "crm-account", identityValue: "R1-a" }]);
    const second = await createWithIdentities({ city: "上海市" }, [
      { identityType: "crm-account", identityValue: "R1-a" },
      { identityType: "messenger", identityValue: "open-R1" },
    ]);
    expect(second.json.id).toBe(first.json.id);
    expect(second.json.city).toBe("上海市");
    const ids = await kit.call("GET", "/v1/customeridentities", { query: { identityType: "messenger", identityValue: "open-R1" } });
    expect(ids.json[0].customerId).toBe(first.json.id);
  });

  it("§4.1 rule 2: mergeByEmail (default true) finds the customer by customer.email", async () => {
    const email = `r2-${Date.now()}@mail.test`;
    const first = await createWithIdentities({ name: "甲", email }, [{ identityType: "crm-account", identityValue: "R2-a" }]);
    const second = await createWithIdentities({ email }, [{ identityType: "crm-account", identityValue: "R2-b" }]);
    expect(second.json.id).toBe(first.json.id);
  });

  it("§4.1 rule 2: mergeByEmail=false does not merge by email", async () => {
    const email = `r2off-${Date.now()}@mail.test`;
    const first = await createWithIdentities({ email }, [{ identityType: "crm-account", identityValue: "R2off-a" }]);
    const second = await createWithIdentities({ email }, [{ identityType: "crm-account", identityValue: "R2off-b" }], { mergeByEmail: "false" });
    expect(second.json.id).not.toBe(first.json.id);
  });

  it("§4.1 rule 2: mergeByMobile (default true) finds the customer by customer.mobile; false does not", async () => {
    const mobile = uniqueMobile();
    const first = await createWithIdentities({ mobile }, [{ identityType: "crm-account", identityValue: `R2m-${seq}` }]);
    const merged = await createWithIdentities({ mobile }, [{ identityType: "crm-account", identityValue: `R2m-b-${seq}` }]);
    expect(merged.json.id).toBe(first.json.id);
    const separate = await createWithIdentities({ mobile }, [{ identityType: "crm-account", identityValue: `R2m-c-${seq}` }], { mergeByMobile: "false" });
    expect(separate.json.id).not.toBe(first.json.id);
  });

  it("§4.1 rule 4: fields are not cleared on update unless nullAble=true", async () => {
    const first = await createWithIdentities({ name: "王五", company: "ACME" }, [{ identityType: "crm-account", identityValue: "R4" }]);
    const kept = await createWithIdentities({ company: null }, [{ identityType: "crm-account", identityValue: "R4" }]);
    expect(kept.json.company).toBe("ACME");
    const cleared = await createWithIdentities({ company: null }, [{ identityType: "crm-account", identityValue: "R4" }], { nullAble: "true" });
    expect(cleared.json.id).toBe(first.json.id);
    expect(cleared.json.company).toBeNull();
  });

  it("§7.3 missing customer: HTTP 400 text 'No customer field found'", async () => {
    const res = await kit.call("POST", "/v1/customerandidentities", { body: { customerIdentities: [] } });
    expect(res.status).toBe(400);
    expect(res.contentType).toMatch(/text\/plain/);
    expect(res.text).toBe("No customer field found");
  });

  it("§7.3 missing customerIdentities: HTTP 400 text 'No customerIdentities field found'", async () => {
    const res = await kit.call("POST", "/v1/customerandidentities", { body: { customer: { name: "x" } } });
    expect(res.status).toBe(400);
    expect(res.text).toBe("No customerIdentities field found");
  });

  it("§7.3 customerIdentities not an array: HTTP 400 with the exact text", async () => {
    const res = await kit.call("POST", "/v1/customerandidentities", { body: { customer: { name: "x" }, customerIdentities: { identityType: "a" } } });
    expect(res.status).toBe(400);
    expect(res.text).toBe("customerIdentities must be an array of values in customerIdentity");
  });

  it("§7.2 field validation: HTTP 200, code 400001, fieldErrors [{fieldName, message}], nothing created", async () => {
    const before = await kit.call("GET", "/v1/customers/count");
    const res = await createWithIdentities({ gender: 7, email: "not-an-email" }, [{ identityType: "crm-account", identityValue: "bad" }]);
    expect(res.status).toBe(200);
    expect(res.json.error.code).toBe("400001");
    expect(res.json.error.fieldErrors).toEqual(expect.arrayContaining([expect.objectContaining({ fieldName: "gender" }), expect.objectContaining({ fieldName: "email" })]));
    expect((await kit.call("GET", "/v1/customers/count")).json).toBe(before.json);
  });

  it("§8 identity limits: identityType > 32, identityValue > 128, identityName > 256 characters are refused", async () => {
    for (const identity of [
      { identityType: "t".repeat(33), identityValue: "v" },
      { identityType: "crm", identityValue: "v".repeat(129) },
      { identityType: "crm", identityValue: "v", identityName: "名".repeat(257) },
    ]) {
      const res = await createWithIdentities({ name: "x" }, [identity]);
      expect(res.json.error.code).toBe("400001");
    }
    const ok = await createWithIdentities({ name: "x" }, [{ identityType: "t".repeat(32), identityValue: "v".repeat(128), identityName: "名".repeat(256) }]);
    expect(ok.json.error).toBeUndefined();
  });
});

describe("§4.1 create or update (POST /v1/customers)", () => {
  it("§4.1 a new customer answers HTTP 201, an existing one (by mobile) HTTP 200", async () => {
    const mobile = uniqueMobile();
    const created = await kit.call("POST", "/v1/customers", { body: { name: "赵六", mobile, createMethod: "api" } });
    expect(created.status).toBe(201);
    const updated = await kit.call("POST", "/v1/customers", { body: { mobile, city: "杭州市" } });
    expect(updated.status).toBe(200);
    expect(updated.json.id).toBe(created.json.id);
    expect(updated.json.name).toBe("赵六");
    expect(updated.json.city).toBe("杭州市");
  });

  it("§4.1 an existing customer is found by email too", async () => {
    const email = `upsert-${Date.now()}@mail.test`;
    const created = await kit.call("POST", "/v1/customers", { body: { email } });
    const again = await kit.call("POST", "/v1/customers", { body: { email, name: "钱七" } });
    expect(again.status).toBe(200);
    expect(again.json.id).toBe(created.json.id);
  });

  it("§7.3 empty request object: HTTP 400 text 'Request data need at least one field'", async () => {
    const res = await kit.call("POST", "/v1/customers", { body: {} });
    expect(res.status).toBe(400);
    expect(res.text).toBe("Request data need at least one field");
  });

  it("§7.2 plain create validation: code 401011, fieldErrors items are {fieldName: message} objects", async () => {
    const res = await kit.call("POST", "/v1/customers", { body: { gender: 9 } });
    expect(res.status).toBe(200);
    expect(res.json.error.code).toBe("401011");
    expect(res.json.error.fieldErrors[0]).toEqual({ gender: expect.any(String) });
  });

  it("§8 homeAddress / officeAddress at most 512 characters", async () => {
    const res = await kit.call("POST", "/v1/customers", { body: { name: "x", homeAddress: "路".repeat(513) } });
    expect(res.json.error.code).toBe("401011");
    const ok = await kit.call("POST", "/v1/customers", { body: { name: "x", officeAddress: "路".repeat(512) } });
    expect(ok.status).toBe(201);
  });

  it("§2.1 displayName is name when set, otherwise nickName; absent fields are null", async () => {
    const a = await kit.call("POST", "/v1/customers", { body: { name: "孙八", nickName: "八哥" } });
    expect(a.json.displayName).toBe("孙八");
    const b = await kit.call("POST", "/v1/customers", { body: { nickName: "九妹" } });
    expect(b.json.displayName).toBe("九妹");
    expect(b.json.email).toBeNull();
    expect(b.json.dateCreated).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it("§2.1 global mobile format +<country code> <number> is accepted; a country code starting with 0 is refused", async () => {
    expect((await kit.call("POST", "/v1/customers", { body: { mobile: `+86 ${uniqueMobile()}` } })).status).toBe(201);
    expect((await kit.call("POST", "/v1/customers", { body: { mobile: "+086 13800000000" } })).json.error.code).toBe("401011");
  });
});

describe("§4.1 update, delete, read", () => {
  it("§4.1 PUT returns the customer as it was before the modification", async () => {
    const created = await kit.call("POST", "/v1/customers", { body: { name: "旧名" } });
    const res = await kit.call("PUT", `/v1/customers/${created.json.id}`, { body: { name: "新名" } });
    expect(res.status).toBe(200);
    expect(res.json.name).toBe("旧名");
    expect((await kit.call("GET", `/v1/customers/${created.json.id}`)).json.name).toBe("新名");
  });

  it("§4.1 PUT nullAble=false keeps fields sent empty; nullAble=true clears them", async () => {
    const created = await kit.call("POST", "/v1/customers", { body: { name: "甲", company: "ACME" } });
    await kit.call("PUT", `/v1/customers/${created.json.id}`, { body: { company: "" } });
    expect((await kit.call("GET", `/v1/customers/${created.json.id}`)).json.company).toBe("ACME");
    await kit.call("PUT", `/v1/customers/${created.json.id}`, { body: { company: "" }, query: { nullAble: "true" } });
    expect((await kit.call("GET", `/v1/customers/${created.json.id}`)).json.company).toBeNull();
  });

  it("§4.1 PUT: mobileVerified cannot go false while the mobile is unchanged; it can with a new mobile", async () => {
    const mobile = uniqueMobile();
    const created = await kit.call("POST", "/v1/customers", { body: { mobile, mobileVerified: true } });
    const id = created.json.id;
    await kit.call("PUT", `/v1/customers/${id}`, { body: { mobileVerified: false } });
    expect((await kit.call("GET", `/v1/customers/${id}`)).json.mobileVerified).toBe(true);
    await kit.call("PUT", `/v1/customers/${id}`, { body: { mobile, mobileVerified: false } });
    expect((await kit.call("GET", `/v1/customers/${id}`)).json.mobileVerified).toBe(true);
    await kit.call("PUT", `/v1/customers/${id}`, { body: { mobile: uniqueMobile(), mobileVerified: false } });
    expect((await kit.call("GET", `/v1/customers/${id}`)).json.mobileVerified).toBe(false);
  });

  it("§4.1 PUT: emailVerified cannot go false while the email is unchanged", async () => {
    const created = await kit.call("POST", "/v1/customers", { body: { email: `ev-${Date.now()}@mail.test`, emailVerified: true } });
    await kit.call("PUT", `/v1/customers/${created.json.id}`, { body: { emailVerified: false } });
    expect((await kit.call("GET", `/v1/customers/${created.json.id}`)).json.emailVerified).toBe(true);
  });

  it("§4.1 PUT forceUpdate: non-modifiable fields (initial source) change only with forceUpdate=true", async () => {
    const created = await kit.call("POST", "/v1/customers", { body: { name: "源", source: "门店" } });
    const id = created.json.id;
    await kit.call("PUT", `/v1/customers/${id}`, { body: { source: "官网" } });
    expect((await kit.call("GET", `/v1/customers/${id}`)).json.source).toBe("门店");
    await kit.call("PUT", `/v1/customers/${id}`, { body: { source: "官网" }, query: { forceUpdate: "true" } });
    expect((await kit.call("GET", `/v1/customers/${id}`)).json.source).toBe("官网");
  });

  it("§4.1 DELETE answers 204 and the customer is gone (GET 404, not made-up data)", async () => {
    const created = await kit.call("POST", "/v1/customers", { body: { name: "删" } });
    const res = await kit.call("DELETE", `/v1/customers/${created.json.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    const gone = await kit.call("GET", `/v1/customers/${created.json.id}`);
    expect(gone.status).toBe(404);
    expect(gone.json.error.code).toBe("404");
    expect((await kit.call("DELETE", `/v1/customers/${created.json.id}`)).status).toBe(404);
  });

  it("§2 ids above 2^53 are written as JSON integers without loss, and are accepted back as path ids", async () => {
    const created = await kit.call("POST", "/v1/customers", { body: { name: "大号" } });
    const id: bigint = created.json.id;
    expect(id > 2n ** 53n).toBe(true);
    expect(created.text).toContain(`"id":${id.toString()}`);
    const read = await kit.call("GET", `/v1/customers/${id}`);
    expect(read.json.id).toBe(id);
    const near = await kit.call("GET", `/v1/customers/${id + 1n}`);
    expect(near.status).toBe(404);
  });
});

describe("§4.1 query and count", () => {
  let stageMarker: string;
  beforeAll(async () => {
    stageMarker = `S${Date.now()}`;
    for (let i = 0; i < 5; i++) {
      await kit.call("POST", "/v1/customers", { body: { name: `查${i}`, stage: stageMarker, gender: (i % 2) + 1, source: "Q", ...(i < 2 ? { email: `q${i}-${stageMarker}@mail.test` } : {}) } });
    }
  });

  it("§4.1 GET /v1/customers answers {rows} with rows default 20 and page default 1", async () => {
    for (let i = 0; i < 21; i++) await kit.call("POST", "/v1/customers", { body: { name: `页${i}` } });
    const res = await kit.call("GET", "/v1/customers");
    expect(Object.keys(res.json)).toEqual(["rows"]);
    expect(res.json.rows).toHaveLength(20);
  });

  it("§4.1 filters combine: stage + gender + hasEmail", async () => {
    const res = await kit.call("GET", "/v1/customers", { query: { stage: stageMarker, gender: 1 } });
    expect(res.json.rows).toHaveLength(3);
    const withEmail = await kit.call("GET", "/v1/customers", { query: { stage: stageMarker, hasEmail: "true" } });
    expect(withEmail.json.rows).toHaveLength(2);
  });

  it("§4.1 stage=_empty selects customers with an empty stage", async () => {
    const res = await kit.call("GET", "/v1/customers", { query: { stage: "_empty", rows: 1000 } });
    expect(res.json.rows.length).toBeGreaterThan(0);
    expect(res.json.rows.every((r: { stage: unknown }) => r.stage === null)).toBe(true);
  });

  it("§4.1 select returns only the named fields", async () => {
    const res = await kit.call("GET", "/v1/customers", { query: { stage: stageMarker, select: "id,name" } });
    expect(Object.keys(res.json.rows[0]).sort()).toEqual(["id", "name"]);
  });

  it("§4.1 paging: page 2 continues page 1 in id order, sord=desc reverses", async () => {
    const p1 = await kit.call("GET", "/v1/customers", { query: { rows: 3, page: 1 } });
    const p2 = await kit.call("GET", "/v1/customers", { query: { rows: 3, page: 2 } });
    const all = await kit.call("GET", "/v1/customers", { query: { rows: 6 } });
    expect([...p1.json.rows, ...p2.json.rows].map((r: { id: bigint }) => r.id)).toEqual(all.json.rows.map((r: { id: bigint }) => r.id));
    const desc = await kit.call("GET", "/v1/customers", { query: { rows: 2, sord: "desc" } });
    expect(desc.json.rows[0].id > desc.json.rows[1].id).toBe(true);
  });

  it("§4.1 idList, idFrom/idTo and identityType/identityValue filters", async () => {
    const a = await kit.call("POST", "/v1/customerandidentities", { body: { customer: { name: "身份" }, customerIdentities: [{ identityType: "crm-q", identityValue: "Q-1" }] } });
    const byIdentity = await kit.call("GET", "/v1/customers", { query: { identityType: "crm-q", identityValue: "Q-1" } });
    expect(byIdentity.json.rows.map((r: { id: bigint }) => r.id)).toEqual([a.json.id]);
    const byList = await kit.call("GET", "/v1/customers", { query: { idList: `${a.json.id}` } });
    expect(byList.json.rows).toHaveLength(1);
    const byRange = await kit.call("GET", "/v1/customers", { query: { idFrom: a.json.id, idTo: a.json.id } });
    expect(byRange.json.rows).toHaveLength(1);
  });

  it("§4.1 dateCreatedFrom / lastUpdatedFrom take UTC YYYY-MM-DDTHH:MM:SS; a malformed one is a clear error", async () => {
    const future = await kit.call("GET", "/v1/customers", { query: { dateCreatedFrom: "2100-01-01T00:00:00" } });
    expect(future.json.rows).toEqual([]);
    const past = await kit.call("GET", "/v1/customers", { query: { lastUpdatedFrom: "2000-01-01T00:00:00", rows: 1 } });
    expect(past.json.rows).toHaveLength(1);
    const bad = await kit.call("GET", "/v1/customers", { query: { dateCreatedFrom: "yesterday" } });
    expect(bad.status).toBe(200);
    expect(bad.json.error.fieldErrors[0].fieldName).toBe("dateCreatedFrom");
  });

  it("§4.1 GET /v1/customers/count counts with the same filters", async () => {
    const res = await kit.call("GET", "/v1/customers/count", { query: { stage: stageMarker, source: "Q" } });
    expect(res.json).toBe(5);
  });
});

describe("§4.1 identities", () => {
  it("§4.1 POST /v1/customeridentities answers the same four fields", async () => {
    const c = await kit.call("POST", "/v1/customers", { body: { name: "加身份" } });
    const res = await kit.call("POST", "/v1/customeridentities", { body: { customerId: c.json.id, identityType: "crm-x", identityValue: "X1", identityName: "会员号" } });
    expect(res.json).toEqual({ customerId: c.json.id, identityType: "crm-x", identityValue: "X1", identityName: "会员号" });
  });

  it("§7.2 GET /v1/customeridentities with non-numeric customerIds: code 400001, fieldName customerIds", async () => {
    const res = await kit.call("GET", "/v1/customeridentities", { query: { customerIds: "12,abc" } });
    expect(res.status).toBe(200);
    expect(res.json.error.code).toBe("400001");
    expect(res.json.error.fieldErrors[0].fieldName).toBe("customerIds");
  });

  it("§2.2 md5 identities are found by getCustomerIdentityByMd5 and not by ordinary identity queries", async () => {
    const mobile = uniqueMobile();
    const c = await kit.call("POST", "/v1/customerandidentities", { body: { customer: { mobile }, customerIdentities: [{ identityType: "mobile", identityValue: mobile }] } });
    const found = await kit.call("GET", "/v1/customerService/getCustomerIdentityByMd5", { query: { md5type: "common", md5value: md5(mobile) } });
    expect(found.json).toMatchObject({ md5type: "common", md5value: md5(mobile), customerId: c.json.id, customerIdStr: String(c.json.id) });
    const ordinary = await kit.call("GET", "/v1/customeridentities", { query: { identityType: "mobile", identityValue: md5(mobile) } });
    expect(ordinary.json).toEqual([]);
  });

  it("§2.2 the answer is the whole MD5 identity object, with the customer id also as a string", async () => {
    const email = `md5-${++seq}@example.test`;
    const c = await kit.call("POST", "/v1/customerandidentities", { body: { customer: { email }, customerIdentities: [{ identityType: "email", identityValue: email }] } });
    const res = await kit.call("GET", "/v1/customerService/getCustomerIdentityByMd5", { query: { md5type: "common", md5value: md5(email) } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(["customerId", "customerIdStr", "dateCreated", "id", "lastUpdated", "md5type", "md5value", "type", "value"]);
    expect(res.json).toMatchObject({ md5type: "common", type: "email", value: email, customerId: c.json.id, customerIdStr: String(c.json.id) });
    expect(res.json.dateCreated).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
    // A common md5 is not a marketplace one (§4.1: the two kinds are looked up apart).
    const other = await kit.call("GET", "/v1/customerService/getCustomerIdentityByMd5", { query: { md5type: "marketplace", md5value: md5(email) } });
    expect(other.json.error.code).toBe("409200");
  });

  it("§4.1 md5type must be common or marketplace", async () => {
    const res = await kit.call("GET", "/v1/customerService/getCustomerIdentityByMd5", { query: { md5type: "sha1", md5value: md5("x") } });
    expect(res.json.error.fieldErrors[0].fieldName).toBe("md5type");
  });

  it("§4.1 / §7.1 a missing md5type or md5value: HTTP 200 error object with fieldErrors [{fieldName, message}]", async () => {
    for (const [query, field] of [[{ md5value: md5("x") }, "md5type"], [{ md5type: "common" }, "md5value"], [{ md5type: "", md5value: "" }, "md5type"], [{ md5type: "common", md5value: "" }, "md5value"]] as const) {
      const res = await kit.call("GET", "/v1/customerService/getCustomerIdentityByMd5", { query });
      expect(res.status, JSON.stringify(query)).toBe(200);
      expect(typeof res.json.error.code).toBe("string");
      expect(typeof res.json.error.message).toBe("string");
      expect(res.json.error.fieldErrors).toEqual([{ fieldName: field, message: expect.any(String) }]);
    }
  });

  it("an md5 identity of one tenant is not found with another tenant's token", async () => {
    const mobile = uniqueMobile();
    await kit.call("POST", "/v1/customerandidentities", { body: { customer: { mobile }, customerIdentities: [{ identityType: "mobile", identityValue: mobile }] } });
    const query = { md5type: "common", md5value: md5(mobile) };
    expect((await kit.call("GET", "/v1/customerService/getCustomerIdentityByMd5", { query })).json.md5value).toBe(md5(mobile));
    const fromBeta = await kit.call("GET", "/v1/customerService/getCustomerIdentityByMd5", { query, environment: "beta" });
    expect(fromBeta.status).toBe(200);
    expect(fromBeta.json.error).toMatchObject({ code: "409200", message: "Not found" });
  });

  it("§7.2 md5 identity not found: HTTP 200, code 409200, message 'Not found'", async () => {
    const res = await kit.call("GET", "/v1/customerService/getCustomerIdentityByMd5", { query: { md5type: "marketplace", md5value: md5("nobody") } });
    expect(res.status).toBe(200);
    expect(res.json.error).toMatchObject({ code: "409200", message: "Not found" });
  });
});

describe("§4.1 merge and unbinding", () => {
  async function customerWith(type: string, value: string) {
    return (await kit.call("POST", "/v1/customerandidentities", { body: { customer: { name: value }, customerIdentities: [{ identityType: type, identityValue: value }] } })).json.id as bigint;
  }

  it("§4.1 mergeCustomerById: source deleted; identities, events, orders, tags, memberships end on the target", async () => {
    const from = await customerWith("crm-m", "M-from");
    const to = await customerWith("crm-m", "M-to");
    await kit.call("POST", "/v1/customerevents", { body: { customerId: from, event: "open_page" } });
    await kit.call("POST", "/v1/deals", { body: { customerId: from, orderNo: `M-${Date.now()}`, amountPaid: 10, dateOrder: new Date().toISOString().slice(0, 19) + "Z", lines: [] } });
    await kit.call("POST", "/v1/tagservice/addCustomerTag", { body: { customerId: from, tags: [{ name: "合并标签" }] } });
    const list = await kit.call("POST", "/v1/lists", { body: { name: "合并名单" } });
    await kit.call("POST", "/v1/listMembers", { body: { data: { customerId: from, listId: list.json.id } } });

    const res = await kit.call("POST", "/v1/customerService/mergeCustomerById", { query: { fromId: from, toId: to } });
    expect(res.json).toEqual({ data: { customerId: to } });
    expect((await kit.call("GET", `/v1/customers/${from}`)).status).toBe(404);
    const identities = await kit.call("GET", "/v1/customeridentities", { query: { customerIds: to } });
    expect(identities.json.map((i: { identityValue: string }) => i.identityValue).sort()).toEqual(["M-from", "M-to"]);
    expect((await kit.call("GET", "/v1/customerevents", { query: { customerId: to } })).json).toHaveLength(1);
    expect((await kit.call("GET", "/v1/deals", { query: { customerId: to } })).json.rows).toHaveLength(1);
    expect((await kit.call("GET", "/v1/tagservice/getCustomerTags", { query: { customerId: to } })).json[String(to)]).toBe("合并标签");
    expect((await kit.call("GET", "/v1/listMembers", { query: { listId: list.json.id } })).json.items[0].customerId).toBe(to);
    expect(kit.changes.some((c) => c.resource === "customer" && c.action === "merged" && c.id === String(to))).toBe(true);
  });

  it("§4.1 mergeCustomerByIdentities merges the customer of `from` into the customer of `to`", async () => {
    const from = await customerWith("crm-mi", "MI-from");
    const to = await customerWith("crm-mi", "MI-to");
    const res = await kit.call("POST", "/v1/customerService/mergeCustomerByIdentities", {
      body: { from: { identityType: "crm-mi", identityValue: "MI-from" }, to: { identityType: "crm-mi", identityValue: "MI-to" } },
    });
    expect(res.json.data.customerId).toBe(to);
    expect((await kit.call("GET", `/v1/customers/${from}`)).status).toBe(404);
  });

  it("§4.1 unbinding: a new customer holds the union id and its open ids, with one follow event and one system event", async () => {
    const old = (
      await kit.call("POST", "/v1/customerandidentities", {
        body: {
          customer: { nickName: "微信用户" },
          customerIdentities: [
            { identityType: "messenger-unionid", identityValue: "U-1" },
            { identityType: "messenger", identityValue: "O-1" },
            { identityType: "messenger", identityValue: "O-2" },
            { identityType: "mobile", identityValue: "13900000009" },
          ],
        },
      })
    ).json.id as bigint;
    const res = await kit.call("POST", "/v1/customers/messenger/unbinding", { body: { openid: "O-1" } });
    const newId: bigint = res.json.customerId;
    expect(newId).not.toBe(old);
    expect(res.json.identities).toEqual([
      { type: "messenger-unionid", value: "U-1" },
      { type: "messenger", value: "O-1" },
      { type: "messenger", value: "O-2" },
    ]);
    const events = await kit.call("GET", "/v1/customerevents", { query: { customerId: newId } });
    expect(events.json.map((e: { event: string }) => e.event).sort()).toEqual(["messenger_follow", "messenger_unbind"]);
    const left = await kit.call("GET", "/v1/customeridentities", { query: { customerIds: old } });
    expect(left.json.map((i: { identityType: string }) => i.identityType)).toEqual(["mobile"]);
  });

  it("§7.2 unbinding with unknown open id and union id: code 400005", async () => {
    const res = await kit.call("POST", "/v1/customers/messenger/unbinding", { body: { openid: "nope", unionid: "nope" } });
    expect(res.json.error.code).toBe("400005");
  });
});

describe("§4.1 statistics", () => {
  it("§4.1 customerStatistics answers {items, meta: {records, total, hasNext}}", async () => {
    const c = await kit.call("POST", "/v1/customers", { body: { name: "统计" } });
    await kit.call("POST", "/v1/deals", { body: { customerId: c.json.id, orderNo: `ST-${Date.now()}`, amountPaid: 99.5, dateOrder: new Date().toISOString().slice(0, 19) + "Z" } });
    const res = await kit.call("GET", "/v1/customerStatistics", { query: { customerId: c.json.id } });
    expect(res.json.meta).toEqual({ records: 1, total: 1, hasNext: false });
    expect(res.json.items[0]).toMatchObject({ customerId: c.json.id, orderTotal: 1, orderTotalAmount: 99.5 });
    const missing = await kit.call("GET", "/v1/customerStatistics");
    expect(missing.json.error.fieldErrors[0].fieldName).toBe("customerId");
  });
});

describe("tenant isolation and tokens", () => {
  it("a token of one tenant never sees another tenant's customers", async () => {
    const alpha = await kit.call("POST", "/v1/customers", { body: { name: "阿尔法客户" } });
    const fromBeta = await kit.call("GET", `/v1/customers/${alpha.json.id}`, { environment: "beta" });
    expect(fromBeta.status).toBe(404);
    const betaList = await kit.call("GET", "/v1/customers", { environment: "beta", query: { rows: 1000 } });
    expect(betaList.json.rows.some((r: { id: bigint }) => r.id === alpha.json.id)).toBe(false);
    expect((await kit.call("DELETE", `/v1/customers/${alpha.json.id}`, { environment: "beta" })).status).toBe(404);
  });

  it("§5.1 a /v1 call without a valid access_token is refused (401) and changes nothing", async () => {
    const res = await kit.call("POST", "/v1/customers", { body: { name: "无令牌" }, token: "at_bogus" });
    expect(res.status).toBe(401);
    const count = await kit.call("GET", "/v1/customers/count", { query: { source: "无令牌" } });
    expect(count.json).toBe(0);
  });

  it("malformed JSON gets a clear 4xx, never a 500", async () => {
    for (const path of ["/v1/customers", "/v1/customerandidentities", "/v1/customeridentities", "/v1/deals", "/v1/lists", "/v1/tags", "/v1/customerevents", "/v1/collector/batchPushEvents", "/v1/stores"]) {
      const res = await kit.call("POST", path, { rawBody: "{oops" });
      expect(res.status, path).toBeLessThan(500);
    }
  });
});
