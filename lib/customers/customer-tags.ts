import { textProblem } from "@/lib/forms/field-errors";
import { LIMITS } from "@/lib/platform/limits";

/**
 * A customer's tags as the tag service returns them (§4.5 GET /v1/tagservice/getCustomerTags:
 * `{ "<customerId>": "a,b,c" }`) and the optimistic edits of that answer, as pure functions.
 */

export type CustomerTagsAnswer = Record<string, string | null>;

export function tagsOf(answer: CustomerTagsAnswer | undefined, customerId: string): string[] {
  const raw = answer?.[customerId];
  if (!raw) return [];
  return raw.split(",").map((s) => s.trim()).filter(Boolean);
}

function withTags(answer: CustomerTagsAnswer | undefined, customerId: string, tags: string[]): CustomerTagsAnswer {
  return { ...(answer ?? {}), [customerId]: tags.join(",") };
}

export function withTagAdded(answer: CustomerTagsAnswer | undefined, customerId: string, name: string): CustomerTagsAnswer {
  const tags = tagsOf(answer, customerId);
  return tags.includes(name) ? withTags(answer, customerId, tags) : withTags(answer, customerId, [...tags, name]);
}

export function withTagRemoved(answer: CustomerTagsAnswer | undefined, customerId: string, name: string): CustomerTagsAnswer {
  return withTags(answer, customerId, tagsOf(answer, customerId).filter((t) => t !== name));
}

export type TagNameProblem = "required" | "tooLong" | "comma" | "duplicate";

/** A new tag name: present, ≤ 32 (§8), no comma (the answer separates names with commas), not already on. */
export function tagNameProblem(name: string, current: string[]): TagNameProblem | undefined {
  const n = name.trim();
  const problem = textProblem(n, LIMITS.tagName);
  if (problem) return problem.code;
  if (n.includes(",")) return "comma";
  if (current.includes(n)) return "duplicate";
  return undefined;
}
