/**
 * The one rule for what a platform id is (§2: ids are 64-bit integers, `Long`): a decimal integer
 * from 1 to 2^63 − 1, so at most 19 digits (2^63 − 1 = 9223372036854775807 has 19; a 20-digit
 * number never fits). The platform issues no zero or negative id. Ids stay strings in TypeScript
 * (above 2^53 a number rounds), so the bound is checked with BigInt. Zod-free and browser-safe: the
 * operation schemas (`platformId()` in schema-helpers.ts), the console's forms and URL parsers, the
 * app's routes and pages and the sandbox all ask this module.
 */

/** The largest id: 2^63 − 1. */
export const MAX_ID = 2n ** 63n - 1n;

/** At most 19 digits (the 64-bit bound is checked after). */
const ID_DIGITS = /^\d{1,19}$/;

/** True when `value` (exactly, no spaces) is a platform id: 1 … 2^63 − 1 in decimal. */
export function isPlatformId(value: string): boolean {
  if (!ID_DIGITS.test(value)) return false;
  const id = BigInt(value);
  return id >= 1n && id <= MAX_ID;
}

/** True when `value` is ids separated by commas (no spaces), at most `max` of them. */
export function isPlatformIdList(value: string, max = Infinity): boolean {
  const parts = value.split(",");
  return parts.length <= max && parts.every(isPlatformId);
}
