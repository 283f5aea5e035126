import type { TextProblem } from "@/lib/forms/field-errors";
import type { InputOf } from "@/lib/platform/operations";
import { identityProblems } from "./identity-rules";
import { isPlatformId } from "@/lib/platform/ids";

/**
 * Merging two customers (§4.1 mergeCustomerById / mergeCustomerByIdentities): the customer
 * "from" is merged into "to" and deleted. Pure parts: checking the form, the requests, and the
 * report from the platform's `{ data: { customerId } }`.
 */

export type MergeSide = { id: string; identityType: string; identityValue: string };
export type MergeMode = "id" | "identity";
export type MergeProblem = TextProblem | { code: "notAnId" | "same" };


export function validateMerge(mode: MergeMode, from: MergeSide, to: MergeSide): Record<string, MergeProblem> {
  const problems: Record<string, MergeProblem> = {};
  for (const [side, value] of [["from", from], ["to", to]] as const) {
    if (mode === "id") {
      const id = value.id.trim();
      if (!id) problems[`${side}.id`] = { code: "required" };
      else if (!isPlatformId(id)) problems[`${side}.id`] = { code: "notAnId" };
    } else {
      // §4.1: identityType and identityValue required, within §8's limits.
      const found = identityProblems(value.identityType.trim(), value.identityValue.trim());
      if (found.customType) problems[`${side}.identityType`] = found.customType;
      if (found.value) problems[`${side}.identityValue`] = found.value;
    }
  }
  if (Object.keys(problems).length === 0) {
    const same = mode === "id" ? from.id.trim() === to.id.trim() : from.identityType.trim() === to.identityType.trim() && from.identityValue.trim() === to.identityValue.trim();
    if (same) problems[mode === "id" ? "to.id" : "to.identityValue"] = { code: "same" };
  }
  return problems;
}

/** The two customers to show side by side: the ids, once both sides are resolved. */
export function sameCustomer(fromId: string | undefined, toId: string | undefined): boolean {
  return fromId !== undefined && fromId === toId;
}

export function mergeByIdRequest(fromId: string, toId: string): InputOf<"customers.mergeById"> {
  return { query: { fromId: fromId.trim(), toId: toId.trim() } };
}

export function mergeByIdentitiesRequest(from: MergeSide, to: MergeSide): InputOf<"customers.mergeByIdentities"> {
  const ref = (s: MergeSide) => ({ identityType: s.identityType.trim(), identityValue: s.identityValue.trim() });
  return { body: { from: ref(from), to: ref(to) } };
}

/** The remaining customer's id from `{ data: { customerId } }`. */
export function remainingCustomerId(result: unknown): string | undefined {
  const id = (result as { data?: { customerId?: unknown } } | null)?.data?.customerId;
  return id === undefined || id === null ? undefined : String(id);
}
