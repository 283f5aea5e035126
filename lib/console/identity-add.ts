import type { InputOf } from "@/lib/platform/operations";
import { CUSTOM_IDENTITY_TYPE, IDENTITY_LIMITS, identityType, type IdentityRow } from "./customer-create";

/**
 * "Add an identity" on a customer's detail (§4.1 POST /v1/customeridentities) as pure functions:
 * the §8 limits (type ≤ 32, value ≤ 128, name ≤ 256), the request, and the platform's field names
 * → the form's fields. The row shape and type choice are the create form's (customer-create.ts).
 */

export type AddIdentityField = "customType" | "value" | "name";
export type AddIdentityProblem = { code: "required" | "tooLong" | "identityExists"; max?: number };

/** §8 counts characters: code points, so one Chinese character or emoji is one. */
const length = (text: string) => [...text].length;

/**
 * Checks before sending. `existing` are the customer's identities: adding one it already has
 * would change nothing, so the form says so instead of calling.
 */
export function validateAddIdentity(row: IdentityRow, existing: ReadonlyArray<{ identityType?: unknown; identityValue?: unknown }> = []): Partial<Record<AddIdentityField, AddIdentityProblem>> {
  const problems: Partial<Record<AddIdentityField, AddIdentityProblem>> = {};
  const type = identityType(row);
  const value = row.value.trim();
  if (!type) problems.customType = { code: "required" };
  else if (length(type) > IDENTITY_LIMITS.identityType) problems.customType = { code: "tooLong", max: IDENTITY_LIMITS.identityType };
  if (!value) problems.value = { code: "required" };
  else if (length(value) > IDENTITY_LIMITS.identityValue) problems.value = { code: "tooLong", max: IDENTITY_LIMITS.identityValue };
  if (length(row.name.trim()) > IDENTITY_LIMITS.identityName) problems.name = { code: "tooLong", max: IDENTITY_LIMITS.identityName };
  if (!problems.customType && !problems.value && existing.some((i) => String(i.identityType) === type && String(i.identityValue) === value)) {
    problems.value = { code: "identityExists" };
  }
  return problems;
}

/** The §4.1 request; an empty display name is left out (the field is optional). */
export function addIdentityRequest(customerId: string, row: IdentityRow): InputOf<"identities.add"> {
  const name = row.name.trim();
  return { body: { customerId, identityType: identityType(row), identityValue: row.value.trim(), ...(name ? { identityName: name } : {}) } };
}

/**
 * Field errors of a refused add, keyed by form field; the rest are `unplaced`. The platform names
 * `identityType` / `identityValue` / `identityName`; the proxy's own validation `body.identityType`.
 * A type error goes on the custom type input when the custom type is chosen, else on the select.
 */
export function placeAddIdentityErrors(row: IdentityRow, errors: ReadonlyArray<{ field: string; message: string }>): { byField: Partial<Record<AddIdentityField | "type", string>>; unplaced: string[] } {
  const byField: Partial<Record<AddIdentityField | "type", string>> = {};
  const unplaced: string[] = [];
  for (const error of errors) {
    const name = error.field.replace(/^body\./, "");
    const key = name === "identityType" ? (row.type === CUSTOM_IDENTITY_TYPE ? "customType" : "type") : name === "identityValue" ? "value" : name === "identityName" ? "name" : undefined;
    if (key && !byField[key]) byField[key] = error.message;
    else if (!key) unplaced.push(`${error.field}: ${error.message}`);
  }
  return { byField, unplaced };
}
