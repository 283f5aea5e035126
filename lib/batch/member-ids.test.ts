import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunk, idProblem, parseIds, withPickedId } from "./member-ids";

describe("customer ids from text", () => {
  it("keeps 64-bit ids exact as strings", () => {
    expect(parseIds("9007199254740993\n9223372036854775807").ids).toEqual(["9007199254740993", "9223372036854775807"]);
  });
  it("refuses what is not an id, with the line and the reason", () => {
    const parsed = parseIds("12\nabc, 9223372036854775808\n0");
    expect(parsed.ids).toEqual(["12"]);
    expect(parsed.problems).toEqual([
      { line: 2, value: "abc", reason: "notAnId" },
      { line: 2, value: "9223372036854775808", reason: "tooLarge" },
      { line: 3, value: "0", reason: "zero" },
    ]);
  });
  it("reads CSV: header skipped, quotes dropped, any separator, duplicates counted", () => {
    const parsed = parseIds('customerId\r\n"5";6\t7 8，5\n\n007');
    expect(parsed.ids).toEqual(["5", "6", "7", "8"]);
    expect(parsed.duplicates).toBe(2);
    expect(parsed.problems).toEqual([]);
  });
  it("accepts exactly the decimal integers 1..2^63-1", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -5n, max: 2n ** 64n }), (n) => {
        const ok = n >= 1n && n <= 2n ** 63n - 1n;
        expect(idProblem(n.toString()) === undefined).toBe(ok);
      }),
    );
  });
  it("chunks in order without losing or repeating items", () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), fc.integer({ min: 1, max: 50 }), (items, size) => {
        const parts = chunk(items, size);
        expect(parts.flat()).toEqual(items);
        expect(parts.every((p) => p.length >= 1 && p.length <= size)).toBe(true);
      }),
    );
    expect(() => chunk([1], 0)).toThrow();
  });
});

describe("a picked customer added to the ids text", () => {
  it("adds the id on its own line, after pasted text", () => {
    expect(withPickedId("", "42")).toBe("42");
    expect(withPickedId("1, 2\n", "42")).toBe("1, 2\n42");
  });
  it("leaves the text alone when the id is already there (picked twice, or pasted as 0042)", () => {
    expect(withPickedId("1\n42", "42")).toBe("1\n42");
    expect(withPickedId("0042", "42")).toBe("0042");
  });
  it("ignores what is not an id", () => {
    expect(withPickedId("1", "abc")).toBe("1");
    expect(withPickedId("1", "0")).toBe("1");
  });
});
