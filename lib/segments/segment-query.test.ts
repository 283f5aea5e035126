import { describe, expect, it } from "vitest";
import { describeEachDialect, warnIfPostgresSkipped } from "@/lib/store/testing";
import { setCustomerTags, upsertCustomers } from "@/lib/search/index-store";
import { ensureTenant } from "@/lib/search/tenant-state";
import type { IndexDocument } from "@/lib/search/normalize";
import { definitionSchema, type SegmentDefinition } from "./segment-conditions";
import { countSegment, previewSegment, segmentIds, segmentIdsAfter } from "./segment-query";

warnIfPostgresSkipped("segments");

const NOW = Date.UTC(2026, 5, 15, 4, 0, 0); // 2026-06-15 12:00 UTC+8
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19) + "Z";

const PEOPLE: IndexDocument[] = [
  { id: "101", name: "李娜", displayName: "李娜", stage: "意向客户", source: "小程序", gender: 2, birthday: "1990-04-23", attrs: { attr1: "金卡", attr7: 5 }, dateCreated: "2026-06-01T10:00:00Z", lastUpdated: iso(NOW - DAY), identities: [{ type: "wechat", value: "o1" }] },
  { id: "102", name: "Tao", displayName: "Tao", stage: "意向客户", source: "web", gender: 1, birthday: "1985-04-02", dateCreated: "2026-05-31T15:59:59Z", lastUpdated: iso(NOW - 40 * DAY), identities: [{ type: "mobile", value: "139" }] },
  { id: "103", name: "Wang", displayName: "Wang", stage: "customer", source: "小程序", gender: null, attrs: { attr1: "银卡" }, dateCreated: "2026-05-31T16:00:00Z" },
  { id: "9007199254740993", name: "Big", displayName: "Big", stage: null, source: "小程序", gender: 0, dateCreated: "2020-01-01T00:00:00Z" },
];

const def = (match: "all" | "any", conditions: unknown[]): SegmentDefinition => definitionSchema.parse({ match, conditions });

