import { foldText } from "@/lib/search/normalize";

/**
 * The rules that say two customers are likely one person, and the key each rule gives a customer:
 * two customers sharing a key of a rule are a candidate pair of that rule. Pure: the scan, the
 * incremental refresh, the merge's re-check and the benchmark all compute keys here.
 *
 * - `identity`: the same identity value of the same type (§2.2) on two customers. The platform binds
 *   an identity to one customer, so this is rare and certain.
 * - `mobile`: the same mobile once normalized: digits only, the +86 / 0086 / 86 country code of a
 *   Chinese number dropped (§2.1 writes global numbers `+<code> <number>`), other country codes kept.
 * - `email`: the same address ignoring case; for gmail.com and googlemail.com (one mailbox, Google's
 *   rule) also ignoring dots in the local part and a `+suffix`. Other providers' local parts are
 *   compared as written: dots and `+` are significant at most of them (e.g. QQ, 163, Outlook dots).
 * - `nameMobile8`: the same name and the same last 8 digits of the mobile (a number typed with a
 *   different prefix, an extension, a missing leading digit).
 * - `nameBirthday`: the same name and birthday (§2.1 `YYYY-MM-DD`); the index does not keep
 *   birthdays, so the scan reads them from the platform for customers whose name is shared.
 */
export const RULES = ["identity", "mobile", "email", "nameMobile8", "nameBirthday"] as const;
export type Rule = (typeof RULES)[number];

/** A pair's score is its strongest rule's (0–100): how sure the rule is that it is one person. */
export const RULE_SCORE: Record<Rule, number> = { identity: 100, mobile: 95, email: 90, nameMobile8: 80, nameBirthday: 70 };

/** Rules whose key is exact enough for a bulk merge without a person looking at each pair. */
export const EXACT_RULES: readonly Rule[] = ["identity", "mobile", "email"];

export const isRule = (value: unknown): value is Rule => typeof value === "string" && (RULES as readonly string[]).includes(value);

/** `foldText` without its Unicode normalization for plain ASCII (most mobiles and emails): the same result, many times faster over a million customers. */
const PLAIN = /^[\x20-\x7e]*$/;
const fold = (value: string): string => (PLAIN.test(value) ? value.toLowerCase().trim() : foldText(value));

/** Keys are kept at most this long (the store's column); longer values are cut, which only merges keys that are alike for 300 characters. */
const KEY_MAX = 300;
const cut = (key: string) => (key.length > KEY_MAX ? key.slice(0, KEY_MAX) : key);

/** A mobile's comparable form: its digits without a Chinese country code; null when too short to mean anything. */
export function mobileKey(mobile: string | null | undefined): string | null {
  if (!mobile) return null;
  const folded = fold(mobile);
  let digits = folded.replace(/\D/g, "");
  const global = /^\+(\d{1,4})[\s-]+(.+)$/.exec(folded);
  if (global) digits = global[1] === "86" ? global[2]!.replace(/\D/g, "") : digits;
  else if (digits.startsWith("0086")) digits = digits.slice(4);
  else if (digits.length === 13 && digits.startsWith("86")) digits = digits.slice(2);
  return digits.length >= 6 ? digits : null;
}

/** The providers whose addresses ignore dots and a `+suffix` in the local part, and their canonical domain. */
const DOTS_AND_PLUS: Readonly<Record<string, string>> = { "gmail.com": "gmail.com", "googlemail.com": "gmail.com" };

/** An email's comparable form (lower case; Gmail's dots and +suffix dropped); null when it is not an address. */
export function emailKey(email: string | null | undefined): string | null {
  if (!email) return null;
  const folded = fold(email);
  const at = folded.lastIndexOf("@");
  if (at <= 0 || at === folded.length - 1) return null;
  let local = folded.slice(0, at);
  let domain = folded.slice(at + 1);
  const canonical = DOTS_AND_PLUS[domain];
  if (canonical) {
    domain = canonical;
    local = local.split("+")[0]!.replace(/\./g, "");
    if (!local) return null;
  }
  return `${local}@${domain}`;
}

/** A name's comparable form; null for names too short to mean anything alone (one character). */
export function nameKey(name: string | null | undefined): string | null {
  if (!name) return null;
  const folded = fold(name).replace(/\s+/g, " ");
  return [...folded].length >= 2 ? folded : null;
}

export type MatchSource = {
  name?: string | null;
  mobile?: string | null;
  email?: string | null;
  identities?: ReadonlyArray<{ type: string; value: string }> | null;
  /** `YYYY-MM-DD`, when known. */
  birthday?: string | null;
};

export type MatchKey = { rule: Rule; key: string };

const BIRTHDAY = /^\d{4}-\d{2}-\d{2}$/;

/** Every key of a customer, each once. */
export function matchKeysOf(source: MatchSource): MatchKey[] {
  const keys = new Map<string, MatchKey>();
  const add = (rule: Rule, key: string | null) => {
    if (key) keys.set(`${rule}\u0000${key}`, { rule, key: cut(key) });
  };
  for (const identity of source.identities ?? []) {
    if (identity && typeof identity.type === "string" && typeof identity.value === "string" && identity.value.trim() !== "") add("identity", `${identity.type}:${identity.value.trim()}`);
  }
  const mobile = mobileKey(source.mobile);
  add("mobile", mobile);
  add("email", emailKey(source.email));
  const name = nameKey(source.name);
  if (name && mobile && mobile.length >= 8) add("nameMobile8", `${name}|${mobile.slice(-8)}`);
  if (name && source.birthday && BIRTHDAY.test(source.birthday)) add("nameBirthday", `${name}|${source.birthday}`);
  return [...keys.values()];
}

/** Whether two customers still share a key of `rule` (the merge's re-check on fresh records). */
export function stillMatch(a: MatchSource, b: MatchSource, rule: Rule): boolean {
  const theirs = new Set(matchKeysOf(b).filter((k) => k.rule === rule).map((k) => k.key));
  return matchKeysOf(a).some((k) => k.rule === rule && theirs.has(k.key));
}
