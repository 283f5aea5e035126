import { isInteger, parse, stringify } from "lossless-json";

/**
 * Lossless JSON for 64-bit ids (§2: ids are `Long`; they exceed Number.MAX_SAFE_INTEGER).
 * Integers outside the safe range parse to `bigint`, every other number to `number`; `bigint`
 * values stringify as plain JSON integers, digit for digit.
 */
export function parseJson(text: string): unknown {
  return parse(text, undefined, (value: string) => {
    if (isInteger(value)) {
      const n = Number(value);
      return Number.isSafeInteger(n) ? n : BigInt(value);
    }
    return parseFloat(value);
  });
}

export function stringifyJson(value: unknown): string {
  const text = stringify(value);
  if (text === undefined) throw new TypeError("value cannot be represented as JSON");
  return text;
}
