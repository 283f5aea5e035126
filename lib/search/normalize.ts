/**
 * The text forms the customer index stores and the search box's query is turned into. One place,
 * so what is indexed and what is asked for are normalised the same way.
 */

/** NFKC (full-width Latin and digits as typed by CJK input methods become ASCII), lower case, trimmed. */
export function foldText(value: string): string {
  return value.normalize("NFKC").toLowerCase().trim();
}

/**
 * The forms of a mobile a person may type: as stored (`+86 13900000000`), all its digits
 * (`8613900000000`) and the national number without the country code (`13900000000`; §2.1 writes
 * global numbers as `+<country code><space><number>`).
 */
export function mobileForms(mobile: string | null | undefined): string[] {
  if (!mobile) return [];
  const folded = foldText(mobile);
  const forms = new Set<string>([folded]);
  const digits = folded.replace(/\D/g, "");
  if (digits) forms.add(digits);
  const global = /^\+\d{1,4}[\s-]+(.+)$/.exec(folded);
  if (global) {
    const national = global[1]!.replace(/\D/g, "");
    if (national) forms.add(national);
  }
  return [...forms];
}

export type IndexDocument = {
  id: string;
  displayName?: string | null;
  name?: string | null;
  nickName?: string | null;
  email?: string | null;
  mobile?: string | null;
  stage?: string | null;
  source?: string | null;
  gender?: number | null;
  dateCreated?: string | null;
  lastUpdated?: string | null;
  identities?: Array<{ type: string; value: string }>;
  /** `YYYY-MM-DD` (§2.1); segments read its month. */
  birthday?: string | null;
  /** Custom attributes (`attr1`…, §2.1) as answered; segments filter on them. */
  attrs?: Record<string, unknown> | null;
};

/** What the trigram index covers: names, email, the mobile's forms, identity values and the id. */
export function searchTextOf(doc: IndexDocument): string {
  const parts = [doc.name, doc.nickName, doc.displayName, doc.email, ...mobileForms(doc.mobile), ...(doc.identities ?? []).map((i) => i.value), doc.id];
  return [...new Set(parts.filter((p): p is string => typeof p === "string" && p.trim() !== "").map(foldText))].join("\n");
}

/** A query that is a phone number as typed (`139 0000 0000`, `+86 139…`, `(0)139-…`): its digits. */
const PHONE_LIKE = /^[+\d\s().-]+$/;

/** The text to look for: folded; a phone-like query becomes its digits. Empty when nothing is left. */
export function queryText(raw: string): string {
  const folded = foldText(raw).replace(/\s+/g, " ");
  if (PHONE_LIKE.test(folded) && /\d/.test(folded)) {
    const digits = folded.replace(/\D/g, "");
    // "+86 139…" is the full digits form (stored too), a bare number the national one.
    return digits;
  }
  return folded;
}

/** Trigram search needs three characters (code points); shorter queries use the name pairs or prefixes. */
export const isShortQuery = (text: string): boolean => [...text].length < 3;

/** Exactly two characters: looked up among the name pairs (anywhere in a name or nickName). */
export const isPairQuery = (text: string): boolean => [...text].length === 2 && !/\s/u.test(text);

/**
 * Every two adjacent characters (code points) of the folded name and nickName, without
 * whitespace: `吴子涵` → 吴子, 子涵. A two-character query is one of them exactly, so it finds a
 * given name anywhere (子涵 → 吴子涵), which a trigram index cannot answer (it needs three).
 */
export function namePairsOf(doc: Pick<IndexDocument, "name" | "nickName">): string[] {
  const pairs = new Set<string>();
  for (const value of [doc.name, doc.nickName]) {
    if (!value) continue;
    const chars = [...foldText(value)];
    for (let i = 0; i + 1 < chars.length; i++) {
      const pair = chars[i]! + chars[i + 1]!;
      if (!/\s/u.test(pair)) pairs.add(pair);
    }
  }
  return [...pairs];
}

/**
 * A pair as one token of SQLite's `unicode61`/`ascii` FTS tokenizers: its code points in hex
 * (`子涵` → `5b50x6db5`), so punctuation, symbols and CJK are all one plain ASCII word.
 */
export const pairToken = (pair: string): string => [...pair].map((c) => c.codePointAt(0)!.toString(16)).join("x");
