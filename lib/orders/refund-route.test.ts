import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { json } from "@/lib/platform/testing/fake-upstream";
import { APP, fakePlatformForRoutes, SAME_ORIGIN } from "@/lib/proxy/testing/proxy-deps";
import { openSqliteTestStore, type TestStore } from "@/lib/store/testing";
import type { RefundRecord, RefundsAnswer } from "./refund-record";
import { handleRefundDelete, handleRefundPost, handleRefundsGet, type RefundRouteDeps } from "./refund-route";
import { signedIn } from "@/lib/platform/testing/fake-session";

const TOKEN = "at_refundroutetokenrefundroutetoken";
const platform = fakePlatformForRoutes(TOKEN, { retry: { baseDelayMs: 1, maxDelayMs: 2 }, timeoutMs: 2_000 });

let t: TestStore;
beforeEach(async () => {
  t = await openSqliteTestStore();
});
afterEach(() => t.cleanup());

function depsFor(tenantId = "1", userName = "Li Wei"): RefundRouteDeps {
  const { deps } = platform.makeDeps({ requireSession: signedIn({ openAppId: "alpha-app", tenantId, userId: "7", userName } as never) });
  return { ...deps, store: async () => t.store };
}

const refundBody = { orderNo: "SO000001415", state: "部分退单", refundLines: [{ lineId: "1" }], refundTotal: "99.90", reason: "broken" };
const post = (body: unknown, headers: Record<string, string> = SAME_ORIGIN) => new Request(`${APP}/api/orders/refunds`, { method: "POST", headers, body: JSON.stringify(body) });
const get = (...orderNos: string[]) => new Request(`${APP}/api/orders/refunds?${orderNos.map((n) => `orderNo=${encodeURIComponent(n)}`).join("&")}`, { headers: { "x-engage-request": "1" } });
const answerRefund = () =>
  platform.up.handle((req, res) => {
    if (req.url.pathname === "/v1/dealService/refund") {
      const body = JSON.parse(req.body) as Record<string, unknown>;
      return json(res, 200, JSON.stringify({ orderNo: body.orderNo, refundTotal: 99.9, dateRefund: "2026-11-27T02:00:00Z", reason: body.reason, refundLines: [{ lineId: "1" }] }));
    }
    if (req.url.pathname === "/v1/dealService/deleteRefund") return json(res, 200, JSON.stringify({ orderNo: "SO000001415", refundLines: [] }));
    json(res, 404, '{"error":{"code":"404","message":"not found"}}');
  });

