import { MAX_ID } from "@/lib/platform/ids";

/**
 * Customer ids typed, pasted or uploaded (a text or CSV file) for adding to or removing from a
 * list. Ids are 64-bit integers (§2) and stay strings end to end: a JavaScript number would
 * silently round ids above 2^53.
 */

/** A chunk of `listMembersBatch` (§4.4 does not state a limit; 500 keeps each request small). */
export const BATCH_CHUNK = 500;
/** What one upload or paste may hold; more is refused rather than freezing the tab. */
export const MAX_IDS = 100_000;

export type IdProblem = { line: number; value: string; reason: "notAnId" | "tooLarge" | "zero" };
export type ParsedIds = { ids: string[]; problems: IdProblem[]; duplicates: number; tooMany: boolean };

/** Why `value` is not a customer id, or undefined when it is one. */
export function idProblem(value: string): IdProblem["reason"] | undefined {
  if (!/^\d+$/.test(value)) return "notAnId";
  const digits = value.replace(/^0+(?=\d)/, "");
  if (digits.length > 19 || BigInt(digits) > MAX_ID) return "tooLarge";
  if (BigInt(digits) === 0n) return "zero";
  return undefined;
}

/**
 * The ids of a text: separated by commas, semicolons, tabs, spaces or new lines (a CSV of one
 * column or a list pasted from a spreadsheet); quotes around a value are dropped; a first line that
 * is not an id (a CSV header like `customerId`) is skipped. Leading zeros are dropped, duplicates
 * counted and left out, order kept.
 */
export function parseIds(text: string): ParsedIds {
  const ids: string[] = [];
  const seen = new Set<string>();
  const problems: IdProblem[] = [];
  let duplicates = 0;
  let tooMany = false;
  const lines = text.split(/\r\n|\r|\n/);
  for (const [index, line] of lines.entries()) {
    const values = line
      .split(/[,;\t ，；]+/)
      .map((v) => v.trim().replace(/^"(.*)"$/, "$1").replace(/^'(.*)'$/, "$1").trim())
      .filter(Boolean);
    if (index === 0 && values.length > 0 && values.every((v) => /^[A-Za-z_][\w ]*$/.test(v))) continue; // a header
    for (const value of values) {
      const reason = idProblem(value);
      if (reason) {
        if (problems.length < 1000) problems.push({ line: index + 1, value: value.slice(0, 40), reason });
        continue;
      }
      const id = value.replace(/^0+(?=\d)/, "");
      if (seen.has(id)) {
        duplicates += 1;
        continue;
      }
      if (ids.length >= MAX_IDS) {
        tooMany = true;
        continue;
      }
      seen.add(id);
      ids.push(id);
    }
  }
  return { ids, problems, duplicates, tooMany };
}

/**
 * The ids text with one picked id added on its own line: unchanged when the text already holds it
 * (a second pick of the same customer, a double click), so the pasted text and the picks stay one list.
 */
export function withPickedId(text: string, id: string): string {
  if (idProblem(id)) return text;
  const canonical = id.replace(/^0+(?=\d)/, "");
  if (parseIds(text).ids.includes(canonical)) return text;
  const trimmed = text.replace(/\s+$/, "");
  return trimmed === "" ? canonical : `${trimmed}\n${canonical}`;
}

/** `items` in chunks of at most `size`, in order. */
export function chunk<T>(items: readonly T[], size: number = BATCH_CHUNK): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError("chunk size must be a positive integer");
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
