import { describe, expect, it } from "vitest";
import { PlatformError } from "@/lib/platform/errors";
import type { PlatformCall } from "@/lib/platform/installation-call";
import { CALL_BUDGET, computeDashboard, eventsFigure, EVENT_PAGES, ordersFigure, valuesOf } from "./compute-dashboard";

const NOW = Date.parse("2026-11-27T02:00:00Z");

/** A fake platform: answers by operation name; records every call. */
function fake(answers: Partial<Record<string, (input: Record<string, unknown>) => unknown>>) {
  const calls: { name: string; input: Record<string, unknown> }[] = [];
  const call = (async (name: string, input: Record<string, unknown>) => {
    // List reads take their parameters as `query` (the operation table's input shape).
    const given = name === "customers.count" ? input : ((input.query as Record<string, unknown>) ?? input);
    calls.push({ name, input: given });
    const answer = answers[name];
    if (!answer) throw new PlatformError({ kind: "upstream", code: "upstream", message: `no ${name}` });
    return answer(given);
  }) as unknown as PlatformCall;
  return { call, calls };
}

const event = (id: number, date: string, type = "open_page") => ({ id: String(id), event: type, date, lastUpdated: date });

describe("events per day (§4.3, §8)", () => {
  it("walks newest first by id with max 1000 and stops at a short page: complete", async () => {
    const { call, calls } = fake({
      "events.list": (input) =>
        input.idTo === undefined
          ? Array.from({ length: 1000 }, (_, i) => event(5000 - i, "2026-11-26T17:00:00Z", i % 2 ? "click_link" : "open_page"))
          : [event(3000, "2026-11-26T15:59:59Z"), event(2999, "2026-11-20T00:00:00Z", "c_coupon_claim")],
    });
    const figure = await eventsFigure(call, NOW);
    expect(calls.map((c) => c.input)).toEqual([
      { max: 1000, sidx: "id", sord: "desc" },
      { max: 1000, sidx: "id", sord: "desc", idTo: "4000" },
    ]);
    expect(figure.complete).toBe(true);
    expect(figure.fetched).toBe(1002);
    // 17:00 UTC on the 26th is the 27th in UTC+8; 15:59:59 UTC is still the 26th.
    expect(figure.counts["2026-11-27"]).toEqual({ open_page: 500, click_link: 500 });
    expect(figure.counts["2026-11-26"]).toEqual({ open_page: 1 });
    expect(figure.counts["2026-11-20"]).toEqual({ c_coupon_claim: 1 });
    expect(figure.days[0]).toBe("2026-10-27");
    expect(figure.firstDayCut).toBe(true);
  });

  it("stops after EVENT_PAGES queries and says from which day the figures are whole", async () => {
    let next = 10_000_000;
    const { call, calls } = fake({
      "events.list": () => Array.from({ length: 1000 }, () => event(next--, "2026-11-25T12:00:00Z")),
    });
    const figure = await eventsFigure(call, NOW);
    expect(calls).toHaveLength(EVENT_PAGES);
    expect(figure.complete).toBe(false);
    // Oldest recorded: the 25th 20:00 in UTC+8, so the 26th onwards is whole.
    expect(figure.completeFrom).toBe("2026-11-26");
  });

  it("stops, partial, when the platform ignores the idTo cursor", async () => {
    const { call, calls } = fake({ "events.list": () => Array.from({ length: 1000 }, (_, i) => event(9000 - i, "2026-11-26T00:00:00Z")) });
    const figure = await eventsFigure(call, NOW);
    expect(calls.length).toBeLessThanOrEqual(2);
    expect(figure.complete).toBe(false);
  });
});

