import { describe, expect, it } from "vitest";
import { parseJson, stringifyJson } from "./json";

describe("lossless JSON (§2 ids are 64-bit)", () => {
  it("keeps every digit of an id above 2^53 through parse and stringify", () => {
    const text = '{"id":9007199254740993,"n":42,"f":1.5,"s":"x"}';
    const value = parseJson(text) as { id: bigint; n: number; f: number };
    expect(value.id).toBe(9007199254740993n);
    expect(value.n).toBe(42);
    expect(value.f).toBe(1.5);
    expect(stringifyJson(value)).toBe(text);
  });

  it("writes bigint as a JSON integer, not a string", () => {
    expect(stringifyJson({ id: 18446744073709551615n })).toBe('{"id":18446744073709551615}');
  });
});
