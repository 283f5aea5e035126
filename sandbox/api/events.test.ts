import { describe, expect, it } from "vitest";
import { formatUtc as iso } from "../clock";
import { md5 } from "./identities";
import { startApiKitForFile } from "./testkit";

const kit = await startApiKitForFile();
const customerId = await kit.createCustomer("事件客户");
const eventsOf = async (id: bigint, extra: Record<string, string> = {}) => (await kit.call("GET", "/v1/customerevents", { query: { customerId: id, max: 1000, ...extra } })).json;
const freshCustomer = async () => (await kit.call("POST", "/v1/customers", { body: { name: "E" } })).json.id as bigint;

describe("§4.3 events", () => {
  it("§4.3 POST /v1/customerevents answers the record with id and externalId", async () => {
    const res = await kit.call("POST", "/v1/customerevents", { body: { customerId, event: "open_page", targetId: "p1", score: 3 } });
    expect(res.json).toMatchObject({ customerId, event: "open_page", targetId: "p1", score: 3 });
    expect(typeof res.json.id).toBe("bigint");
    expect(typeof res.json.externalId).toBe("string");
  });

  it("§2.3 dedupe rule 1: the same externalId is stored once", async () => {
    const id = await freshCustomer();
    const a = await kit.call("POST", "/v1/customerevents", { body: { customerId: id, event: "click_link", externalId: "ext-1" } });
    const b = await kit.call("POST", "/v1/customerevents", { body: { customerId: id, event: "click_link", externalId: "ext-1", targetId: "other" } });
    expect(b.json.id).toBe(a.json.id);
    expect(await eventsOf(id)).toHaveLength(1);
  });

  it("§2.3 dedupe rule 2: externalIdGenerator=md5 uses the md5 of the content", async () => {
    const id = await freshCustomer();
    const body = { customerId: id, event: "submit_form", targetId: "f1", date: iso(Date.now() - 1000), externalIdGenerator: "md5" };
    const a = await kit.call("POST", "/v1/customerevents", { body });
    expect(a.json.externalId).toMatch(/^[0-9a-f]{32}$/);
    await kit.call("POST", "/v1/customerevents", { body: { ...body } });
    expect(await eventsOf(id)).toHaveLength(1);
    await kit.call("POST", "/v1/customerevents", { body: { ...body, targetId: "f2" } });
    expect(await eventsOf(id)).toHaveLength(2);
  });

  it("§2.3 dedupe rule 3: without externalId or generator, the externalId is the Unix ms of date", async () => {
    const id = await freshCustomer();
    const date = iso(Date.now() - 60_000);
    const a = await kit.call("POST", "/v1/customerevents", { body: { customerId: id, event: "open_page", date } });
    expect(a.json.externalId).toBe(String(Date.parse(date)));
    await kit.call("POST", "/v1/customerevents", { body: { customerId: id, event: "open_page", date, externalIdGenerator: "date" } });
    expect(await eventsOf(id)).toHaveLength(1);
  });

  it("§8 event id at most 32 characters; targetId/targetName/tag at most 255; summary at most 1024", async () => {
    const cases = [
      { event: "e".repeat(33) },
      { event: "open_page", targetId: "t".repeat(256) },
      { event: "open_page", targetName: "t".repeat(256) },
      { event: "open_page", tag: "t".repeat(256) },
      { event: "open_page", summary: "s".repeat(1025) },
    ];
    for (const c of cases) {
      const res = await kit.call("POST", "/v1/customerevents", { body: { customerId, ...c } });
      expect(res.status).toBe(200);
      expect(res.json.error.fieldErrors.length, JSON.stringify(Object.keys(c))).toBeGreaterThan(0);
    }
  });

  it("§2.3 custom events (c_) keep their custom properties; built-in events do not", async () => {
    const id = await freshCustomer();
    const custom = await kit.call("POST", "/v1/customerevents", { body: { customerId: id, event: "c_test_drive", carModel: "X1", longitude: 121.5, externalId: "c1" } });
    expect(custom.json).toMatchObject({ event: "c_test_drive", carModel: "X1", longitude: 121.5 });
    const builtIn = await kit.call("POST", "/v1/customerevents", { body: { customerId: id, event: "open_page", carModel: "X1", externalId: "b1" } });
    expect(builtIn.json.carModel).toBeUndefined();
  });

  it("§8 custom properties: at most 40 string, 3 numeric, 10 money per custom event type", async () => {
    const strings = Object.fromEntries(Array.from({ length: 41 }, (_, i) => [`s${i}`, "v"]));
    const tooMany = await kit.call("POST", "/v1/customerevents", { body: { customerId, event: "c_limits", ...strings } });
    expect(tooMany.json.error.fieldErrors[0].message).toMatch(/40 string/);
    const counts = { n1: 1, n2: 2, n3: 3, n4: 4 };
    expect((await kit.call("POST", "/v1/customerevents", { body: { customerId, event: "c_limits_n", ...counts } })).json.error).toBeDefined();
    const money = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`m${i}`, i + 0.5]));
    expect((await kit.call("POST", "/v1/customerevents", { body: { customerId, event: "c_limits_m", ...money } })).json.error).toBeDefined();
    const fits = { ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`s${i}`, "v"])), n1: 1, n2: 2, n3: 3, ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`m${i}`, i + 0.5])) };
    const ok = await kit.call("POST", "/v1/customerevents", { body: { customerId, event: "c_limits_ok", ...fits } });
    expect(ok.json.error).toBeUndefined();
    const oneMore = await kit.call("POST", "/v1/customerevents", { body: { customerId, event: "c_limits_ok", s40: "v", externalId: "x" } });
    expect(oneMore.json.error).toBeDefined();
  });

  it("§4.3 pushevent collects by identity and answers {success: true}", async () => {
    const res = await kit.call("POST", "/v1/collector/pushevent", { body: { identityType: "crm-e", identityValue: "E-1", event: "open_page" } });
    expect(res.json).toEqual({ success: true });
    const owner = await kit.call("GET", "/v1/customeridentities", { query: { identityType: "crm-e", identityValue: "E-1" } });
    expect(await eventsOf(owner.json[0].customerId)).toHaveLength(1);
  });

  it("§8 batchPushEvents: at most 100 events; 101 is refused and nothing is stored", async () => {
    const events = Array.from({ length: 101 }, (_, i) => ({ identityType: "crm-b", identityValue: `B-${i}`, event: "open_page" }));
    const res = await kit.call("POST", "/v1/collector/batchPushEvents", { body: { events } });
    expect(res.json.error.fieldErrors[0].fieldName).toBe("events");
    const none = await kit.call("GET", "/v1/customeridentities", { query: { identityType: "crm-b", identityValue: "B-0" } });
    expect(none.json).toEqual([]);
    const ok = await kit.call("POST", "/v1/collector/batchPushEvents", { body: { events: events.slice(0, 100) } });
    expect(ok.json).toEqual({ success: true });
  });

  it("§4.3 batchPushEvents: commonProps are added to every event and override the event's own property", async () => {
    const res = await kit.call("POST", "/v1/collector/batchPushEvents", {
      body: {
        events: [
          { identityType: "crm-cp", identityValue: "CP-1", event: "open_page", source: "own", targetId: "a", externalId: "cp1" },
          { identityType: "crm-cp", identityValue: "CP-1", event: "open_page", targetId: "b", externalId: "cp2" },
        ],
        commonProps: { source: "common" },
      },
    });
    expect(res.json).toEqual({ success: true });
    const owner = await kit.call("GET", "/v1/customeridentities", { query: { identityType: "crm-cp", identityValue: "CP-1" } });
    const events = await eventsOf(owner.json[0].customerId);
    expect(events.map((e: { source: string }) => e.source)).toEqual(["common", "common"]);
  });

  it("§4.3 / §8 reads return only events of the last month", async () => {
    const id = await freshCustomer();
    const old = await kit.call("POST", "/v1/customerevents", { body: { customerId: id, event: "open_page", date: iso(Date.now() - 40 * 86_400_000) } });
    const recent = await kit.call("POST", "/v1/customerevents", { body: { customerId: id, event: "open_page", date: iso(Date.now() - 5 * 86_400_000) } });
    expect((await eventsOf(id)).map((e: { id: bigint }) => e.id)).toEqual([recent.json.id]);
    expect((await kit.call("GET", `/v1/customerevents/${old.json.id}`)).status).toBe(404);
    expect((await kit.call("GET", `/v1/customerevents/${recent.json.id}`)).json.id).toBe(recent.json.id);
  });

  it("§4.3 the last-month window follows the sandbox clock", async () => {
    const id = await freshCustomer();
    const e = await kit.call("POST", "/v1/customerevents", { body: { customerId: id, event: "open_page" } });
    await fetch(`${kit.sandbox.urls.alpha}/__sandbox/clock`, { method: "POST", body: JSON.stringify({ advanceSeconds: 40 * 86_400 }) });
    try {
      const token = await kit.newToken();
      expect((await kit.call("GET", `/v1/customerevents/${e.json.id}`, { token })).status).toBe(404);
    } finally {
      await fetch(`${kit.sandbox.urls.alpha}/__sandbox/clock`, { method: "POST", body: JSON.stringify({ advanceSeconds: -40 * 86_400 }) });
    }
  });

  it("§4.3 query: event (comma-separated), max default 20 and at most 1000, sidx/sord", async () => {
    const id = await freshCustomer();
    for (let i = 0; i < 25; i++) await kit.call("POST", "/v1/customerevents", { body: { customerId: id, event: i % 2 ? "open_page" : "click_link", externalId: `q${i}` } });
    expect((await kit.call("GET", "/v1/customerevents", { query: { customerId: id } })).json).toHaveLength(20);
    expect(await eventsOf(id, { event: "open_page" })).toHaveLength(12);
    expect(await eventsOf(id, { event: "open_page,click_link" })).toHaveLength(25);
    const desc = await eventsOf(id, { sidx: "id", sord: "desc" });
    expect(desc[0].id > desc[1].id).toBe(true);
    expect((await kit.call("GET", "/v1/customerevents", { query: { max: 1001 } })).json.error.fieldErrors[0].fieldName).toBe("max");
  });

  it("§4.3 lastUpdatedFrom accepts YYYY-MM-DDTHH:MM:SSZ", async () => {
    const res = await kit.call("GET", "/v1/customerevents", { query: { customerId, lastUpdatedFrom: "2100-01-01T00:00:00Z" } });
    expect(res.json).toEqual([]);
  });

  it("publishes event changes for the webhook sender", async () => {
    kit.changes.length = 0;
    await kit.call("POST", "/v1/customerevents", { body: { customerId, event: "open_page", externalId: `pub-${md5("x")}` } });
    expect(kit.changes).toEqual([expect.objectContaining({ resource: "event", action: "created", data: expect.objectContaining({ customerId: String(customerId) }) })]);
  });
});

