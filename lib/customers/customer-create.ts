import { placeErrors, type PlacedErrors, type TextProblem } from "@/lib/forms/field-errors";
import type { InputOf } from "@/lib/platform/operations";
import { identityProblems } from "./identity-rules";

/**
 * The "create a customer with identities" form (§4.1 POST /v1/customerandidentities) as pure
 * functions: form → request, the §8 limits, the lookups that tell "created" from "merged", and
 * platform field names → form fields. Client code imports only types from the operation table.
 */

/** §2.2 built-in identity types; anything else is a custom type. */
export const BUILT_IN_IDENTITY_TYPES = ["email", "mobile", "messenger", "messenger-unionid"] as const;
export const CUSTOM_IDENTITY_TYPE = "custom";

/** The customer fields the create form offers (§2.1). */
export const CREATE_CUSTOMER_FIELDS = ["name", "mobile", "email", "gender", "birthday", "company", "title", "stage", "source", "remark"] as const;
export type CreateCustomerField = (typeof CREATE_CUSTOMER_FIELDS)[number];

export type IdentityRow = {
  /** A built-in type, or `custom` with `customType` naming it. */
  type: string;
  customType: string;
  value: string;
  name: string;
};

export type CreateForm = {
  customer: Record<CreateCustomerField, string>;
  identities: IdentityRow[];
  /** §4.1 query options with the platform's defaults: true, true, false. */
  mergeByEmail: boolean;
  mergeByMobile: boolean;
  nullAble: boolean;
};

export function emptyIdentity(type = "email"): IdentityRow {
  return { type, customType: "", value: "", name: "" };
}

export function emptyCreateForm(): CreateForm {
  const customer = Object.fromEntries(CREATE_CUSTOMER_FIELDS.map((f) => [f, ""])) as Record<CreateCustomerField, string>;
  return { customer, identities: [emptyIdentity()], mergeByEmail: true, mergeByMobile: true, nullAble: false };
}

/** Error codes the UI translates (`customerEdit.error.<code>`), with values for the message. */
export type FormProblem = TextProblem | { code: "birthday" | "identityDuplicate" | "identitiesRequired" };

export function identityType(row: IdentityRow): string {
  return (row.type === CUSTOM_IDENTITY_TYPE ? row.customType : row.type).trim();
}

/** Rows the user left completely empty are ignored, not errors. */
function isBlankRow(row: IdentityRow): boolean {
  return row.value.trim() === "" && row.name.trim() === "" && (row.type !== CUSTOM_IDENTITY_TYPE || row.customType.trim() === "");
}

/** Checks before sending: §8 lengths, a type and value on every identity, birthday YYYY-MM-DD (§2.1). */
export function validateCreateForm(form: CreateForm): Record<string, FormProblem> {
  const problems: Record<string, FormProblem> = {};
  const birthday = form.customer.birthday.trim();
  if (birthday && !/^\d{4}-\d{2}-\d{2}$/.test(birthday)) problems.birthday = { code: "birthday" };
  const seen = new Set<string>();
  let used = 0;
  form.identities.forEach((row, i) => {
    if (isBlankRow(row)) return;
    used++;
    const type = identityType(row);
    const value = row.value.trim();
    for (const [part, problem] of Object.entries(identityProblems(type, value, row.name.trim()))) problems[`identities.${i}.${part}`] = problem;
    const key = `${type}\u0000${value}`;
    if (type && value && seen.has(key)) problems[`identities.${i}.value`] = { code: "identityDuplicate" };
    seen.add(key);
  });
  // §4.1 requires the array; an empty one is allowed by the platform, but a customer with neither
  // an identity nor a name/mobile/email is nothing a person means to create.
  if (used === 0 && !form.customer.name.trim() && !form.customer.mobile.trim() && !form.customer.email.trim()) {
    problems["identities.0.value"] = { code: "identitiesRequired" };
  }
  return problems;
}

export type CreateInput = InputOf<"customers.createWithIdentities">;

/** The §4.1 request: only filled fields are sent (an empty field would be a clear only with nullAble). */
export function createRequest(form: CreateForm): CreateInput {
  const customer: Record<string, unknown> = {};
  for (const field of CREATE_CUSTOMER_FIELDS) {
    const value = form.customer[field].trim();
    if (!value) continue;
    customer[field] = field === "gender" ? Number(value) : value;
  }
  const customerIdentities = form.identities
    .filter((row) => !isBlankRow(row))
    .map((row) => ({
      identityType: identityType(row),
      identityValue: row.value.trim(),
      ...(row.name.trim() ? { identityName: row.name.trim() } : {}),
    }));
  return {
    query: { mergeByEmail: form.mergeByEmail, mergeByMobile: form.mergeByMobile, nullAble: form.nullAble },
    body: { customer: customer as CreateInput["body"]["customer"], customerIdentities },
  };
}

