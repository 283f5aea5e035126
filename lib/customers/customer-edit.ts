import { placeErrors, type PlacedErrors } from "@/lib/forms/field-errors";
import { charLength, LIMITS } from "@/lib/platform/limits";
import type { InputOf } from "@/lib/platform/operations";
import type { Customer } from "@/lib/platform/resources";

/**
 * The edit form of a customer (§4.1 PUT /v1/customers/{id}) as pure functions: customer → form,
 * form → request (only changed fields), the verified-flag rule, §8 address limits, and platform
 * field names → form fields.
 */

export const EDIT_TEXT_FIELDS = [
  "name", "nickName", "gender", "birthday", "mobile", "email", "telephone", "company", "title", "industry", "stage", "source",
  "country", "province", "city", "county", "homeAddress", "officeAddress", "website", "remark",
] as const;
export const EDIT_FLAG_FIELDS = ["mobileVerified", "emailVerified"] as const;
export type EditTextField = (typeof EDIT_TEXT_FIELDS)[number];
export type EditFlagField = (typeof EDIT_FLAG_FIELDS)[number];

/** Custom attributes (§2.1 `attr`: attr1, attr2, …) as text, by technical name. */
export type AttrValues = Record<string, string>;
export type EditForm = Record<EditTextField, string> & Record<EditFlagField, boolean> & { attr: AttrValues };
export type EditOptions = { nullAble: boolean; forceUpdate: boolean };
export type EditProblem = { code: "tooLong" | "birthday" | "verifiedLocked"; max?: number };

function asText(value: unknown): string {
  return value === null || value === undefined ? "" : String(value);
}

export function editFormFrom(customer: Partial<Customer>): EditForm {
  const c = customer as Record<string, unknown>;
  const text = Object.fromEntries(EDIT_TEXT_FIELDS.map((f) => [f, asText(c[f])])) as Record<EditTextField, string>;
  const attr = c.attr && typeof c.attr === "object" ? Object.fromEntries(Object.entries(c.attr as Record<string, unknown>).map(([k, v]) => [k, asText(v)])) : {};
  return { ...text, mobileVerified: c.mobileVerified === true, emailVerified: c.emailVerified === true, attr };
}

/** The custom attributes whose text differs from the customer as loaded (one absent counts as empty). */
export function changedAttrs(original: EditForm, form: EditForm): string[] {
  const names = new Set([...Object.keys(original.attr), ...Object.keys(form.attr)]);
  return [...names].filter((n) => (form.attr[n] ?? "").trim() !== (original.attr[n] ?? "").trim());
}

/**
 * The `attr` object of the PUT when an attribute changed: the whole object (the sandbox, and
 * possibly the platform, replaces `attr` as one value, so an attribute left out could be lost),
 * unchanged attributes as loaded, changed ones trimmed, an emptied one null (§2: empty is null).
 */
export function attrBody(raw: Record<string, unknown> | null | undefined, original: EditForm, form: EditForm): Record<string, unknown> | undefined {
  const changed = changedAttrs(original, form);
  if (changed.length === 0) return undefined;
  const body: Record<string, unknown> = { ...(raw ?? {}) };
  for (const name of changed) {
    const value = (form.attr[name] ?? "").trim();
    body[name] = value === "" ? null : value;
  }
  return body;
}

const CONTACT_OF: Record<EditFlagField, "mobile" | "email"> = { mobileVerified: "mobile", emailVerified: "email" };

/**
 * §4.1 PUT rule: while `mobileVerified` is true and the mobile number is unchanged, it cannot be
 * set to false (same for `emailVerified` and the email). True when the flag is locked on.
 */
export function verifiedLocked(original: EditForm, form: EditForm, flag: EditFlagField): boolean {
  const contact = CONTACT_OF[flag];
  return original[flag] && form[contact].trim() === original[contact].trim();
}

/**
 * The form after staff type `value` into the mobile or email field: a verification belongs to the
 * number or address that was verified, so a changed one is no longer verified (its box unticks;
 * staff may tick it again once the person confirmed the new one). Back to the original, the flag
 * is the original's again.
 */
