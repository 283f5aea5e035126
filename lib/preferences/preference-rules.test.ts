import { describe, expect, it } from "vitest";
import { attrLabel, attrLabelProblems, attrLabelsChanged, attrNamesFor, checkAttrLabels, checkCustomerColumns, isAttrName, isPreferenceKey } from "./preference-rules";

describe("attribute labels", () => {
  it("accepts attr1…attr100 with trimmed labels, drops emptied ones, orders by number", () => {
    expect(checkAttrLabels({ attr10: " Tier ", attr2: "Store", attr3: "  " })).toEqual({ ok: true, value: { attr2: "Store", attr10: "Tier" } });
  });
  it("refuses unknown names, non-text and labels over 64 characters, naming the field", () => {
    const checked = checkAttrLabels({ attr0: "x", attr101: "y", name: "z", attr1: 5, attr2: "长".repeat(65) });
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.problems.map((p) => p.field).sort()).toEqual(["value.attr0", "value.attr1", "value.attr101", "value.attr2", "value.name"]);
    expect(checkAttrLabels({ attr2: "长".repeat(64) }).ok).toBe(true);
    expect(checkAttrLabels(["attr1"]).ok).toBe(false);
    expect(checkAttrLabels(null).ok).toBe(false);
  });
  it("names: attr1 to attr100 only", () => {
    expect(["attr1", "attr100"].every(isAttrName)).toBe(true);
    expect(["attr", "attr01", "attr101", "Attr1", "attr1x"].some(isAttrName)).toBe(false);
  });
  it("shows the label, else the technical name", () => {
    expect(attrLabel({ attr1: "Store" }, "attr1")).toBe("Store");
    expect(attrLabel({ attr1: "Store" }, "attr2")).toBe("attr2");
  });
  it("the form offers the customer's attributes and the labelled ones, in number order", () => {
    expect(attrNamesFor({ attr10: "a", attr1: null, weird: 1 }, { attr2: "Store" })).toEqual(["attr1", "attr2", "attr10"]);
    expect(attrNamesFor(null, {})).toEqual([]);
  });
});

describe("customer columns remembered", () => {
  it("keeps known columns in the table's order; refuses unknown, empty and non-lists", () => {
    expect(checkCustomerColumns(["id", "email"])).toEqual({ ok: true, value: ["email", "id"] });
    expect(checkCustomerColumns([]).ok).toBe(false);
    expect(checkCustomerColumns(["id", "password"]).ok).toBe(false);
    expect(checkCustomerColumns("id").ok).toBe(false);
  });
  it("only known keys", () => {
    expect(isPreferenceKey("attrLabels")).toBe(true);
    expect(isPreferenceKey("customerColumns")).toBe(true);
    expect(isPreferenceKey("toString")).toBe(false);
    expect(isPreferenceKey("theme")).toBe(false);
  });
});

describe("the labels form (Settings)", () => {
  it("flags a label over 64 characters (trimmed), as the route would refuse it", () => {
    expect(attrLabelProblems({ attr1: "x".repeat(64), attr2: ` ${"y".repeat(65)} `, attr3: "" })).toEqual({ attr2: { code: "tooLong", max: 64 } });
    expect(attrLabelProblems({ attr1: `  ${"x".repeat(64)}  ` })).toEqual({});
  });

  it("is dirty only when what would be stored changes (an added empty label, spaces, order are nothing)", () => {
    const saved = { attr1: "Level", attr2: "Tier" };
    expect(attrLabelsChanged(saved, { attr2: "Tier", attr1: " Level ", attr9: "" })).toBe(false);
    expect(attrLabelsChanged(saved, { attr1: "Level", attr2: "" })).toBe(true);
    expect(attrLabelsChanged(saved, { ...saved, attr3: "New" })).toBe(true);
    expect(attrLabelsChanged(saved, { attr1: "Level", attr2: "Rank" })).toBe(true);
  });
});