describe("/api/orders/refunds (refunds every staff member sees)", () => {
  it("POST refunds at the platform once and records its answer; GET shows it to another session of the tenant", async () => {
    answerRefund();
    const res = await handleRefundPost(post({ requestKey: "key-00000001", refund: refundBody }), depsFor());
    expect(res.status).toBe(201);
    const { refund } = (await res.json()) as { refund: RefundRecord };
    expect(refund).toMatchObject({ orderNo: "SO000001415", status: "recorded", refundState: "部分退单", refundTotal: "99.9", reason: "broken", lineIds: ["1"], dateRefund: "2026-11-27T02:00:00Z", recordedBy: "Li Wei" });
    const sent = platform.up.requests.filter((r) => r.url.pathname === "/v1/dealService/refund");
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]!.body)).toMatchObject({ orderNo: "SO000001415", state: "部分退单", refundTotal: 99.9 });

    const other = await handleRefundsGet(get("SO000001415", "SO-none"), depsFor("1", "Zhang Min"));
    const answer = (await other.json()) as RefundsAnswer;
    expect(Object.keys(answer.refunds)).toEqual(["SO000001415"]);
    expect(answer.refunds.SO000001415![0]!.recordedBy).toBe("Li Wei");
    // Another tenant never sees it.
    const elsewhere = (await (await handleRefundsGet(get("SO000001415"), depsFor("2"))).json()) as RefundsAnswer;
    expect(elsewhere.refunds).toEqual({});
  });

  it("the same request key twice (a double click) is one refund at the platform", async () => {
    answerRefund();
    const before = platform.up.requests.length;
    const first = await handleRefundPost(post({ requestKey: "key-00000002", refund: refundBody }), depsFor());
    const second = await handleRefundPost(post({ requestKey: "key-00000002", refund: refundBody }), depsFor());
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(((await second.json()) as { repeated: boolean }).repeated).toBe(true);
    expect(platform.up.requests.length - before).toBe(1);
  });

  it("a refusal of the platform records nothing, and the same request may be sent again", async () => {
    platform.up.handle((_req, res) => json(res, 200, JSON.stringify({ error: { code: 400, message: "order SO000001415 has no line 9", fieldErrors: [{ fieldName: "refundLines", message: "no line 9" }] } })));
    const res = await handleRefundPost(post({ requestKey: "key-00000003", refund: { ...refundBody, refundLines: [{ lineId: "9" }] } }), depsFor());
    expect(res.status).toBe(422);
    expect(((await (await handleRefundsGet(get("SO000001415"), depsFor())).json()) as RefundsAnswer).refunds).toEqual({});
    answerRefund();
    expect((await handleRefundPost(post({ requestKey: "key-00000003", refund: refundBody }), depsFor())).status).toBe(201);
  });

  it("bad input is a clear 422 and nothing is sent or stored; a write without the CSRF header is refused", async () => {
    answerRefund();
    const before = platform.up.requests.length;
    const bad = await handleRefundPost(post({ requestKey: "key-00000004", refund: { ...refundBody, state: "paid" } }), depsFor());
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toContain("state");
    expect((await handleRefundPost(post({ requestKey: "x", refund: refundBody }), depsFor())).status).toBe(422);
    expect((await handleRefundPost(post({ requestKey: "key-00000005", refund: refundBody }, { "content-type": "application/json" }), depsFor())).status).toBe(403);
    expect((await handleRefundsGet(get(), depsFor())).status).toBe(422);
    expect((await handleRefundsGet(get(...Array.from({ length: 101 }, (_, i) => `SO${i}`)), depsFor())).status).toBe(422);
    expect(platform.up.requests.length).toBe(before);
  });

  it("NUL in an order number or a reason is a 400 naming the field: nothing sent or stored (PostgreSQL cannot store it)", async () => {
    answerRefund();
    const before = platform.up.requests.length;
    for (const [refund, field] of [
      [{ ...refundBody, reason: "bro\u0000ken" }, "refund.reason"],
      [{ ...refundBody, orderNo: "SO\u0000" }, "refund.orderNo"],
    ] as const) {
      const res = await handleRefundPost(post({ requestKey: "key-00000nul", refund }), depsFor());
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatchObject({ code: "invalid_text", fieldErrors: [{ field }] });
    }
    for (const [handler, method] of [[handleRefundsGet, "GET"], [handleRefundDelete, "DELETE"]] as const) {
      const res = await handler(new Request(`${APP}/api/orders/refunds?orderNo=%00`, { method, headers: SAME_ORIGIN }), depsFor());
      expect(res.status, method).toBe(400);
      expect((await res.json()).error).toMatchObject({ code: "invalid_text", fieldErrors: [{ field: "orderNo" }] });
    }
    expect(platform.up.requests.length).toBe(before);
    expect(await t.store.db.selectFrom("order_refunds").selectAll().execute()).toEqual([]);
  });

  it("DELETE asks the platform's deleteRefund and marks the order's records deleted, by whom", async () => {
    answerRefund();
    await handleRefundPost(post({ requestKey: "key-00000006", refund: refundBody }), depsFor());
    const res = await handleRefundDelete(new Request(`${APP}/api/orders/refunds?orderNo=SO000001415`, { method: "DELETE", headers: SAME_ORIGIN }), depsFor("1", "Zhang Min"));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { markedDeleted: number }).markedDeleted).toBe(1);
    const [record] = ((await (await handleRefundsGet(get("SO000001415"), depsFor())).json()) as RefundsAnswer).refunds.SO000001415!;
    expect(record).toMatchObject({ status: "deleted", deletedBy: "Zhang Min" });
  });
});
