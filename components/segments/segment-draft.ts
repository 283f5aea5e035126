import type { SegmentDefinition } from "@/lib/segments/segment-types";

/**
 * The editor's form of a segment's conditions: every input as the text typed, turned into the
 * API's definition as typed (numbers from text, lists from commas), so the server's schema is the
 * one judge and its 422 names the condition and value to mark.
 */
export type DraftCondition = {
  key: number;
  field: string;
  op: string;
  values: string;
  from: string;
  to: string;
  days: string;
  value: string;
  attr: string;
};

export const FIELD_OPS: Record<string, readonly string[]> = {
  tags: ["any", "all", "none"],
  stage: ["is", "isNot", "empty", "notEmpty"],
  source: ["is", "isNot", "empty", "notEmpty"],
  gender: ["is"],
  dateCreated: ["after", "before", "on", "between", "withinDays", "notWithinDays"],
  lastUpdated: ["withinDays", "notWithinDays", "after", "before", "on", "between"],
  birthMonth: ["in"],
  attr: ["is", "contains", "empty", "notEmpty"],
  identityType: ["any", "none"],
  orderCount: ["gte", "lte", "eq", "between"],
  orderAmount: ["gte", "lte", "eq", "between"],
  activityScore: ["gte", "lte", "eq", "between"],
  daysSinceLastOrder: ["lte", "gte", "between", "never"],
};

export const FIELDS = Object.keys(FIELD_OPS);

let nextKey = 1;
export function newCondition(field = "tags"): DraftCondition {
  return { key: nextKey++, field, op: FIELD_OPS[field]![0]!, values: "", from: "", to: "", days: "", value: "", attr: "attr1" };
}

const list = (text: string) => text.split(/[,，、]/).map((v) => v.trim()).filter(Boolean);
/** A number as typed; text that is not one goes as text, for the server to name. */
const num = (text: string): number | string => (text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : text);

export function conditionOf(d: DraftCondition): Record<string, unknown> {
  const base = { field: d.field, op: d.op };
  switch (d.field) {
    case "tags":
    case "identityType":
      return { ...base, values: list(d.values) };
    case "stage":
    case "source":
      return d.op === "empty" || d.op === "notEmpty" ? base : { ...base, values: list(d.values) };
    case "gender":
      return { ...base, values: list(d.values).map(num) };
    case "birthMonth":
      return { ...base, months: list(d.values).map(num) };
    case "dateCreated":
    case "lastUpdated":
      if (d.op === "withinDays" || d.op === "notWithinDays") return { ...base, days: num(d.days) };
      if (d.op === "before") return { ...base, to: d.to };
      if (d.op === "between") return { ...base, from: d.from, to: d.to };
      return { ...base, from: d.from };
    case "attr":
      return d.op === "empty" || d.op === "notEmpty" ? { ...base, attr: d.attr } : { ...base, attr: d.attr, value: d.value };
    case "daysSinceLastOrder":
      if (d.op === "never") return base;
      return d.op === "between" ? { ...base, value: num(d.value), to: num(d.to) } : { ...base, value: num(d.value) };
    default:
      return d.op === "between" ? { ...base, value: num(d.value), to: num(d.to) } : { ...base, value: num(d.value) };
  }
}

export function definitionOf(match: "all" | "any", conditions: readonly DraftCondition[]): SegmentDefinition {
  return { match, conditions: conditions.map(conditionOf) } as unknown as SegmentDefinition;
}

/** A saved definition back into the editor's form. */
export function draftOf(definition: SegmentDefinition): DraftCondition[] {
  return definition.conditions.map((c) => {
    const d = newCondition(c.field);
    const r = c as Record<string, unknown>;
    d.op = String(r.op);
    const arr = (r.values ?? r.months) as unknown[] | undefined;
    if (arr) d.values = arr.join(", ");
    if (typeof r.from === "string") d.from = r.from;
    if (r.to !== undefined) d.to = String(r.to);
    if (r.days !== undefined) d.days = String(r.days);
    if (r.value !== undefined) d.value = String(r.value);
    if (typeof r.attr === "string") d.attr = r.attr;
    return d;
  });
}

/** The server's field errors by condition index: `body.definition.conditions.2.from` → 2 → "from: …". */
export function errorsByCondition(fieldErrors: ReadonlyArray<{ field: string; message: string }>): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const e of fieldErrors) {
    const m = /conditions\.(\d+)(?:\.(.+))?$/.exec(e.field);
    if (!m) continue;
    const i = Number(m[1]);
    out.set(i, [...(out.get(i) ?? []), m[2] ? `${m[2]}: ${e.message}` : e.message]);
  }
  return out;
}