describe("orders per day (§2.4, §4.2)", () => {
  const order = (no: number, dateOrder: string, amountPaid: number | string, extra: Record<string, unknown> = {}) => ({
    orderNo: `SO${no}`, dateOrder, amountPaid, currency: "¥",
    lines: [{ productId: "TEA", productName: "龙井茶礼盒", qty: 2, priceSubPaid: 0.1 }, { skuId: "MUG", productName: "马克杯", qty: 1, priceUnit: 0.2 }],
    ...extra,
  });

  it("adds amounts exactly, leaves cancelled orders out, ranks products", async () => {
    const { call } = fake({
      "deals.list": () => ({ records: 3, rows: [order(1, "2026-11-26T17:00:00Z", 0.1), order(2, "2026-11-26T18:00:00Z", "0.2"), order(3, "2026-11-26T19:00:00Z", 99, { state: "已取消" })] }),
    });
    const figure = await ordersFigure(call, NOW);
    expect(figure.complete).toBe(true);
    expect(figure.cancelled).toBe(1);
    expect(figure.days.find((d) => d.day === "2026-11-27")).toEqual({ day: "2026-11-27", orders: 2, amountPaid: "0.30" });
    expect(figure.topProducts).toEqual([
      { key: "MUG", name: "马克杯", amount: "0.40", qty: 2 },
      { key: "TEA", name: "龙井茶礼盒", amount: "0.20", qty: 4 },
    ]);
  });

  it("pages in the platform's own page size when it returns fewer rows than asked", async () => {
    const all = Array.from({ length: 250 }, (_, i) => order(i, "2026-11-26T10:00:00Z", 1));
    const { call, calls } = fake({
      "deals.list": (input) => {
        const page = input.page as number;
        return { records: 250, rows: all.slice((page - 1) * 100, page * 100) };
      },
    });
    const figure = await ordersFigure(call, NOW);
    expect(calls.map((c) => [c.input.rows, c.input.page])).toEqual([[1000, 1], [100, 2], [100, 3]]);
    expect(figure.fetched).toBe(250);
    expect(figure.days.find((d) => d.day === "2026-11-26")?.orders).toBe(250);
  });
});

describe("the whole overview", () => {
  it("stays within the call budget and marks what failed instead of showing 0", async () => {
    const { call, calls } = fake({
      "customers.count": (input) => {
        const q = input.query as Record<string, unknown>;
        if (q.source === "抖音") throw new PlatformError({ kind: "upstream", code: "upstream", message: "boom" });
        return q.stage ? 10 : q.source ? 20 : q.gender !== undefined ? 30 : q.dateCreatedFrom ? 1 : 100;
      },
      "customers.list": () => ({ rows: [{ stage: "潜在客户", source: "抖音" }, { stage: "潜在客户", source: "小程序" }, { stage: null, source: "" }] }),
      "deals.list": () => ({ records: 0, rows: [] }),
    });
    const data = await computeDashboard(call, NOW);
    expect(calls.length).toBeLessThanOrEqual(CALL_BUDGET);
    expect(data.calls).toBe(calls.length);
    expect(data.customers.total).toEqual({ ok: true, value: 100 });
    expect(data.customers.newPerDay.ok && data.customers.newPerDay.days).toHaveLength(30);
    expect(data.customers.byStage).toMatchObject({ ok: true, buckets: [{ key: "潜在客户", count: 10 }, { key: "_empty", count: 10 }], other: 80 });
    // One source count failed: that bucket says so and "other" is unknown, not guessed.
    expect(data.customers.bySource).toMatchObject({ ok: true, other: null });
    expect(data.customers.bySource.ok && data.customers.bySource.buckets.find((b) => b.key === "抖音")?.count).toBeNull();
    expect(data.customers.byGender).toMatchObject({ ok: true, buckets: [{ key: "1", count: 30 }, { key: "2", count: 30 }, { key: "0", count: 40 }] });
    expect(data.events).toMatchObject({ ok: false, code: "upstream" });
    expect(data.orders).toMatchObject({ ok: true, complete: true, fetched: 0 });
  });

  it("a failed total is unavailable, not 0", async () => {
    const { call } = fake({});
    const data = await computeDashboard(call, NOW);
    expect(data.customers.total.ok).toBe(false);
    expect(data.customers.byStage.ok).toBe(false);
    expect(data.customers.newPerDay.ok).toBe(false);
  });

  it("finds values most frequent first, without empties", () => {
    expect(valuesOf([{ s: "b" }, { s: "a" }, { s: "b" }, { s: "" }, { s: null }], "s", 8)).toEqual(["b", "a"]);
  });
});
