import { foldText, queryText } from "./normalize";
import type { SearchHit } from "./types";

/**
 * Why a search result matched, worked out in the browser from the hit's fields and the query (the
 * index answers ids and names, not which of its texts matched): the first shown field that holds
 * the query, with where, so the page can say "Nickname: Lucky" and mark the matched part.
 * A hit that matched on a field the page does not show (an identity value, the id) is "other".
 */

export type MatchedField = "name" | "displayName" | "nickName" | "email" | "mobile";
export type Match = { field: MatchedField; value: string; start: number; end: number } | { field: "other" };

const FIELDS: readonly MatchedField[] = ["name", "displayName", "nickName", "email", "mobile"];

/** Where `text` (already folded) occurs in `value`, in `value`'s own positions. */
function findIn(value: string, text: string): [number, number] | undefined {
  const folded = foldText(value);
  const at = folded.indexOf(text);
  if (at < 0) return undefined;
  // Folding kept the length (the usual case): the same positions. Otherwise the whole value.
  return folded.length === value.length && value.trim() === value ? [at, at + text.length] : [0, value.length];
}

/** Where the digits `text` occur among `value`'s digits (`139 0000` in `+86 13900000000`). */
function findDigits(value: string, text: string): [number, number] | undefined {
  const positions: number[] = [];
  let digits = "";
  for (let i = 0; i < value.length; i++) {
    const c = foldText(value[i]!);
    if (/^\d$/.test(c)) {
      digits += c;
      positions.push(i);
    }
  }
  const at = digits.indexOf(text);
  return at < 0 ? undefined : [positions[at]!, positions[at + text.length - 1]! + 1];
}

export function matchedField(hit: Pick<SearchHit, MatchedField>, rawQuery: string): Match | undefined {
  const text = queryText(rawQuery);
  if (!text) return undefined;
  const digitsOnly = /^\d+$/.test(text);
  for (const field of FIELDS) {
    const value = hit[field];
    if (!value) continue;
    // A field equal to one already checked (displayName is usually the name) says nothing new.
    if (field === "displayName" && value === hit.name) continue;
    const range = findIn(value, text) ?? (digitsOnly && field === "mobile" ? findDigits(value, text) : undefined);
    if (range) return { field, value, start: range[0], end: range[1] };
  }
  return { field: "other" };
}
