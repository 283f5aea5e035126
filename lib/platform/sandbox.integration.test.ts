import { startTestSandbox } from "./testing/sandbox";
import { sandboxToken } from "./testing/sandbox-control";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callPlatform, type CallOptions } from "./client";
import { operationUrl } from "./routes";
import { PlatformError } from "./errors";
import { operationList, operations, type OperationName } from "./operations";
import { rejection } from "./testing/rejection";

/**
 * Every operation of the table through the typed client against the running Platform Sandbox
 * (in-process, free ports, in-memory database). Ids are above 2^53 there, so every call also
 * checks that ids survive as strings.
 */

let alpha: CallOptions;
let nowUtc: string;
const exercised = new Set<OperationName>();
const U = Date.now().toString(36);

type Call = typeof callPlatform;
/** callPlatform, noting which operation was exercised. */
const call = ((op, input, options) => {
  exercised.add(op.name as OperationName);
  return callPlatform(op, input, options);
}) as Call;


const isBigId = (value: unknown) => typeof value === "string" && /^\d+$/.test(value) && BigInt(value) > 2n ** 53n;

const { sandbox, control } = await startTestSandbox();

beforeAll(async () => {
  alpha = { apiUrl: sandbox.urls.alpha!, accessToken: await sandboxToken(control), retry: { baseDelayMs: 5, maxDelayMs: 20 } };
  const clock = await control<{ now: string }>("/clock");
  nowUtc = clock.now.replace(/\.\d{3}Z$/, "Z");
});
afterAll(() => sandbox.close());

describe("§4.1 customers and identities through the client", () => {
  it("creates, reads, updates, lists, counts and deletes a customer with a 64-bit id", async () => {
    const mobile = `138${String(Date.now()).slice(-8)}`;
    const created = await call(operations["customers.upsert"], { body: { name: "张三", mobile, email: `zs-${U}@mail.test` } }, alpha);
    expect(isBigId(created.id)).toBe(true);
    const read = await call(operations["customers.get"], { params: { id: created.id } }, alpha);
    expect(read).toMatchObject({ id: created.id, name: "张三", mobile });
    const before = await call(operations["customers.update"], { params: { id: created.id }, body: { remark: "vip" } }, alpha);
    expect(before.id).toBe(created.id);
    expect((await call(operations["customers.get"], { params: { id: created.id } }, alpha)).remark).toBe("vip");
    const list = await call(operations["customers.list"], { query: { idList: created.id, rows: 5 } }, alpha);
    expect(list.rows.map((c) => c.id)).toEqual([created.id]);
    const count = await call(operations["customers.count"], { query: { mobile } }, alpha);
    expect(count).toBe(1);
    await call(operations["customers.delete"], { params: { id: created.id } }, alpha);
    expect((await rejection(call(operations["customers.get"], { params: { id: created.id } }, alpha))).kind).toBe("not_found");
  });

  it("creates with identities, adds and queries identities, statistics, md5 lookup", async () => {
    const email = `ci-${U}@mail.test`;
    const customer = await call(
      operations["customers.createWithIdentities"],
      { query: { mergeByEmail: true }, body: { customer: { name: "李四", email }, customerIdentities: [{ identityType: "email", identityValue: email }] } },
      alpha,
    );
    expect(isBigId(customer.id)).toBe(true);
    const added = await call(operations["identities.add"], { body: { customerId: customer.id, identityType: "crm-account", identityValue: `crm-${U}` } }, alpha);
    expect(added).toMatchObject({ customerId: customer.id, identityType: "crm-account" });
    const identities = await call(operations["identities.list"], { query: { customerIds: customer.id } }, alpha);
    expect(identities.map((i) => i.identityType).sort()).toEqual(["crm-account", "email"]);
    const stats = await call(operations["customers.statistics"], { query: { customerId: customer.id } }, alpha);
    expect(Array.isArray(stats.items)).toBe(true);
    const { createHash } = await import("node:crypto");
    const md5value = createHash("md5").update(email).digest("hex");
    const md5 = await call(operations["identities.getByMd5"], { query: { md5type: "common", md5value } }, alpha);
    expect(md5.customerId).toBe(customer.id);
    const missing = await rejection(call(operations["identities.getByMd5"], { query: { md5type: "common", md5value: "0".repeat(32) } }, alpha));
    expect(missing).toMatchObject({ kind: "not_found", code: "409200" });
  });

  it("merges by identities and by id; the source is deleted (§4.1, §3)", async () => {
    const make = (v: string) =>
      call(operations["customers.createWithIdentities"], { body: { customer: { name: v }, customerIdentities: [{ identityType: "crm-account", identityValue: v }] } }, alpha);
    const [a, b, c] = [await make(`m1-${U}`), await make(`m2-${U}`), await make(`m3-${U}`)];
    const merged = await call(
      operations["customers.mergeByIdentities"],
      { body: { from: { identityType: "crm-account", identityValue: `m1-${U}` }, to: { identityType: "crm-account", identityValue: `m2-${U}` } } },
      alpha,
    );
    expect(merged.data.customerId).toBe(b.id);
    expect((await rejection(call(operations["customers.get"], { params: { id: a.id } }, alpha))).kind).toBe("not_found");
    const byId = await call(operations["customers.mergeById"], { query: { fromId: c.id, toId: b.id } }, alpha);
    expect(byId.data.customerId).toBe(b.id);
  });

  it("unbinds a messenger identity, and reports 400005 for unknown ids", async () => {
    await call(
      operations["customers.createWithIdentities"],
      {
        body: {
          customer: { name: "王五" },
          customerIdentities: [
            { identityType: "messenger", identityValue: `open-${U}` },
            { identityType: "messenger-unionid", identityValue: `union-${U}` },
          ],
        },
      },
      alpha,
    );
    const unbound = await call(operations["customers.unbindMessenger"], { body: { unionid: `union-${U}` } }, alpha);
    expect(isBigId(unbound.customerId)).toBe(true);
    const unknown = await rejection(call(operations["customers.unbindMessenger"], { body: { openid: `nobody-${U}` } }, alpha));
    expect(unknown).toMatchObject({ kind: "not_found", code: "400005" });
  });
});

