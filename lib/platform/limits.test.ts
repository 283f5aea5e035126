import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { charLength, longerThan } from "./limits";

describe("charLength", () => {
  it("counts code points, not UTF-16 units", () => {
    expect(charLength("")).toBe(0);
    expect(charLength("李娜")).toBe(2);
    expect(charLength("𠮷野家")).toBe(3);
    expect("𠮷".length).toBe(2);
    // A lone surrogate is one character, as the spread operator counts it.
    expect(charLength("\ud800x")).toBe(2);
  });

  it("agrees with the string iterator for any string", () => {
    fc.assert(fc.property(fc.string({ unit: "binary" }), (s) => charLength(s) === [...s].length));
  });
});

describe("longerThan", () => {
  it("compares code points with the limit", () => {
    expect(longerThan("𠮷".repeat(32), 32)).toBe(false);
    expect(longerThan("𠮷".repeat(33), 32)).toBe(true);
    fc.assert(fc.property(fc.string({ unit: "binary" }), fc.nat(40), (s, max) => longerThan(s, max) === [...s].length > max));
  });
});
