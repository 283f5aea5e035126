import { describe, expect, it } from "vitest";
import { formatUtc as iso } from "../clock";
import { startApiKitForFile } from "./testkit";

const kit = await startApiKitForFile();
const customerId = await kit.createCustomer("订单客户");
let n = 0;
const orderNo = () => `T${Date.now()}-${++n}`;
const lines = [
  { lineId: "1", productName: "龙井茶礼盒", qty: 1, priceUnit: 168, priceSubTotal: 168, skuId: "SKU-1", counponCode: "L-CPN", lAttr1: "礼盒装" },
  { lineId: "2", productName: "马克杯", qty: 2, priceUnit: 59, priceSubTotal: 118, skuId: "SKU-2" },
];
const createOrder = (no: string, extra: Record<string, unknown> = {}) =>
  kit.call("POST", "/v1/deals", { body: { customerId, orderNo: no, amountPaid: 276, amountTotal: 286, counponCode: "WELCOME10", dateOrder: iso(Date.now() - 3_600_000), lines, ...extra } });

describe("§4.2 orders", () => {
  it("§4.2 create answers the order with its lines; counponCode in the request is couponCode on the order", async () => {
    const no = orderNo();
    const res = await createOrder(no);
    expect(res.json).toMatchObject({ orderNo: no, customerId, amountPaid: 276, couponCode: "WELCOME10" });
    expect(res.json.lines).toHaveLength(2);
    expect(res.json.lines[0]).toMatchObject({ lineId: "1", counponCode: "L-CPN", orderNo: no });
    expect(res.json.state).toBeUndefined();
  });

  it("§4.2 required fields orderNo, amountPaid, dateOrder and line fields lineId, productName, qty", async () => {
    const res = await kit.call("POST", "/v1/deals", { body: { customerId, lines: [{ lineId: "1" }] } });
    const fields = res.json.error.fieldErrors.map((f: { fieldName: string }) => f.fieldName);
    expect(fields).toEqual(expect.arrayContaining(["orderNo", "amountPaid", "dateOrder", "lines[0].productName", "lines[0].qty"]));
  });

  it("§4.2 customerId or customerIdentities must be supplied; identities resolve the customer", async () => {
    const none = await kit.call("POST", "/v1/deals", { body: { orderNo: orderNo(), amountPaid: 1, dateOrder: iso(Date.now()) } });
    expect(none.json.error.fieldErrors[0].fieldName).toBe("customerId");
    await kit.call("POST", "/v1/customeridentities", { body: { customerId, identityType: "crm-o", identityValue: "O-1" } });
    const byIdentity = await kit.call("POST", "/v1/deals", {
      body: { orderNo: orderNo(), amountPaid: 1, dateOrder: iso(Date.now()), customerIdentities: [{ identityType: "crm-o", identityValue: "O-1" }] },
    });
    expect(byIdentity.json.customerId).toBe(customerId);
  });

  it("§4.2 an existing orderNo is replaced by the submitted order; old lines are discarded", async () => {
    const no = orderNo();
    const first = await createOrder(no);
    const second = await kit.call("POST", "/v1/deals", { body: { customerId, orderNo: no, amountPaid: 50, dateOrder: iso(Date.now()), lines: [{ lineId: "9", productName: "新品", qty: 1 }] } });
    expect(second.json.id).toBe(first.json.id);
    expect(second.json.lines.map((l: { lineId: string }) => l.lineId)).toEqual(["9"]);
    expect(second.json.couponCode).toBeNull();
    expect((await kit.call("GET", `/v1/deals/${no}`)).json.amountPaid).toBe(50);
  });

  it("§4.2 / §8 order reads return only orders of the last month", async () => {
    const old = orderNo();
    await createOrder(old, { dateOrder: iso(Date.now() - 45 * 86_400_000) });
    expect((await kit.call("GET", `/v1/deals/${old}`)).status).toBe(404);
    expect((await kit.call("GET", "/v1/dealService/getDealByOrderNo", { query: { orderNo: old } })).status).toBe(404);
    const list = await kit.call("GET", "/v1/deals", { query: { customerId, rows: 1000 } });
    expect(list.json.rows.some((r: { orderNo: string }) => r.orderNo === old)).toBe(false);
  });

  it("§4.2 GET /v1/deals answers {page, records, rows}, sidx default dateOrder ascending", async () => {
    const c = (await kit.call("POST", "/v1/customers", { body: { name: "排序" } })).json.id;
    await kit.call("POST", "/v1/deals", { body: { customerId: c, orderNo: orderNo(), amountPaid: 1, dateOrder: iso(Date.now() - 2 * 86_400_000) } });
    await kit.call("POST", "/v1/deals", { body: { customerId: c, orderNo: orderNo(), amountPaid: 2, dateOrder: iso(Date.now() - 5 * 86_400_000) } });
    const res = await kit.call("GET", "/v1/deals", { query: { customerId: c } });
    expect(Object.keys(res.json).sort()).toEqual(["page", "records", "rows"]);
    expect(res.json.records).toBe(2);
    expect(res.json.rows.map((r: { amountPaid: number }) => r.amountPaid)).toEqual([2, 1]);
  });

  it("§4.2 PUT changes order fields and answers the full order", async () => {
    const no = orderNo();
    await createOrder(no);
    const res = await kit.call("PUT", `/v1/deals/${no}`, { body: { remark: "加急", amountPaid: 270 } });
    expect(res.json).toMatchObject({ orderNo: no, remark: "加急", amountPaid: 270 });
    expect(res.json.lines).toHaveLength(2);
  });

  it("§3 cancel sets state 已取消; cancelDate defaults to the order's last update time", async () => {
    const no = orderNo();
    const created = await createOrder(no);
    const res = await kit.call("POST", "/v1/dealService/cancel", { body: { orderNo: no } });
    expect(res.json.state).toBe("已取消");
    expect(res.json.cancelDate).toBe(created.json.lastUpdated);
    const dated = orderNo();
    await createOrder(dated);
    expect((await kit.call("POST", "/v1/dealService/cancel", { body: { orderNo: dated, cancelDate: "2026-01-02T03:04:05Z" } })).json.cancelDate).toBe("2026-01-02T03:04:05Z");
  });

  it("§3 refund needs state 完全退单 or 部分退单 and answers the refund record", async () => {
    const no = orderNo();
    await createOrder(no);
    const bad = await kit.call("POST", "/v1/dealService/refund", { body: { orderNo: no, state: "refunded" } });
    expect(bad.json.error.fieldErrors[0].fieldName).toBe("state");
    const res = await kit.call("POST", "/v1/dealService/refund", { body: { orderNo: no, state: "部分退单", refundLines: [{ lineId: "2" }], refundTotal: 59, reason: "破损" } });
    expect(res.json).toMatchObject({ orderNo: no, refundTotal: 59, reason: "破损", customerId });
    expect(res.json.refundLines).toHaveLength(1);
    expect(res.json.refundLines[0]).toMatchObject({ lineId: "2", skuId: "SKU-2", orderNo: no, customerId });
    expect(typeof res.json.refundLines[0].refundId).toBe("bigint");
  });

  it("§3 deleteRefund removes the refund and answers it with an empty refundLines", async () => {
    const no = orderNo();
    await createOrder(no);
    await kit.call("POST", "/v1/dealService/refund", { body: { orderNo: no, state: "完全退单" } });
    const res = await kit.call("POST", "/v1/dealService/deleteRefund", { body: { orderNo: no } });
    expect(res.json.orderNo).toBe(no);
    expect(res.json.refundLines).toEqual([]);
    expect((await kit.call("POST", "/v1/dealService/deleteRefund", { body: { orderNo: no } })).status).toBe(404);
  });

  it("§4.2 getDealByOrderNo answers state 已付款, customerIdStr and full lines with custom line fields", async () => {
    const no = orderNo();
    await createOrder(no);
    const res = await kit.call("GET", "/v1/dealService/getDealByOrderNo", { query: { orderNo: no } });
    expect(res.json).toMatchObject({ state: "已付款", customerIdStr: String(customerId), couponCode: "WELCOME10" });
    expect(res.json.lines[0]).toMatchObject({ lAttr1: "礼盒装", lNum1: null, lDate4: null });
  });

  it("§4.2 DELETE removes the order", async () => {
    const no = orderNo();
    await createOrder(no);
    expect((await kit.call("DELETE", `/v1/deals/${no}`)).status).toBe(204);
    expect((await kit.call("GET", `/v1/deals/${no}`)).status).toBe(404);
  });

  it("publishes order changes (created, cancelled, refunded, deleted)", async () => {
    kit.changes.length = 0;
    const no = orderNo();
    await createOrder(no);
    await kit.call("POST", "/v1/dealService/cancel", { body: { orderNo: no } });
    await kit.call("POST", "/v1/dealService/refund", { body: { orderNo: no, state: "完全退单" } });
    await kit.call("DELETE", `/v1/deals/${no}`);
    const actions = kit.changes.filter((c) => c.resource === "order").map((c) => c.action);
    expect(actions).toEqual(["created", "cancelled", "refunded", "deleted"]);
  });

  it("orders of one tenant are invisible to another", async () => {
    const no = orderNo();
    await createOrder(no);
    expect((await kit.call("GET", `/v1/deals/${no}`, { environment: "beta" })).status).toBe(404);
  });
});