describe("§4.2 orders through the client", () => {
  it("creates, reads, lists, updates, refunds, cancels and deletes an order", async () => {
    const customer = await call(operations["customers.upsert"], { body: { name: "订单客户", mobile: `137${String(Date.now()).slice(-8)}` } }, alpha);
    const orderNo = `SO-${U}`;
    const created = await call(
      operations["deals.create"],
      {
        body: {
          customerId: customer.id,
          orderNo,
          amountTotal: 120,
          amountPaid: 100,
          dateOrder: nowUtc,
          lines: [
            { lineId: "L1", productName: "茶叶", qty: 2, priceUnit: 50 },
            { lineId: "L2", productName: "茶杯", qty: 1, priceUnit: 20 },
          ],
        },
      },
      alpha,
    );
    expect(created).toMatchObject({ orderNo, customerId: customer.id });
    expect((await call(operations["deals.get"], { params: { orderNo } }, alpha)).lines).toHaveLength(2);
    const page = await call(operations["deals.list"], { query: { customerId: customer.id } }, alpha);
    expect(page.rows.map((o) => o.orderNo)).toContain(orderNo);
    const updated = await call(operations["deals.update"], { params: { orderNo }, body: { remark: "gift" } }, alpha);
    expect(updated.remark).toBe("gift");
    const detail = await call(operations["deals.getByOrderNo"], { query: { orderNo } }, alpha);
    expect(detail.customerIdStr).toBe(customer.id);
    const refund = await call(operations["deals.refund"], { body: { orderNo, state: "部分退单", refundTotal: 20, refundLines: [{ lineId: "L2" }], reason: "broken" } }, alpha);
    expect(refund.orderNo).toBe(orderNo);
    const removed = await call(operations["deals.deleteRefund"], { body: { orderNo } }, alpha);
    expect(removed.refundLines ?? []).toEqual([]);
    const cancelled = await call(operations["deals.cancel"], { body: { orderNo } }, alpha);
    expect(cancelled.state).toBe("已取消");
    await call(operations["deals.delete"], { params: { orderNo } }, alpha);
    expect((await rejection(call(operations["deals.get"], { params: { orderNo } }, alpha))).kind).toBe("not_found");
  });
});