describeEachDialect("segment query", (t) => {
  async function tenant() {
    const state = await ensureTenant(t.store, { openAppId: "app-a", tenantId: "1001" });
    await upsertCustomers(t.store, state.tenant, PEOPLE);
    await setCustomerTags(t.store, state.tenant, new Map([["101", ["VIP", "new"]], ["102", ["VIP"]], ["103", ["new"]]]));
    await t.store.db
      .insertInto("customer_facts")
      .values([
        { tenant: state.tenant, customer_id: "101", order_count: 3, order_amount: 250.5, last_order_at: new Date(NOW - 10 * DAY).toISOString().slice(0, 19), activity_score: 40, refreshed_at: NOW },
        { tenant: state.tenant, customer_id: "102", order_count: 1, order_amount: 20, last_order_at: new Date(NOW - 45 * DAY).toISOString().slice(0, 19), activity_score: 5, refreshed_at: NOW },
      ])
      .execute();
    // Another tenant with the same ids: never counted.
    const other = await ensureTenant(t.store, { openAppId: "app-a", tenantId: "2002" });
    await upsertCustomers(t.store, other.tenant, PEOPLE);
    return state.tenant;
  }
  const ids = async (tenantNo: number, definition: SegmentDefinition) => (await segmentIds({ store: t.store, tenant: tenantNo, definition, now: NOW })).sort();

  it("counts the issue's audience: stage, tag, two or more orders, last order within 30 days, source", async () => {
    const n = await tenant();
    const definition = def("all", [
      { field: "stage", op: "is", values: ["意向客户"] },
      { field: "tags", op: "any", values: ["VIP"] },
      { field: "orderCount", op: "gte", value: 2 },
      { field: "daysSinceLastOrder", op: "lte", value: 30 },
      { field: "source", op: "is", values: ["小程序"] },
    ]);
    expect(await countSegment({ store: t.store, tenant: n, definition, now: NOW })).toBe(1);
    expect(await ids(n, definition)).toEqual(["101"]);
  });

  it("tags any / all / none", async () => {
    const n = await tenant();
    expect(await ids(n, def("all", [{ field: "tags", op: "any", values: ["VIP", "new"] }]))).toEqual(["101", "102", "103"]);
    expect(await ids(n, def("all", [{ field: "tags", op: "all", values: ["VIP", "new"] }]))).toEqual(["101"]);
    expect(await ids(n, def("all", [{ field: "tags", op: "none", values: ["VIP"] }]))).toEqual(["103", "9007199254740993"]);
  });

  it("stage and source is / is not / empty; gender 0 is also empty", async () => {
    const n = await tenant();
    expect(await ids(n, def("all", [{ field: "stage", op: "isNot", values: ["意向客户"] }]))).toEqual(["103", "9007199254740993"]);
    expect(await ids(n, def("all", [{ field: "stage", op: "empty" }]))).toEqual(["9007199254740993"]);
    expect(await ids(n, def("all", [{ field: "gender", op: "is", values: [0] }]))).toEqual(["103", "9007199254740993"]);
    expect(await ids(n, def("any", [{ field: "gender", op: "is", values: [1] }, { field: "source", op: "is", values: ["web"] }]))).toEqual(["102"]);
  });

  it("dates are UTC+8 days; within N days counts from now", async () => {
    const n = await tenant();
    // 2026-05-31T16:00Z is 2026-06-01 00:00 in UTC+8: on 06-01; 15:59:59Z is still 05-31.
    expect(await ids(n, def("all", [{ field: "dateCreated", op: "on", from: "2026-06-01" }]))).toEqual(["101", "103"]);
    expect(await ids(n, def("all", [{ field: "dateCreated", op: "before", to: "2026-05-31" }]))).toEqual(["102", "9007199254740993"]);
    expect(await ids(n, def("all", [{ field: "dateCreated", op: "between", from: "2020-01-01", to: "2026-05-31" }]))).toEqual(["102", "9007199254740993"]);
    expect(await ids(n, def("all", [{ field: "lastUpdated", op: "withinDays", days: 30 }]))).toEqual(["101"]);
    expect(await ids(n, def("all", [{ field: "lastUpdated", op: "notWithinDays", days: 30 }]))).toEqual(["102", "103", "9007199254740993"]);
  });

  it("birthday month, custom attributes, identity types", async () => {
    const n = await tenant();
    expect(await ids(n, def("all", [{ field: "birthMonth", op: "in", months: [4] }]))).toEqual(["101", "102"]);
    expect(await ids(n, def("all", [{ field: "attr", attr: "attr1", op: "is", value: "金卡" }]))).toEqual(["101"]);
    expect(await ids(n, def("all", [{ field: "attr", attr: "attr7", op: "is", value: "5" }]))).toEqual(["101"]);
    expect(await ids(n, def("all", [{ field: "attr", attr: "attr1", op: "contains", value: "卡" }]))).toEqual(["101", "103"]);
    expect(await ids(n, def("all", [{ field: "attr", attr: "attr1", op: "empty" }]))).toEqual(["102", "9007199254740993"]);
    expect(await ids(n, def("all", [{ field: "identityType", op: "any", values: ["wechat"] }]))).toEqual(["101"]);
    expect(await ids(n, def("all", [{ field: "identityType", op: "none", values: ["wechat"] }]))).toEqual(["102", "103", "9007199254740993"]);
  });

  it("statistics: a customer without a record has no orders; days since the last order as §2.7 counts them", async () => {
    const n = await tenant();
    expect(await ids(n, def("all", [{ field: "orderCount", op: "lte", value: 1 }]))).toEqual(["102", "103", "9007199254740993"]);
    expect(await ids(n, def("all", [{ field: "orderAmount", op: "between", value: 100, to: 300 }]))).toEqual(["101"]);
    expect(await ids(n, def("all", [{ field: "activityScore", op: "gte", value: 10 }]))).toEqual(["101"]);
    expect(await ids(n, def("all", [{ field: "daysSinceLastOrder", op: "gte", value: 45 }]))).toEqual(["102"]);
    expect(await ids(n, def("all", [{ field: "daysSinceLastOrder", op: "lte", value: 9 }]))).toEqual([]);
    expect(await ids(n, def("all", [{ field: "daysSinceLastOrder", op: "lte", value: 10 }]))).toEqual(["101"]);
    expect(await ids(n, def("all", [{ field: "daysSinceLastOrder", op: "never" }]))).toEqual(["103", "9007199254740993"]);
  });

  it("no conditions is everyone of this tenant; a value with LIKE's wildcards is taken literally", async () => {
    const n = await tenant();
    expect(await ids(n, def("all", []))).toHaveLength(4);
    expect(await ids(n, def("all", [{ field: "attr", attr: "attr1", op: "contains", value: "%" }]))).toEqual([]);
  });

  it("preview pages sort by a statistic with the unknown last, carry tags and identity types; ids page by keyset in numeric order", async () => {
    const n = await tenant();
    const everyone = def("all", []);
    const page = await previewSegment({ store: t.store, tenant: n, definition: everyone, now: NOW, sort: "orderCount", order: "desc", limit: 3 });
    expect(page.rows.map((r) => r.id)).toEqual(["101", "102", "9007199254740993"]);
    expect(page.hasMore).toBe(true);
    expect(page.rows[0]).toMatchObject({ tags: ["VIP", "new"], identityTypes: ["wechat"], orderCount: 3, birthMonth: 4, attrs: { attr1: "金卡", attr7: 5 } });
    const first = await segmentIdsAfter({ store: t.store, tenant: n, definition: everyone, now: NOW, afterId: null, limit: 3 });
    expect(first).toEqual(["101", "102", "103"]);
    expect(await segmentIdsAfter({ store: t.store, tenant: n, definition: everyone, now: NOW, afterId: "103", limit: 3 })).toEqual(["9007199254740993"]);
  });
});