describe("§2.4 money and order numbers", () => {
  it("a partial refund without refundTotal sums the refunded lines exactly (0.1 + 0.2 = 0.3)", async () => {
    const no = orderNo();
    await kit.call("POST", "/v1/deals", {
      body: { customerId, orderNo: no, amountPaid: 0.3, dateOrder: iso(Date.now()), lines: [{ lineId: "a", productName: "A", qty: 1, priceSubTotal: 0.1 }, { lineId: "b", productName: "B", qty: 1, priceSubTotal: 0.2 }] },
    });
    const res = await kit.call("POST", "/v1/dealService/refund", { body: { orderNo: no, state: "部分退单", refundLines: [{ lineId: "a" }, { lineId: "b" }] } });
    expect(res.json.refundTotal).toBe(0.3);
  });

  it("sumDecimals is exact at the widest scale", async () => {
    const { sumDecimals } = await import("./deals");
    expect(sumDecimals([0.1, 0.2])).toBe(0.3);
    expect(sumDecimals([19.99, 19.99, 19.99])).toBe(59.97);
    expect(sumDecimals(["1.005", 2, -0.005])).toBe(3);
    expect(sumDecimals([])).toBe(0);
  });

  it("an order number with / # ? % space and CJK is one path segment for read, update and delete", async () => {
    const no = `A/B #1?x=%&订单 ${++n}`;
    await createOrder(no);
    const path = `/v1/deals/${encodeURIComponent(no)}`;
    expect((await kit.call("GET", path)).json.orderNo).toBe(no);
    expect((await kit.call("PUT", path, { body: { remark: "ok" } })).json).toMatchObject({ orderNo: no, remark: "ok" });
    expect((await kit.call("GET", "/v1/dealService/getDealByOrderNo", { query: { orderNo: no } })).json.orderNo).toBe(no);
    expect((await kit.call("DELETE", path)).status).toBe(204);
    expect((await kit.call("GET", path)).status).toBe(404);
  });
});