describe("§4.3 events through the client", () => {
  it("creates, collects, batch-collects, reads and queries events", async () => {
    const email = `ev-${U}@mail.test`;
    const customer = await call(
      operations["customers.createWithIdentities"],
      { body: { customer: { name: "事件", email }, customerIdentities: [{ identityType: "email", identityValue: email }] } },
      alpha,
    );
    const event = await call(operations["events.create"], { body: { customerId: customer.id, event: "c_view", date: nowUtc, targetName: "首页" } }, alpha);
    expect(isBigId(event.id)).toBe(true);
    expect(event.customerId).toBe(customer.id);
    expect((await call(operations["events.push"], { body: { identityType: "email", identityValue: email, event: "c_click", date: nowUtc } }, alpha)).success).toBe(true);
    const batch = await call(
      operations["events.batchPush"],
      { body: { events: [{ identityType: "email", identityValue: email, event: "c_a", date: nowUtc }], commonProps: { source: "batch" } } },
      alpha,
    );
    expect(batch.success).toBe(true);
    expect((await call(operations["events.get"], { params: { id: event.id } }, alpha)).id).toBe(event.id);
    const events = await call(operations["events.list"], { query: { customerId: customer.id, max: 100 } }, alpha);
    expect(events.map((e) => e.event).sort()).toEqual(["c_a", "c_click", "c_view"]);
  });
});

describe("§4.4 lists through the client", () => {
  it("creates a list, manages members, counts, and deletes", async () => {
    const list = await call(operations["lists.create"], { body: { name: `名单-${U}` } }, alpha);
    expect(isBigId(list.id)).toBe(true);
    const lists = await call(operations["lists.list"], { query: { rows: 100, sord: "desc" } }, alpha);
    expect(lists.rows.map((l) => l.id)).toContain(list.id);
    const mk = async (n: number) => (await call(operations["customers.upsert"], { body: { name: `m${n}`, email: `lm${n}-${U}@mail.test` } }, alpha)).id;
    const [c1, c2, c3] = [await mk(1), await mk(2), await mk(3)];
    const member = await call(operations["listMembers.add"], { body: { data: { customerId: c1, listId: list.id } } }, alpha);
    expect(member.data).toMatchObject({ customerId: c1, listId: list.id });
    const batch = await call(operations["listMembers.addBatch"], { body: { items: [{ customerId: c2, listId: list.id }, { customerId: c3, listId: list.id }] } }, alpha);
    expect(batch.items).toHaveLength(2);
    const members = await call(operations["listMembers.list"], { query: { listId: list.id, rows: 10 } }, alpha);
    expect(members.items.map((m) => m.customerId).sort()).toEqual([c1, c2, c3].sort());
    expect(await call(operations["listMembers.count"], { query: { listId: list.id } }, alpha)).toBe(3);
    await call(operations["listMembers.removeFromList"], { query: { customerIds: [c2, c3].join(","), listId: list.id } }, alpha);
    await call(operations["listMembers.delete"], { params: { id: member.data.id! } }, alpha);
    expect(await call(operations["listMembers.count"], { query: { listId: list.id } }, alpha)).toBe(0);
    await call(operations["lists.delete"], { params: { id: list.id } }, alpha);
  });
});