describe("§2.3 / §8 event field types and custom-property limits", () => {
  it("§2.3 text fields must be strings and longitude/latitude numbers (nothing is stored otherwise)", async () => {
    const id = await freshCustomer();
    for (const bad of [{ source: 5 }, { campaign: { a: 1 } }, { summary: 7 }, { longitude: "east" }, { city: 12 }]) {
      const res = await kit.call("POST", "/v1/customerevents", { body: { customerId: id, event: "c_typed", ...bad } });
      expect(res.json.error?.fieldErrors?.[0]?.fieldName, JSON.stringify(bad)).toBe(Object.keys(bad)[0]);
    }
    expect(await eventsOf(id)).toHaveLength(0);
    const ok = await kit.call("POST", "/v1/customerevents", { body: { customerId: id, event: "c_typed", longitude: 121.47, latitude: 31.23, city: "上海" } });
    expect(ok.json).toMatchObject({ longitude: 121.47, latitude: 31.23, city: "上海" });
  });

  it("§8 a numeric (count) property takes whole numbers only; a money property takes whole amounts too", async () => {
    const id = await freshCustomer();
    await kit.call("POST", "/v1/customerevents", { body: { customerId: id, event: "c_kinds", visits: 2, price: 9.5, externalId: "k1" } });
    const fraction = await kit.call("POST", "/v1/customerevents", { body: { customerId: id, event: "c_kinds", visits: 2.5, externalId: "k2" } });
    expect(fraction.json.error.fieldErrors[0].fieldName).toBe("visits");
    const wholeMoney = await kit.call("POST", "/v1/customerevents", { body: { customerId: id, event: "c_kinds", price: 10, externalId: "k3" } });
    expect(wholeMoney.json.error).toBeUndefined();
  });

  it("§8 the items of one batch count together against the 40 string properties; the batch is refused whole", async () => {
    const first = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`s${i}`, "v"]));
    const res = await kit.call("POST", "/v1/collector/batchPushEvents", {
      body: {
        events: [
          { identityType: "crm-lim", identityValue: "L-1", event: "c_batch_limit", externalId: "l1", ...first },
          { identityType: "crm-lim", identityValue: "L-1", event: "c_batch_limit", externalId: "l2", s40: "one too many" },
        ],
      },
    });
    expect(res.json.error.fieldErrors[0].fieldName).toBe("events[1].s40");
    const owner = await kit.call("GET", "/v1/customeridentities", { query: { identityType: "crm-lim", identityValue: "L-1" } });
    expect(owner.json).toEqual([]);
  });
});
