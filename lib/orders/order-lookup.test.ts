import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/api-error";
import { lookupOrderNo, replaceLoss } from "./order-lookup";

describe("lookupOrderNo (a new order never silently replaces one)", () => {
  it("an existing number is found, with the order to show", async () => {
    const order = { orderNo: "SO000001415", customerIdStr: "9007199254740993", amountPaid: 599, lines: [{ lineId: "1" }], state: "已付款", dateOrder: "2026-11-20T01:00:00Z" };
    const outcome = await lookupOrderNo(async (no) => ({ ...order, orderNo: no }), "SO000001415");
    expect(outcome).toEqual({ kind: "exists", order });
    expect(replaceLoss(order)).toEqual({ customerId: "9007199254740993", amountPaid: "599.00", dateOrder: "2026-11-20T01:00:00Z", lineCount: 1, state: "已付款", currency: undefined });
  });

  it("a 404 (or an empty answer) means the number is free", async () => {
    const notFound = new ApiError({ status: 404, code: "not_found", message: "order not found" });
    expect(await lookupOrderNo(async () => Promise.reject(notFound), "X")).toEqual({ kind: "free" });
    expect(await lookupOrderNo(async () => null, "X")).toEqual({ kind: "free" });
    expect(await lookupOrderNo(async () => ({ orderNo: null }), "X")).toEqual({ kind: "free" });
  });

  it("any other failure is not taken as free (nothing is created on a guess)", async () => {
    const unavailable = new ApiError({ status: 503, code: "upstream_unavailable", message: "down" });
    expect(await lookupOrderNo(async () => Promise.reject(unavailable), "X")).toEqual({ kind: "failed", error: unavailable });
    const offline = new ApiError({ status: 0, code: "network", message: "offline" });
    expect((await lookupOrderNo(async () => Promise.reject(offline), "X")).kind).toBe("failed");
  });
});
