import { placeErrors, type PlacedErrors } from "@/lib/forms/field-errors";
import type { InputOf } from "@/lib/platform/operations";
import { BUILT_IN_EVENT_TYPES, COORDINATE_FIELDS, CUSTOM_PROPERTY_LIMITS, eventIdProblem, eventTimeToUtc, LOCATION_TEXT_FIELDS, parseDecimal, parseInteger, propertyLimitProblems, propertyNameProblem, TEXT_FIELDS, textFieldProblem, type DuplicateRule, type EventProblem, type PropertyKind } from "@/lib/events/event-fields";

/**
 * The "Record an event" form of a customer (§4.3 POST /v1/customerevents): form → request, the
 * §2.3 / §8 rules (event id, lengths, typed custom properties within 40 / 3 / 10), the §2.3 duplicate
 * rule as a visible choice, where the platform's field errors go, and whether the answer was a new
 * event or one the platform already had.
 */

export const CUSTOM_EVENT_CHOICE = "custom";
export type TextField = (typeof TEXT_FIELDS)[number];
export type LocationField = (typeof LOCATION_TEXT_FIELDS)[number] | (typeof COORDINATE_FIELDS)[number];
export const LOCATION_FIELDS: readonly LocationField[] = [...COORDINATE_FIELDS, ...LOCATION_TEXT_FIELDS];

export type PropertyRow = { key: number; name: string; kind: PropertyKind; value: string };

export type RecordEventForm = {
  /** A built-in type id, or `custom` with `customId`. */
  type: string;
  customId: string;
  /** DateTimeField value in UTC+8; empty = now. */
  date: string;
  score: string;
  fields: Record<TextField, string>;
  location: Record<LocationField, string>;
  properties: PropertyRow[];
  duplicateRule: DuplicateRule;
  externalId: string;
};

export function emptyRecordEventForm(): RecordEventForm {
  return {
    type: BUILT_IN_EVENT_TYPES[0],
    customId: "c_",
    date: "",
    score: "",
    fields: Object.fromEntries(TEXT_FIELDS.map((f) => [f, ""])) as Record<TextField, string>,
    location: Object.fromEntries(LOCATION_FIELDS.map((f) => [f, ""])) as Record<LocationField, string>,
    properties: [],
    duplicateRule: "date",
    externalId: "",
  };
}

export function eventIdOf(form: RecordEventForm): string {
  return form.type === CUSTOM_EVENT_CHOICE ? form.customId.trim() : form.type;
}

export function isCustomForm(form: RecordEventForm): boolean {
  return form.type === CUSTOM_EVENT_CHOICE;
}

export type FormProblems = Record<string, EventProblem>;

/** Problems keyed by the form's field keys: `event`, `date`, `score`, `targetId`, `location.longitude`, `properties.3.name`, `externalId`, `properties`. */
export function validateRecordEventForm(form: RecordEventForm): FormProblems {
  const problems: FormProblems = {};
  const custom = isCustomForm(form);
  const id = eventIdOf(form);
  const idProblem = eventIdProblem(id);
  if (idProblem) problems.event = idProblem;
  else if (custom && !id.startsWith("c_")) problems.event = { code: "eventId" };
  if (form.date.trim() !== "" && !eventTimeToUtc(form.date)) problems.date = { code: "date" };
  if (form.score.trim() !== "" && parseInteger(form.score) === undefined) problems.score = { code: "integer" };
  for (const f of TEXT_FIELDS) {
    const p = textFieldProblem(f, form.fields[f].trim());
    if (p) problems[f] = p;
  }
  if (form.duplicateRule === "externalId" && form.externalId.trim() === "") problems.externalId = { code: "required" };
  if (!custom) return problems;
  for (const f of COORDINATE_FIELDS) {
    const text = form.location[f].trim();
    if (text === "") continue;
    const n = parseDecimal(text);
    const max = f === "longitude" ? 180 : 90;
    if (n === undefined) problems[`location.${f}`] = { code: "decimal" };
    else if (Math.abs(n) > max) problems[`location.${f}`] = { code: "range", min: -max, max };
  }
  const names = new Set<string>();
  form.properties.forEach((p) => {
    const name = p.name.trim();
    const nameProblem = name === "" ? { code: "required" as const } : (propertyNameProblem(name) ?? (names.has(name) ? { code: "propertyName" as const } : undefined));
    names.add(name);
    if (nameProblem) problems[`properties.${p.key}.name`] = nameProblem;
    const value = p.value.trim();
    if (value === "") problems[`properties.${p.key}.value`] = { code: "required" };
    else if (p.kind === "number" && parseInteger(value) === undefined) problems[`properties.${p.key}.value`] = { code: "integer" };
    else if (p.kind === "money" && parseDecimal(value) === undefined) problems[`properties.${p.key}.value`] = { code: "decimal" };
  });
  const limit = propertyLimitProblems(form.properties.map((p) => p.kind))[0];
  if (limit) problems.properties = limit;
  return problems;
}

