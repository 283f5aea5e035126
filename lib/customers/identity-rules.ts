import { onlyProblems, textProblem, type TextProblem } from "@/lib/forms/field-errors";
import { LIMITS } from "@/lib/platform/limits";

/** §8: an identity's type (required, ≤ 32), value (required, ≤ 128) and optional name (≤ 256), by form field. */
export function identityProblems(type: string, value: string, name = ""): Partial<Record<"customType" | "value" | "name", TextProblem>> {
  return onlyProblems({ customType: textProblem(type, LIMITS.identityType), value: textProblem(value, LIMITS.identityValue), name: textProblem(name, LIMITS.identityName, false) });
}