describe("§4.5 tags through the client", () => {
  it("manages dimensions, tags, customer tags, merges and external tags", async () => {
    const dim = await call(operations["tagDimensions.create"], { body: { name: "偏好", dimensionKey: `pref_${U}` } }, alpha);
    expect(dim.dimensionKey).toBe(`pref_${U}`);
    const dims = await call(operations["tagDimensions.list"], { query: { max: 100 } }, alpha);
    expect(dims.map((d) => d.dimensionKey)).toContain(`pref_${U}`);
    const t1 = await call(operations["tags.create"], { body: { name: `茶-${U}`.slice(0, 32), dimension: `pref_${U}` } }, alpha);
    const t2 = await call(operations["tags.create"], { body: { name: `咖啡-${U}`.slice(0, 32), dimension: `pref_${U}` } }, alpha);
    const renamed = await call(operations["tags.update"], { params: { id: t1.id }, body: { name: `绿茶-${U}`.slice(0, 32) } }, alpha);
    expect(renamed.name).toBe(`绿茶-${U}`.slice(0, 32));
    const tags = await call(operations["tags.list"], { query: { rows: 1000 } }, alpha);
    expect(tags.rows.map((t) => t.id)).toEqual(expect.arrayContaining([t1.id, t2.id]));
    const customer = await call(operations["customers.upsert"], { body: { name: "标签", email: `tag-${U}@mail.test` } }, alpha);
    const added = await call(operations["customerTags.add"], { body: { customerId: customer.id, tags: [{ name: renamed.name! }] } }, alpha);
    expect(added).toEqual([renamed.name]);
    const byCustomer = await call(operations["customerTags.get"], { query: { customerId: customer.id } }, alpha);
    expect(byCustomer[customer.id]).toContain(renamed.name);
    expect((await call(operations["tags.merge"], { params: { fromId: t1.id, toId: t2.id } }, alpha)).success).toBe(true);
    expect((await call(operations["customerTags.get"], { query: { customerId: customer.id } }, alpha))[customer.id]).toContain(t2.name);
    expect(await call(operations["customerTags.remove"], { body: { customerId: customer.id, tags: [t2.name!] } }, alpha)).toEqual([t2.name]);
    await call(operations["tags.delete"], { params: { id: t2.id } }, alpha);
    const external = await call(operations["tags.importExternal"], { body: { tags: [`ext-${U}`] } }, alpha);
    expect(external).toMatchObject({ code: "SUCCESS", success: [`ext-${U}`] });
  });
});

describe("§4.6 media and §4.8 shops through the client", () => {
  it("imports a media file from object storage", async () => {
    const file = `oss://media/${U}.csv`;
    const res = await fetch(`${sandbox.urls.alpha}/__sandbox/storage`, {
      method: "PUT",
      body: JSON.stringify({ environment: "alpha", path: file, content: `${nowUtc.slice(0, 10)},email,m-${U}@mail.test,banner,3\n` }),
    });
    expect(res.status).toBe(200);
    const out = await call(operations["media.importData"], { body: { fileList: [{ file, eventType: "event.mediaView" }] } }, alpha);
    expect(out.taskList).toHaveLength(1);
  });

  it("creates, updates, groups, reads and deletes a shop", async () => {
    const baseInfo = {
      sid: `s-${U}`, telephone: "021-12345678", business_name: "茶馆", branch_name: "静安店", province: "上海市", city: "上海市", district: "静安区",
      address: "南京西路 1 号", categories: ["美食,茶馆"], longitude: 121.45, latitude: 31.23,
    };
    const created = await call(operations["stores.create"], { body: { shopInfoAll: JSON.stringify({ business: { base_info: baseInfo } }) } }, alpha);
    const shopId = created.shop!.id!;
    expect(isBigId(shopId)).toBe(true);
    const updated = await call(operations["stores.update"], { params: { id: shopId }, body: { shopInfoAll: JSON.stringify({ business: { base_info: { ...baseInfo, branch_name: "徐汇店" } } }) } }, alpha);
    expect(updated.shop?.branchName ?? updated.shop?.shopName).toBeTruthy();
    const group = await call(operations["storeGroups.create"], { body: { name: "华东", remark: "east", shopList: shopId } }, alpha);
    expect(group.shopGroup?.success).toEqual([shopId]);
    const groupId = group.shopGroup!.shopGroup!.id!;
    const members = await call(operations["storeGroups.get"], { params: { groupId } }, alpha);
    expect(members.shopGroupList?.map((s) => s.id)).toEqual([shopId]);
    const deleted = await call(operations["stores.delete"], { params: { id: shopId } }, alpha);
    expect(deleted.error?.message).toBe("success");
  });
});

