import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJson } from "./json";
import { parseWithIdsAsText, quoteIds, type ScanInfo } from "./json-ids";

/** What `parseWithIdsAsText` must give: the lossless parse, with every bigint as its decimal string. */
function expected(text: string): unknown {
  const toText = (v: unknown): unknown =>
    typeof v === "bigint" ? v.toString() : Array.isArray(v) ? v.map(toText) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toText(x)])) : v;
  return toText(parseJson(text));
}

const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n });
/** JSON values with 64-bit integers mixed in, and strings that look like numbers and JSON. */
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(
    int64.map((b) => ({ raw: b.toString() })),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => ({ raw: JSON.stringify(d) })),
    fc.string().map((s) => ({ raw: JSON.stringify(s) })),
    fc.constantFrom('"9007199254740993"', '"a\\"b:12345678901234567890"', '"\\\\"', "true", "false", "null").map((raw) => ({ raw })),
  ),
  node: fc.oneof({ depthSize: "small" }, tie("leaf"), tie("array"), tie("object")),
  array: fc.array(tie("node"), { maxLength: 4 }).map((items) => ({ raw: `[${(items as Array<{ raw: string }>).map((i) => i.raw).join(",")}]` })),
  object: fc
    .dictionary(fc.oneof(fc.constantFrom("id", "customerId", "n"), fc.string({ maxLength: 5 })), tie("node"), { maxKeys: 4 })
    .map((o) => ({ raw: `{${Object.entries(o as Record<string, { raw: string }>).map(([k, v]) => `${JSON.stringify(k)}: ${v.raw}`).join(", ")}}` })),
}));

describe("quoteIds: ids as strings straight from the JSON text", () => {
  it("equals the lossless parse with big integers as decimal strings (property)", () => {
    fc.assert(
      fc.property(value.node as fc.Arbitrary<{ raw: string }>, ({ raw }) => {
        expect(parseWithIdsAsText(raw)).toEqual(expected(raw));
      }),
      { numRuns: 1000 },
    );
  });

  it("quotes every integer under an id key, in objects and arrays, and nothing inside strings", () => {
    const text = '{"id":5,"rows":[{"id":6,"name":"id: 7","n":8}],"success":[9,10],"customerId":-1.5,"x":{"customerId":11}}';
    expect(JSON.parse(quoteIds(text, new Set(["id", "success", "customerId"])))).toEqual({
      id: "5",
      rows: [{ id: "6", name: "id: 7", n: 8 }],
      success: ["9", "10"],
      customerId: -1.5,
      x: { customerId: "11" },
    });
  });

  it("quotes an integer from one past Number.MAX_SAFE_INTEGER on, either sign, and no safe one", () => {
    const text = "[9007199254740991,-9007199254740991,9007199254740992,-9007199254740992,1000000000000000,10000000000000000,9107199254740991,8999999999999999]";
    expect(quoteIds(text)).toBe('[9007199254740991,-9007199254740991,"9007199254740992","-9007199254740992",1000000000000000,"10000000000000000","9107199254740991",8999999999999999]');
  });

  it("keeps every digit of 64-bit ids (property)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }), (id) => {
        expect(parseWithIdsAsText(`{"rows":[{"id":${id},"remark":"\\"${id}\\""}]}`, new Set(["id"]))).toEqual({ rows: [{ id: id.toString(), remark: `"${id}"` }] });
      }),
      { numRuns: 500 },
    );
  });

  it("returns the text itself when there is nothing to quote, and leaves malformed JSON to JSON.parse", () => {
    const text = '{"a":[1,2.5,"x"]}';
    expect(quoteIds(text)).toBe(text);
    expect(() => parseWithIdsAsText('{"id":9007199254740993')).toThrow(SyntaxError);
    expect(() => parseWithIdsAsText('{"s":"unterminated')).toThrow(SyntaxError);
  });

  it("reports whether the text is well nested and which keys the top-level object has", () => {
    const scan = (text: string) => {
      const info: ScanInfo = { balanced: false, topLevelKeys: [] };
      quoteIds(text, undefined, info);
      return info;
    };
    expect(scan('{"rows":[{"error":1}],"page":1}')).toEqual({ balanced: true, topLevelKeys: ["rows", "page"] });
    expect(scan('{"error":{"code":"1"}}').topLevelKeys).toEqual(["error"]);
    expect(scan('{"rows":[1,2]').balanced).toBe(false);
    expect(scan('{"rows":[1,2}}').balanced).toBe(false);
    expect(scan('{"s":"open').balanced).toBe(false);
    expect(scan("[1]]").balanced).toBe(false);
  });

  it("agrees with JSON.parse on well-nested valid JSON (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const info: ScanInfo = { balanced: false, topLevelKeys: [] };
        const text = JSON.stringify(v);
        quoteIds(text, undefined, info);
        expect(info.balanced).toBe(true);
        // Keys are compared as written in the text (escapes kept).
        if (v && typeof v === "object" && !Array.isArray(v)) expect(info.topLevelKeys).toEqual(Object.keys(v).map((k) => JSON.stringify(k).slice(1, -1)));
      }),
    );
  });
});