/** Why the platform would pick an existing customer (§4.1 rules 1 and 2). */
export type MergeReason = { kind: "identity"; identityType: string; identityValue: string } | { kind: "email"; value: string } | { kind: "mobile"; value: string };

/** A lookup to run before creating: identities first (rule 1), then email, then mobile (rule 2). */
export type MergeLookup = { reason: MergeReason; input: InputOf<"identities.list"> | InputOf<"customers.list">; operation: "identities.list" | "customers.list" };

export function mergeLookups(request: CreateInput): MergeLookup[] {
  const lookups: MergeLookup[] = request.body.customerIdentities.map((identity) => ({
    reason: { kind: "identity", identityType: identity.identityType, identityValue: identity.identityValue },
    operation: "identities.list",
    input: { query: { identityType: identity.identityType, identityValue: identity.identityValue } },
  }));
  const customer = request.body.customer as { email?: string | null; mobile?: string | null };
  if (request.query?.mergeByEmail !== false && customer.email) {
    lookups.push({ reason: { kind: "email", value: customer.email }, operation: "customers.list", input: { query: { email: customer.email, rows: 1, sidx: "id", sord: "asc", select: "id" } } });
  }
  if (request.query?.mergeByMobile !== false && customer.mobile) {
    lookups.push({ reason: { kind: "mobile", value: customer.mobile }, operation: "customers.list", input: { query: { mobile: customer.mobile, rows: 1, sidx: "id", sord: "asc", select: "id" } } });
  }
  return lookups;
}

/** The customer id a lookup found, if any: `[{customerId}]` for identities, `{rows:[{id}]}` for customers. */
export function foundCustomerId(result: unknown): string | undefined {
  if (Array.isArray(result)) {
    const id = (result[0] as { customerId?: unknown } | undefined)?.customerId;
    return id === undefined || id === null ? undefined : String(id);
  }
  const rows = (result as { rows?: { id?: unknown }[] } | null)?.rows;
  const id = rows?.[0]?.id;
  return id === undefined || id === null ? undefined : String(id);
}

export type LookupMatch = { reason: MergeReason; customerId: string };

/** The customer §4.1 would update, in rule order: the first lookup that found one. */
export function predictedTarget(matches: (LookupMatch | undefined)[]): LookupMatch | undefined {
  return matches.find((m): m is LookupMatch => m !== undefined);
}

export type CreateOutcome = { kind: "created"; customerId: string } | { kind: "merged"; customerId: string; reason?: MergeReason };

/**
 * Created or merged (§4.1 answers with the customer either way): the returned id is compared with
 * the customers the lookups found just before. An id that existed before means the platform
 * updated that customer; a new id means it created one. (A customer created by someone else
 * between the lookup and the call would be reported as created: the lookups cannot see it.)
 */
export function createOutcome(returnedId: unknown, matches: (LookupMatch | undefined)[]): CreateOutcome {
  const customerId = String(returnedId);
  const match = matches.find((m) => m?.customerId === customerId);
  if (match) return { kind: "merged", customerId, reason: match.reason };
  return { kind: "created", customerId };
}

/**
 * A platform or proxy field name → the form field it belongs to. The platform names
 * `email` or `customerIdentities[0].identityValue`; the proxy's own validation `customer.email`
 * or `customerIdentities.0.identityValue`. Unknown names give undefined (shown above the form).
 */
export function formFieldOf(field: string): string | undefined {
  const f = field.replace(/^body\./, "");
  const identity = /^customerIdentities(?:\[(\d+)\]|\.(\d+))\.?(identityType|identityValue|identityName)?$/.exec(f);
  if (identity) {
    const index = identity[1] ?? identity[2];
    const part = identity[3] === "identityType" ? "customType" : identity[3] === "identityName" ? "name" : "value";
    return `identities.${index}.${part}`;
  }
  const name = f.replace(/^customer\./, "");
  return (CREATE_CUSTOMER_FIELDS as readonly string[]).includes(name) ? name : undefined;
}

/**
 * Field errors of a refused request, keyed by form field; the rest are `unplaced`. Identity
 * indices of the request are mapped back to the form's rows (blank rows are not sent).
 */
export function placeFieldErrors(form: CreateForm, errors: { field: string; message: string }[]): PlacedErrors {
  const sentRows = form.identities.map((row, i) => ({ row, i })).filter(({ row }) => !isBlankRow(row)).map(({ i }) => i);
  return placeErrors(errors, (field) => {
    const key = formFieldOf(field);
    if (!key?.startsWith("identities.")) return key;
    const [, index, part] = key.split(".");
    const row = sentRows[Number(index)];
    return row === undefined ? undefined : `identities.${row}.${part}`;
  });
}