describe("§4.7 authorization operations", () => {
  it("builds the authorize redirect URL from the table", () => {
    const url = operationUrl(
      operations["auth.authorize"],
      { query: { client_id: "engage-console", redirect_uri: "http://localhost:3000/api/auth/callback", response_type: "code", state: "install" } },
      sandbox.urls.alpha!,
    );
    expect(url).toBe(`${sandbox.urls.alpha}/oauth2/authorize?client_id=engage-console&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fapi%2Fauth%2Fcallback&response_type=code&state=install`);
    exercised.add("auth.authorize");
  });

  it("reads the current user with a bearer token (§4.7)", async () => {
    const me = await call(operations["users.current"], {}, alpha);
    expect(me.tenantId).toBe(String(sandbox.ctx.config.environments.find((e) => e.name === "alpha")!.tenant.id));
    const bad = await rejection(call(operations["users.current"], {}, { ...alpha, accessToken: "at_not_a_token" }));
    expect(bad.kind).toBe("auth");
  });

  it("exchanges an authorization code and refreshes (form-urlencoded, §4.7)", async () => {
    const credentials = { clientId: sandbox.ctx.config.app.clientId, clientSecret: sandbox.ctx.config.app.clientSecret };
    const { callbackUrl } = await control<{ callbackUrl: string }>("/authorize", { environment: "alpha" });
    const callback = new URL(callbackUrl);
    const tokens = await call(
      operations["auth.exchangeCode"],
      { body: { grant_type: "authorization_code", code: callback.searchParams.get("code")!, redirect_uri: `${callback.origin}${callback.pathname}` } },
      { ...alpha, authUrl: sandbox.urls.alpha, clientCredentials: credentials },
    );
    expect(tokens).toMatchObject({ token_type: "authorization_code", expires_in: 7200 });
    const refreshed = await call(
      operations["auth.refresh"],
      { body: { grant_type: "refresh_token", refresh_token: tokens.refresh_token! } },
      { ...alpha, authUrl: sandbox.urls.alpha, clientCredentials: credentials },
    );
    expect(refreshed.access_token).toBeTruthy();
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    const reused = await rejection(
      call(
        operations["auth.exchangeCode"],
        { body: { grant_type: "authorization_code", code: callback.searchParams.get("code")!, redirect_uri: `${callback.origin}${callback.pathname}` } },
        { ...alpha, authUrl: sandbox.urls.alpha, clientCredentials: credentials },
      ),
    );
    expect(reused.kind).toBe("auth");
  });

  it("looks up the environment with a one-time cloudinfo token (§4.7, §5.4)", async () => {
    const { getOpenAppIdToken } = await control<{ getOpenAppIdToken: string }>("/cloudtokens", { environment: "alpha" });
    const extension = { ...alpha, extensionUrl: `${sandbox.urls.alpha}/extension` };
    const info = await call(operations["extension.cloudinfo"], { query: { token: getOpenAppIdToken } }, extension);
    expect(info).toMatchObject({ authDomain: sandbox.urls.alpha, apiDomain: sandbox.urls.alpha });
    expect(info.openAppId).toBeTruthy();
    // One-time (§5.4.1): the second exchange fails, and the client does not retry it.
    expect(await rejection(call(operations["extension.cloudinfo"], { query: { token: getOpenAppIdToken } }, extension))).toBeInstanceOf(PlatformError);
  });
});

describe("coverage", () => {
  it("exercised every operation of the table", () => {
    const missing = operationList
      .map((op) => op.name)
      .filter((name) => !exercised.has(name as OperationName));
    expect(missing).toEqual([]);
  });
});
