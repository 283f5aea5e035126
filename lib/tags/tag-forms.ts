import type { FieldError } from "@/lib/http/api-error";
import { onlyProblems, placeErrors, textProblem, type PlacedErrors } from "@/lib/forms/field-errors";
import { LIMITS } from "@/lib/platform/limits";
import type { InputOf } from "@/lib/platform/operations";
import { tagNameProblem } from "@/lib/customers/customer-tags";

/**
 * The rules of the tag forms (§2.6, §4.5, §8) as pure functions: what is wrong with a form, the
 * request it becomes, and where the platform's field errors go on it.
 */

/** §2.6: the dimensions every tenant has. The platform offers no way to edit or delete any dimension (§4.5). */
export const BUILT_IN_DIMENSIONS = ["basic", "interests", "consumptive_habit"] as const;

export function isBuiltInDimension(key: string | null | undefined): boolean {
  return (BUILT_IN_DIMENSIONS as readonly string[]).includes(key ?? "");
}

export type Problem = "required" | "tooLong" | "taken" | "comma" | "unchanged";

// ── Dimension ───────────────────────────────────────────────────────────────────────────────────

export type DimensionForm = { name: string; dimensionKey: string };
export type DimensionProblems = Partial<Record<keyof DimensionForm, Problem>>;

/** Required and ≤ 255 each (§8); a key already among `knownKeys` is taken (the platform decides for the rest). */
export function dimensionProblems(form: DimensionForm, knownKeys: readonly string[]): DimensionProblems {
  const key = form.dimensionKey.trim();
  return onlyProblems({
    name: textProblem(form.name.trim(), LIMITS.dimensionName)?.code,
    dimensionKey: textProblem(key, LIMITS.dimensionKey)?.code ?? (knownKeys.includes(key) ? ("taken" as const) : undefined),
  });
}

export function dimensionRequest(form: DimensionForm): InputOf<"tagDimensions.create"> {
  return { body: { name: form.name.trim(), dimensionKey: form.dimensionKey.trim() } };
}

// ── Tag ─────────────────────────────────────────────────────────────────────────────────────────

export type TagForm = { name: string; dimension: string };
export type TagProblems = Partial<Record<keyof TagForm, Problem>>;

/**
 * Name required, ≤ 32 (§8), no comma: getCustomerTags answers a customer's tags as one
 * comma-separated string (§4.5), so a name with a comma could not be told apart there. Dimension
 * required, ≤ 255 (§8).
 */
export function tagProblems(form: TagForm): TagProblems {
  const name = tagNameProblem(form.name, []);
  return onlyProblems({ name: name === "duplicate" ? undefined : name, dimension: textProblem(form.dimension, LIMITS.tagDimension)?.code });
}

export function tagCreateRequest(form: TagForm): InputOf<"tags.create"> {
  return { body: { name: form.name.trim(), dimension: form.dimension } };
}

/**
 * §4.5 PUT /v1/tags/{id}: only what changed is sent (both fields are optional): a rename, a move to
 * another dimension, or both. `undefined` when nothing changed.
 */
export function tagUpdateRequest(tag: { id: string; name?: string | null; dimension?: string | null }, form: TagForm): InputOf<"tags.update"> | undefined {
  const body: { name?: string; dimension?: string } = {};
  const name = form.name.trim();
  if (name !== (tag.name ?? "")) body.name = name;
  if (form.dimension !== (tag.dimension ?? "")) body.dimension = form.dimension;
  return Object.keys(body).length === 0 ? undefined : { params: { id: tag.id }, body };
}

/** The problems of an edit: the form's, or `unchanged` on the name when nothing would be sent. */
export function tagEditProblems(tag: { id: string; name?: string | null; dimension?: string | null }, form: TagForm): TagProblems {
  const problems = tagProblems(form);
  if (Object.keys(problems).length === 0 && tagUpdateRequest(tag, form) === undefined) return { name: "unchanged" };
  return problems;
}

/**
 * The platform's field errors (`name`, `dimensionKey`) and the proxy's (`body.name`) on the form's
 * fields; the others are `unplaced` (shown above the buttons).
 */
export function placeTagErrors(fields: readonly string[], errors: readonly FieldError[]): PlacedErrors {
  return placeErrors(errors, (name) => (fields.includes(name) ? name : undefined));
}

// ── Merge ───────────────────────────────────────────────────────────────────────────────────────

export type MergeProblem = "same" | "missing";

/** §4.5 merge: two different, existing tags (a tag merged into itself would only be deleted). */
export function mergeProblem(from: { id: string } | undefined, to: { id: string } | undefined): MergeProblem | undefined {
  if (!from || !to) return "missing";
  if (from.id === to.id) return "same";
  return undefined;
}

export function mergeRequest(from: { id: string }, to: { id: string }): InputOf<"tags.merge"> {
  if (mergeProblem(from, to)) throw new Error("a tag is merged into another tag");
  return { params: { fromId: from.id, toId: to.id } };
}

// ── Tagging customers ──────────────────────────────────────────────────────────────────────────

/** §4.5 addCustomerTag: `tags` is an array of `{name}`. */
export function addCustomerTagRequest(customerId: string, tagName: string): InputOf<"customerTags.add"> {
  return { body: { customerId, tags: [{ name: tagName }] } };
}

/** §4.5 removeCustomerTag: `tags` is an array of name strings. */
export function removeCustomerTagRequest(customerId: string, tagName: string): InputOf<"customerTags.remove"> {
  return { body: { customerId, tags: [tagName] } };
}

// ── External tags ───────────────────────────────────────────────────────────────────────────────

export type ParsedExternalTags = { names: string[]; tooLong: string[]; duplicates: number };

/** One name per line (blank lines skipped, surrounding spaces dropped); each ≤ 64 characters (§8). */
export function parseExternalTags(text: string): ParsedExternalTags {
  const names: string[] = [];
  const tooLong: string[] = [];
  let duplicates = 0;
  for (const line of text.split(/\r\n|\r|\n/)) {
    const name = line.trim();
    if (name === "") continue;
    if (textProblem(name, LIMITS.externalTagName)) tooLong.push(name);
    else if (names.includes(name)) duplicates += 1;
    else names.push(name);
  }
  return { names, tooLong, duplicates };
}

export type ExternalImport = { mode: "named"; names: string[] } | { mode: "folder" };

/**
 * §4.5 POST /v1/externalTags: named tags go in `tags`; the whole current day's folder is asked for
 * by leaving `tags` out (an empty array would be "no tags", not "the folder").
 */
export function externalImportRequest(choice: ExternalImport): InputOf<"tags.importExternal"> {
  if (choice.mode === "folder") return { body: {} };
  if (choice.names.length === 0) throw new Error("named import needs at least one name");
  return { body: { tags: choice.names } };
}