export function editContact(original: EditForm, form: EditForm, contact: "mobile" | "email", value: string): EditForm {
  const flag: EditFlagField = contact === "mobile" ? "mobileVerified" : "emailVerified";
  const changed = value.trim() !== original[contact].trim();
  const wasChanged = form[contact].trim() !== original[contact].trim();
  if (!changed) return { ...form, [contact]: value, [flag]: original[flag] };
  // Only the step from the verified value to another one unticks: a box ticked again stays.
  return { ...form, [contact]: value, [flag]: wasChanged ? form[flag] : false };
}

/** True when the contact of `flag` was changed and its box was unticked because of it (the form says so). */
export function verificationDropped(original: EditForm, form: EditForm, flag: EditFlagField): boolean {
  const contact = CONTACT_OF[flag];
  return original[flag] && !form[flag] && form[contact].trim() !== original[contact].trim();
}

export function validateEditForm(original: EditForm, form: EditForm): Record<string, EditProblem> {
  const problems: Record<string, EditProblem> = {};
  for (const field of ["homeAddress", "officeAddress"] as const) {
    if (charLength(form[field]) > LIMITS.address) problems[field] = { code: "tooLong", max: LIMITS.address };
  }
  const birthday = form.birthday.trim();
  if (birthday && !/^\d{4}-\d{2}-\d{2}$/.test(birthday)) problems.birthday = { code: "birthday" };
  for (const flag of EDIT_FLAG_FIELDS) {
    if (verifiedLocked(original, form, flag) && !form[flag]) problems[flag] = { code: "verifiedLocked" };
  }
  return problems;
}

/** Fields whose value differs from the customer as loaded. */
export function changedFields(original: EditForm, form: EditForm): (EditTextField | EditFlagField | "attr")[] {
  const text = EDIT_TEXT_FIELDS.filter((f) => form[f].trim() !== original[f].trim());
  const flags = EDIT_FLAG_FIELDS.filter((f) => form[f] !== original[f]);
  return [...text, ...flags, ...(changedAttrs(original, form).length ? (["attr"] as const) : [])];
}

export type UpdatePlan = {
  input: InputOf<"customers.update">;
  /** Emptied fields that will be cleared (nullAble on). */
  cleared: EditTextField[];
  /** Emptied fields the platform will keep as they are (nullAble off, §4.1). */
  kept: EditTextField[];
};

/** The §4.1 PUT: only changed fields; an emptied field is sent as null, and clears only with nullAble. */
export function updatePlan(id: string, original: EditForm, form: EditForm, options: EditOptions, rawAttr?: Record<string, unknown> | null): UpdatePlan {
  const body: Record<string, unknown> = {};
  const cleared: EditTextField[] = [];
  const kept: EditTextField[] = [];
  for (const field of changedFields(original, form)) {
    if (field === "attr") {
      body.attr = attrBody(rawAttr, original, form);
      continue;
    }
    if (field === "mobileVerified" || field === "emailVerified") {
      body[field] = form[field];
      continue;
    }
    const value = form[field].trim();
    if (value === "") {
      (options.nullAble ? cleared : kept).push(field);
      if (options.nullAble) body[field] = null;
      continue;
    }
    body[field] = field === "gender" ? Number(value) : value;
  }
  const query: InputOf<"customers.update">["query"] = {};
  if (options.nullAble) query.nullAble = true;
  if (options.forceUpdate) query.forceUpdate = true;
  return { input: { params: { id }, query, body: body as InputOf<"customers.update">["body"] }, cleared, kept };
}

const FORM_FIELDS = new Set<string>([...EDIT_TEXT_FIELDS, ...EDIT_FLAG_FIELDS]);

/** Platform (`email`, `attr.attr1`) and proxy (`email`, `body.email`) field names → form fields; the rest unplaced. */
export function placeEditErrors(errors: { field: string; message: string }[]): PlacedErrors {
  return placeErrors(errors, (name) => (FORM_FIELDS.has(name) ? name : /^attr\.attr\d+$/.test(name) ? name : undefined));
}
