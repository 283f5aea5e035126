import { isInteger, parse, stringify } from "lossless-json";

/**
 * Lossless JSON for 64-bit ids (§2: ids are `Long`; they exceed Number.MAX_SAFE_INTEGER).
 * Integers outside the safe range parse to `bigint`, every other number to `number`; `bigint`
 * values stringify as plain JSON integers, digit for digit.
 *
 * Fast path: the native parser with the reviver's source text (`JSON.parse` source access, Node 22+)
 * and `JSON.rawJSON` for writing; text without a run of 16+ digits cannot hold an unsafe integer and
 * is parsed with no reviver at all. `lossless-json` remains the fallback where those are missing.
 */

type ReviverContext = { source?: string };
type RawJson = (text: string) => unknown;

const rawJSON: RawJson | undefined = (JSON as unknown as { rawJSON?: RawJson }).rawJSON;
const nativeSourceAccess = (() => {
  try {
    let seen: string | undefined;
    JSON.parse("[1]", function (this: unknown, _key: string, value: unknown, context?: ReviverContext) {
      if (typeof value === "number") seen = context?.source;
      return value;
    });
    return seen === "1";
  } catch {
    return false;
  }
})();

const MAYBE_UNSAFE_INTEGER = /\d{16}/;
const INTEGER_SOURCE = /^-?\d+$/;

function reviveUnsafeIntegers(this: unknown, _key: string, value: unknown, context?: ReviverContext): unknown {
  if (typeof value === "number" && !Number.isSafeInteger(value) && context?.source && INTEGER_SOURCE.test(context.source)) {
    return BigInt(context.source);
  }
  return value;
}

export function parseJson(text: string): unknown {
  if (nativeSourceAccess) {
    if (!MAYBE_UNSAFE_INTEGER.test(text)) return JSON.parse(text);
    return JSON.parse(text, reviveUnsafeIntegers as (key: string, value: unknown) => unknown);
  }
  return parse(text, undefined, (value: string) => {
    if (isInteger(value)) {
      const n = Number(value);
      return Number.isSafeInteger(n) ? n : BigInt(value);
    }
    return parseFloat(value);
  });
}

function bigintAsRawInteger(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? rawJSON!(value.toString()) : value;
}

const HAS_BIGINT = Symbol("has a bigint");

/**
 * `JSON.stringify` without a replacer, which V8 writes far faster than with one (no call per value):
 * it throws a TypeError at the first bigint, and only then is the value written again with the
 * replacer (a value with a bigint pays for one partial attempt). Not when something gave bigints a
 * `toJSON` (it would be used instead of throwing): that case keeps the replacer path as before.
 */
function stringifyWithoutBigints(value: unknown): string | undefined | typeof HAS_BIGINT {
  if ((BigInt.prototype as { toJSON?: unknown }).toJSON !== undefined) return HAS_BIGINT;
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (error instanceof TypeError) return HAS_BIGINT;
    throw error;
  }
}
/** JSON for the platform: a bigint is written as a bare JSON integer. */
export function stringifyJson(value: unknown): string {
  const plain = rawJSON ? stringifyWithoutBigints(value) : HAS_BIGINT;
  const text = plain !== HAS_BIGINT ? plain : rawJSON ? JSON.stringify(value, bigintAsRawInteger) : stringify(value);
  if (text === undefined) throw new TypeError("value cannot be represented as JSON");
  return text;
}

function bigintAsString(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

/**
 * JSON for the app's own clients (the browser): a bigint becomes a decimal string, since a browser's
 * `JSON.parse` would round it. Ids are strings in the app's JSON (ARCHITECTURE.md §4).
 */
export function stringifyAppJson(value: unknown): string {
  const plain = stringifyWithoutBigints(value);
  const text = plain !== HAS_BIGINT ? plain : JSON.stringify(value, bigintAsString);
  if (text === undefined) throw new TypeError("value cannot be represented as JSON");
  return text;
}
