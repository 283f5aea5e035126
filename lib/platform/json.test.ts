import fc from "fast-check";
import { parse as losslessParse } from "lossless-json";
import { describe, expect, it } from "vitest";
import { parseJson, stringifyAppJson, stringifyJson } from "./json";
import { id, toWire } from "./schema-helpers";

const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
// §2: ids are positive 64-bit integers (lib/platform/ids.ts).
const uint64Id = fc.bigInt({ min: 1n, max: 2n ** 63n - 1n });

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

  it("round-trips any 64-bit integer digit for digit (property)", () => {
    fc.assert(
      fc.property(int64, fc.array(int64, { maxLength: 5 }), (value, more) => {
        const text = `{"id":${value},"ids":[${more.join(",")}],"name":"${value}"}`;
        const parsed = parseJson(text) as { id: bigint | number; ids: Array<bigint | number>; name: string };
        expect(BigInt(parsed.id)).toBe(value);
        expect(typeof parsed.id).toBe(Number.isSafeInteger(Number(value)) && BigInt(Number(value)) === value ? "number" : "bigint");
        expect(parsed.name).toBe(String(value));
        expect(stringifyJson(parsed)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it("parses like lossless-json on arbitrary JSON values (property)", () => {
    const json = fc.jsonValue().map((v) => JSON.stringify(v));
    fc.assert(
      fc.property(json, uint64Id, (text, big) => {
        const withBig = `[${text},${big}]`;
        const reference = losslessParse(withBig, undefined, (v: string) => {
          const n = Number(v);
          return /^-?\d+$/.test(v) && !Number.isSafeInteger(n) ? BigInt(v) : n;
        });
        expect(parseJson(withBig)).toEqual(reference);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps floats and exponents as numbers, never as bigint", () => {
    expect(parseJson("[1e20, 12345678901234567.5, -0.0000000000000001]")).toEqual([1e20, 12345678901234567.5, -0.0000000000000001]);
  });

  it("ids survive platform JSON → id string → wire JSON (property)", () => {
    fc.assert(
      fc.property(uint64Id, (value) => {
        const fromPlatform = parseJson(`{"customerId":${value}}`) as { customerId: unknown };
        const asString = id.parse(fromPlatform.customerId);
        expect(asString).toBe(value.toString());
        expect(stringifyJson(toWire({ customerId: asString }, new Set(["customerId"])))).toBe(`{"customerId":${value}}`);
        const appValue = typeof fromPlatform.customerId === "bigint" ? `"${value}"` : `${value}`;
        expect(stringifyAppJson(fromPlatform)).toBe(`{"customerId":${appValue}}`);
      }),
      { numRuns: 500 },
    );
  });

  it("writes bigint as a decimal string in the app's own JSON", () => {
    expect(stringifyAppJson({ id: 9223372036854775807n, n: 1 })).toBe('{"id":"9223372036854775807","n":1}');
  });

  it("writes a bigint found late in a large value (the fast path without a replacer falls back)", () => {
    const events = Array.from({ length: 100 }, (_, i) => ({ n: i, s: `e${i}` }));
    const value = { events, last: { id: 9223372036854775807n } };
    const plain = JSON.stringify({ events });
    expect(stringifyJson(value)).toBe(`${plain.slice(0, -1)},"last":{"id":9223372036854775807}}`);
    expect(stringifyAppJson(value)).toBe(`${plain.slice(0, -1)},"last":{"id":"9223372036854775807"}}`);
    expect(stringifyJson({ events })).toBe(plain);
  });

  it("sees a run of 16 digits anywhere, however the text around it looks", () => {
    expect(parseJson('{"a":"x","b":[1,2],"id":1234567890123456789}')).toEqual({ a: "x", b: [1, 2], id: 1234567890123456789n });
    expect(parseJson('{"s":"123456789012345","n":1}')).toEqual({ s: "123456789012345", n: 1 });
    expect(parseJson("[-9007199254740993]")).toEqual([-9007199254740993n]);
  });

  it("throws a clear error on malformed JSON", () => {
    expect(() => parseJson("{oops")).toThrow(SyntaxError);
  });
});
