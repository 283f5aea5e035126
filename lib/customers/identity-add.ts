import { placeErrors, type PlacedErrors, type TextProblem } from "@/lib/forms/field-errors";
import type { InputOf } from "@/lib/platform/operations";
import { CUSTOM_IDENTITY_TYPE, identityType, type IdentityRow } from "./customer-create";
import { identityProblems } from "./identity-rules";

/**
 * "Add an identity" on a customer's detail (§4.1 POST /v1/customeridentities) as pure functions:
 * the §8 limits (type ≤ 32, value ≤ 128, name ≤ 256), the request, and the platform's field names
 * → the form's fields. The row shape and type choice are the create form's (customer-create.ts).
 */

export type AddIdentityField = "customType" | "value" | "name";
export type AddIdentityProblem = TextProblem | { code: "identityExists" };

/**
 * Checks before sending. `existing` are the customer's identities: adding one it already has
 * would change nothing, so the form says so instead of calling.
 */
export function validateAddIdentity(row: IdentityRow, existing: ReadonlyArray<{ identityType?: unknown; identityValue?: unknown }> = []): Partial<Record<AddIdentityField, AddIdentityProblem>> {
  const type = identityType(row);
  const value = row.value.trim();
  const problems: Partial<Record<AddIdentityField, AddIdentityProblem>> = identityProblems(type, value, row.name.trim());
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
export function placeAddIdentityErrors(row: IdentityRow, errors: ReadonlyArray<{ field: string; message: string }>): PlacedErrors {
  const keys: Record<string, string> = { identityType: row.type === CUSTOM_IDENTITY_TYPE ? "customType" : "type", identityValue: "value", identityName: "name" };
  return placeErrors(errors, (name) => keys[name]);
}