/** Custom properties in use per kind, for the "n of 40 / 3 / 10" counter (§8). */
export function propertyCounts(form: RecordEventForm): Record<PropertyKind, { used: number; max: number }> {
  const out = {} as Record<PropertyKind, { used: number; max: number }>;
  for (const kind of Object.keys(CUSTOM_PROPERTY_LIMITS) as PropertyKind[]) out[kind] = { used: form.properties.filter((p) => p.kind === kind).length, max: CUSTOM_PROPERTY_LIMITS[kind] };
  return out;
}

export type RecordEventInput = InputOf<"events.create">;

/** The request of a valid form. Empty fields are left out; location and properties only for custom events (§2.3). */
export function recordEventRequest(form: RecordEventForm, customerId: string): RecordEventInput {
  const body: Record<string, unknown> = { customerId, event: eventIdOf(form) };
  const date = form.date.trim() === "" ? undefined : eventTimeToUtc(form.date);
  if (date) body.date = date;
  if (form.score.trim() !== "") body.score = parseInteger(form.score);
  for (const f of TEXT_FIELDS) if (form.fields[f].trim() !== "") body[f] = form.fields[f].trim();
  if (form.duplicateRule === "externalId") body.externalId = form.externalId.trim();
  else if (form.duplicateRule === "md5") body.externalIdGenerator = "md5";
  if (isCustomForm(form)) {
    for (const f of LOCATION_FIELDS) {
      const text = form.location[f].trim();
      if (text !== "") body[f] = (COORDINATE_FIELDS as readonly string[]).includes(f) ? parseDecimal(text) : text;
    }
    for (const p of form.properties) {
      const value = p.value.trim();
      body[p.name.trim()] = p.kind === "string" ? value : p.kind === "number" ? parseInteger(value)! : parseDecimal(value)!;
    }
  }
  return { body } as RecordEventInput;
}

/**
 * The platform's field errors on the form: `event`, `targetId` (or the proxy's `body.targetId`),
 * a custom property by its name; the rest are `unplaced` (shown above the buttons).
 */
export function placeEventErrors(form: RecordEventForm, errors: { field: string; message: string }[]): PlacedErrors {
  return placeErrors(errors, (f) => {
    if (f === "event" || f === "date" || f === "score" || f === "externalId" || (TEXT_FIELDS as readonly string[]).includes(f)) return f;
    if ((LOCATION_FIELDS as readonly string[]).includes(f)) return `location.${f}`;
    const row = form.properties.find((p) => p.name.trim() === f);
    return row && `properties.${row.key}.value`;
  });
}

/**
 * §2.3: a duplicate is answered with the event the platform already had. It is recognised by an id
 * already listed for the customer, or a `lastUpdated` (when it entered the system) well before this
 * request was sent.
 */
export function isExistingEvent(answer: { id?: unknown; lastUpdated?: unknown }, listedIds: ReadonlySet<string>, sentAtMs: number): boolean {
  if (answer.id !== undefined && listedIds.has(String(answer.id))) return true;
  const stored = typeof answer.lastUpdated === "string" ? Date.parse(answer.lastUpdated) : NaN;
  return Number.isFinite(stored) && stored < sentAtMs - 5_000;
}