describe("segment definitions", () => {
  const issues = (value: unknown) => {
    const r = definitionSchema.safeParse(value);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  };

  it("an unknown field is one error naming it", () => {
    expect(issues({ match: "all", conditions: [{ field: "shoeSize", op: "gte", value: 40 }] })).toEqual([expect.stringMatching(/^conditions\.0\.field: unknown field "shoeSize"/)]);
  });

  it("malformed values and days out of range name the value", () => {
    expect(issues({ match: "all", conditions: [{ field: "dateCreated", op: "after", from: "2026-02-30" }] })).toEqual(["conditions.0.from: is not a day of the calendar"]);
    expect(issues({ match: "all", conditions: [{ field: "dateCreated", op: "after", from: "1850-01-01" }] })).toEqual(["conditions.0.from: must be between 1900-01-01 and 2100-12-31"]);
    expect(issues({ match: "all", conditions: [{ field: "dateCreated", op: "between", from: "2026-02-03", to: "2026-01-01" }] })).toEqual(["conditions.0.from: must not be after the end"]);
    expect(issues({ match: "all", conditions: [{ field: "orderCount", op: "gte", value: "two" }] })).toEqual(["conditions.0.value: must be a number"]);
    expect(issues({ match: "all", conditions: [{ field: "attr", attr: "attr101", op: "is", value: "x" }] })).toEqual(["conditions.0.attr: must be attr1 … attr100"]);
    expect(issues({ match: "all", conditions: [{ field: "birthMonth", op: "in", months: [13] }] })).toEqual(["conditions.0.months.0: must be a month 1–12"]);
    expect(issues({ match: "some", conditions: [] })).toEqual(["match: must be all or any"]);
  });
});
