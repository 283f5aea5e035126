import { describe, expect, it } from "vitest";
import { emptyRecordEventForm, isExistingEvent, placeEventErrors, propertyCounts, recordEventRequest, validateRecordEventForm, type RecordEventForm } from "./event-record";

const custom = (extra: Partial<RecordEventForm> = {}): RecordEventForm => ({ ...emptyRecordEventForm(), type: "custom", customId: "c_test_drive", ...extra });
const prop = (key: number, name: string, kind: "string" | "number" | "money", value: string) => ({ key, name, kind, value });

describe("record an event: rules (§2.3, §8)", () => {
  it("a built-in type needs nothing else; a custom one needs a c_ id of at most 32 characters", () => {
    expect(validateRecordEventForm(emptyRecordEventForm())).toEqual({});
    expect(validateRecordEventForm(custom({ customId: "test_drive" })).event).toEqual({ code: "eventId" });
    expect(validateRecordEventForm(custom({ customId: "c_" })).event).toEqual({ code: "eventId" });
    expect(validateRecordEventForm(custom({ customId: "c_" + "x".repeat(31) })).event).toEqual({ code: "tooLong", max: 32 });
  });

  it("§8 lengths of targetId / targetName / tag / summary; score a whole number; time in UTC+8", () => {
    const form = emptyRecordEventForm();
    form.fields.tag = "t".repeat(256);
    form.fields.summary = "名".repeat(400);
    form.score = "1.5";
    form.date = "2026-13-01T10:00";
    expect(validateRecordEventForm(form)).toEqual({ tag: { code: "tooLong", max: 255 }, summary: { code: "tooLong", max: 1024 }, score: { code: "integer" }, date: { code: "date" } });
  });

  it("§8 typed custom properties: values checked by kind, names unique and not event fields, at most 40 / 3 / 10", () => {
    const form = custom({ properties: [prop(1, "visits", "number", "2.5"), prop(2, "price", "money", "abc"), prop(3, "visits", "string", "x"), prop(4, "targetId", "string", "x")] });
    expect(validateRecordEventForm(form)).toEqual({
      "properties.1.value": { code: "integer" },
      "properties.2.value": { code: "decimal" },
      "properties.3.name": { code: "propertyName" },
      "properties.4.name": { code: "propertyName" },
    });
    const four = custom({ properties: [1, 2, 3, 4].map((k) => prop(k, `n${k}`, "number", "1")) });
    expect(validateRecordEventForm(four).properties).toEqual({ code: "tooManyProperties", kind: "number", max: 3 });
    expect(propertyCounts(four).number).toEqual({ used: 4, max: 3 });
  });

  it("§2.3 duplicate rule by your own id needs the id", () => {
    expect(validateRecordEventForm(custom({ duplicateRule: "externalId" })).externalId).toEqual({ code: "required" });
  });
});

describe("record an event: the request (§4.3 POST /v1/customerevents)", () => {
  it("a custom event with typed properties, location, UTC time and the chosen duplicate rule", () => {
    const form = custom({ date: "2026-11-20T16:30", score: "5", duplicateRule: "externalId", externalId: "td-1", properties: [prop(1, "carModel", "string", " X1 "), prop(2, "visits", "number", "2"), prop(3, "price", "money", "19.90")] });
    form.fields.targetName = "试驾";
    form.location.city = "上海";
    form.location.longitude = "121.47";
    expect(recordEventRequest(form, "9007199254740993")).toEqual({
      body: { customerId: "9007199254740993", event: "c_test_drive", date: "2026-11-20T08:30:00Z", score: 5, targetName: "试驾", externalId: "td-1", longitude: 121.47, city: "上海", carModel: "X1", visits: 2, price: 19.9 },
    });
  });

  it("§2.3 rule 2: md5 sends externalIdGenerator; rule 3 (by time) sends neither; built-in events carry no properties", () => {
    expect(recordEventRequest(custom({ duplicateRule: "md5" }), "1").body).toMatchObject({ externalIdGenerator: "md5" });
    const byDate = recordEventRequest({ ...emptyRecordEventForm(), properties: [prop(1, "x", "string", "y")] }, "1").body as Record<string, unknown>;
    expect(byDate).toEqual({ customerId: "1", event: "open_page" });
  });

  it("puts the platform's field errors on the form (property names included)", () => {
    const form = custom({ properties: [prop(7, "carModel", "string", "X1")] });
    expect(placeEventErrors(form, [{ field: "carModel", message: "is a money property" }, { field: "body.targetId", message: "too long" }, { field: "city", message: "must be a string" }, { field: "customerId", message: "unknown" }])).toEqual({
      byField: { "properties.7.value": "is a money property", targetId: "too long", "location.city": "must be a string" },
      unplaced: ["customerId: unknown"],
    });
  });

  it("§2.3 recognises the answer to a duplicate: an id already listed or stored well before sending", () => {
    const sent = Date.parse("2026-11-20T08:00:00Z");
    expect(isExistingEvent({ id: "5", lastUpdated: "2026-11-20T08:00:01Z" }, new Set(["5"]), sent)).toBe(true);
    expect(isExistingEvent({ id: "6", lastUpdated: "2026-11-19T08:00:00Z" }, new Set(), sent)).toBe(true);
    expect(isExistingEvent({ id: "7", lastUpdated: "2026-11-20T08:00:00Z" }, new Set(), sent)).toBe(false);
  });
});
