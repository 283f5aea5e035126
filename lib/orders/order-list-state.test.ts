import { describe, expect, it } from "vitest";
import { operations } from "@/lib/platform/operations";
import { orderListInput, orderListUrlState, pageCount } from "./order-list-state";

const DEFAULT_ORDER_LIST_STATE = orderListUrlState.defaults;
const parseOrderListState = orderListUrlState.parse;
const serializeOrderListState = orderListUrlState.serialize;

describe("orders list state in the URL (§4.2 GET /v1/deals)", () => {
  it("round-trips through the URL, keeping other parameters, defaults left out", () => {
    const state = { customerId: "9007199254740993", order: "asc" as const, page: 3, rows: 50 };
    const keep = new URLSearchParams("openAppId=alpha&lang=zh-CN&page=9");
    const query = serializeOrderListState(state, keep);
    expect(query.get("openAppId")).toBe("alpha");
    expect(query.get("lang")).toBe("zh-CN");
    expect(parseOrderListState(query)).toEqual(state);
    expect(serializeOrderListState(DEFAULT_ORDER_LIST_STATE).toString()).toBe("");
  });

  it("falls back to the defaults for bad values", () => {
    expect(parseOrderListState(new URLSearchParams("customerId=12ab&sord=up&page=0&rows=7"))).toEqual(DEFAULT_ORDER_LIST_STATE);
    expect(parseOrderListState(new URLSearchParams("page=2.5")).page).toBe(1);
    expect(parseOrderListState(new URLSearchParams("customerId=%2042%20")).customerId).toBe("42");
    expect(parseOrderListState(new URLSearchParams("customerId=9223372036854775808")).customerId).toBe("");
  });

  it("sends sidx dateOrder with the chosen order, and customerId only when filtered; the table accepts it", () => {
    const all = orderListInput(DEFAULT_ORDER_LIST_STATE);
    expect(all).toEqual({ query: { rows: 20, page: 1, sidx: "dateOrder", sord: "desc" } });
    const one = orderListInput({ ...DEFAULT_ORDER_LIST_STATE, customerId: "42", order: "asc" });
    expect(one.query).toMatchObject({ customerId: "42", sord: "asc" });
    expect(operations["deals.list"].query!.safeParse(one.query).success).toBe(true);
  });

  it("counts pages from records", () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(41, 20)).toBe(3);
    expect(pageCount(undefined, 20)).toBeUndefined();
  });
});
