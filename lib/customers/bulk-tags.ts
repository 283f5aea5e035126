import type { InputOf } from "@/lib/platform/operations";
import { LIMITS } from "@/lib/platform/limits";
import { tagNameProblem } from "./customer-tags";

/**
 * The tag names typed for tagging many customers at once: one field, names separated by commas
 * (ASCII or full-width), enumeration commas, semicolons or new lines. A name cannot contain a comma
 * anyway (the getCustomerTags answer joins names with commas, §4.5), so the comma is the separator.
 * Each name is at most 32 characters (§8), checked by the same rule as the customer page's tag field.
 */

/** Names per action: enough for real use, and every customer gets one request carrying them all. */
export const MAX_BULK_TAGS = 20;

export type TagNamesProblem = { problem: "required" } | { problem: "tooLong"; name: string; max: number } | { problem: "tooMany"; max: number };

export type ParsedTagNames = { ok: true; names: string[] } | ({ ok: false } & TagNamesProblem);

export function parseTagNames(text: string): ParsedTagNames {
  const names: string[] = [];
  for (const raw of text.split(/[,，、;；\r\n]+/)) {
    const name = raw.trim();
    if (!name || names.includes(name)) continue;
    if (tagNameProblem(name, []) === "tooLong") return { ok: false, problem: "tooLong", name, max: LIMITS.tagName };
    names.push(name);
  }
  if (names.length === 0) return { ok: false, problem: "required" };
  if (names.length > MAX_BULK_TAGS) return { ok: false, problem: "tooMany", max: MAX_BULK_TAGS };
  return { ok: true, names };
}

/** The §4.5 addCustomerTag input for one customer: `{ customerId, tags: [{ name }] }`. */
export function addTagsInput(customerId: string, names: readonly string[]): InputOf<"customerTags.add"> {
  return { body: { customerId, tags: names.map((name) => ({ name })) } };
}
