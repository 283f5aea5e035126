import { CUSTOMER_COLUMNS, type CustomerColumn } from "@/lib/customers/customer-columns";

/**
 * The console's preferences kept in the app's store (docs/decisions/preferences-in-the-app-store.md), zod-free for the
 * browser: which keys exist, whose they are (the tenant's or one user's) and what a valid value is.
 * The route refuses anything else with a 400 naming the field, and nothing is stored.
 */

/** Custom attributes are `attr1`, `attr2`, … (§2.1 `attr`); the console labels up to this number of them. */
export const MAX_ATTR_NUMBER = 100;
/** A label is a short name staff see in place of `attrN`. */
export const MAX_LABEL_LENGTH = 64;
export const ATTR_NAME = /^attr([1-9]\d{0,2})$/;

export type AttrLabels = Record<string, string>;
export type Preferences = { attrLabels: AttrLabels; customerColumns: CustomerColumn[] | null };

/** Each key: whose it is, and its check. `tenant`: every staff member of the tenant; `user`: one person. */
export const PREFERENCE_KEYS = {
  attrLabels: "tenant",
  customerColumns: "user",
} as const;
export type PreferenceKey = keyof typeof PREFERENCE_KEYS;

export type PreferenceProblem = { field: string; message: string };
type Checked<T> = { ok: true; value: T } | { ok: false; problems: PreferenceProblem[] };

export function isPreferenceKey(key: unknown): key is PreferenceKey {
  return typeof key === "string" && Object.hasOwn(PREFERENCE_KEYS, key);
}

/** True for `attr1` … `attr100`. */
export function isAttrName(name: string): boolean {
  const match = ATTR_NAME.exec(name);
  return match !== null && Number(match[1]) <= MAX_ATTR_NUMBER;
}

/** Labels: `{attrN: label}`; a label is trimmed, 1 to 64 characters; an empty one removes the label. */
export function checkAttrLabels(value: unknown): Checked<AttrLabels> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return { ok: false, problems: [{ field: "value", message: "must be an object of attr1…attr100 to labels" }] };
  const problems: PreferenceProblem[] = [];
  const labels: AttrLabels = {};
  for (const [name, label] of Object.entries(value)) {
    if (!isAttrName(name)) problems.push({ field: `value.${name}`, message: `custom attributes are named attr1 to attr${MAX_ATTR_NUMBER}` });
    else if (typeof label !== "string") problems.push({ field: `value.${name}`, message: "must be text" });
    else if ([...label.trim()].length > MAX_LABEL_LENGTH) problems.push({ field: `value.${name}`, message: `at most ${MAX_LABEL_LENGTH} characters` });
    else if (label.trim() !== "") labels[name] = label.trim();
  }
  return problems.length ? { ok: false, problems } : { ok: true, value: sortedLabels(labels) };
}

/** The labels as they would be stored: trimmed, empty ones left out, in attribute order. */
export function storedAttrLabels(labels: AttrLabels): AttrLabels {
  const kept: AttrLabels = {};
  for (const [name, label] of Object.entries(labels)) if (label.trim() !== "") kept[name] = label.trim();
  return sortedLabels(kept);
}

/** The labels form's problems, by attribute name: a label longer than `MAX_LABEL_LENGTH` (the route's rule). */
export function attrLabelProblems(labels: AttrLabels): Record<string, { code: "tooLong"; max: number }> {
  const problems: Record<string, { code: "tooLong"; max: number }> = {};
  for (const [name, label] of Object.entries(labels)) if ([...label.trim()].length > MAX_LABEL_LENGTH) problems[name] = { code: "tooLong", max: MAX_LABEL_LENGTH };
  return problems;
}

/** Whether the form holds something to save: what would be stored differs from what is. */
export function attrLabelsChanged(saved: AttrLabels, labels: AttrLabels): boolean {
  const a = storedAttrLabels(saved);
  const b = storedAttrLabels(labels);
  return Object.keys(a).length !== Object.keys(b).length || Object.entries(b).some(([name, label]) => a[name] !== label);
}

/** Columns: known column ids, at least one, no repeats (kept in the catalogue's order). */
export function checkCustomerColumns(value: unknown): Checked<CustomerColumn[]> {
  if (!Array.isArray(value) || value.length === 0) return { ok: false, problems: [{ field: "value", message: "must be a list of at least one column" }] };
  const problems: PreferenceProblem[] = [];
  value.forEach((column, i) => {
    if (typeof column !== "string" || !(CUSTOMER_COLUMNS as readonly string[]).includes(column)) problems.push({ field: `value.${i}`, message: "is not a column of the customers table" });
  });
  if (problems.length) return { ok: false, problems };
  return { ok: true, value: CUSTOMER_COLUMNS.filter((c) => value.includes(c)) };
}

export function checkPreference(key: PreferenceKey, value: unknown): Checked<unknown> {
  return key === "attrLabels" ? checkAttrLabels(value) : checkCustomerColumns(value);
}

function sortedLabels(labels: AttrLabels): AttrLabels {
  return Object.fromEntries(Object.entries(labels).sort(([a], [b]) => attrNumber(a) - attrNumber(b)));
}

/** `attr12` → 12 (for ordering; anything else sorts last). */
export function attrNumber(name: string): number {
  const match = ATTR_NAME.exec(name);
  return match ? Number(match[1]) : Number.MAX_SAFE_INTEGER;
}

/** What staff see for a custom attribute: its label, else its technical name. */
export function attrLabel(labels: AttrLabels | undefined, name: string): string {
  return labels?.[name] || name;
}

/**
 * The attributes a customer form shows: those the customer has, and those the tenant labelled
 * (so a labelled attribute can be filled in on a customer who has none yet), in number order.
 */
export function attrNamesFor(customerAttr: Record<string, unknown> | null | undefined, labels: AttrLabels): string[] {
  const names = new Set([...Object.keys(customerAttr ?? {}).filter(isAttrName), ...Object.keys(labels).filter(isAttrName)]);
  return [...names].sort((a, b) => attrNumber(a) - attrNumber(b));
}
