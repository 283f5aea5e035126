import { describe, expect, it } from "vitest";
import { isPlatformId, isPlatformIdList, MAX_ID } from "./ids";

describe("the platform id rule (§2: 64-bit Long)", () => {
  it("takes 1 … 2^63 − 1 in decimal, up to 19 digits", () => {
    expect(MAX_ID.toString()).toBe("9223372036854775807");
    for (const id of ["1", "42", "9007199254740993", "9223372036854775807", "0000000000000000001"]) expect(isPlatformId(id)).toBe(true);
  });

  it("refuses zero, negatives, 20 digits, past 2^63 − 1, and anything not plain digits", () => {
    for (const id of ["0", "-1", "9223372036854775808", "9999999999999999999", "10000000000000000000", "12345678901234567890", "", " 1", "1 ", "1e3", "0x1f", "1.0", "١٢"]) {
      expect(isPlatformId(id)).toBe(false);
    }
  });

  it("lists: comma-separated ids, at most max", () => {
    expect(isPlatformIdList("1,2,9223372036854775807")).toBe(true);
    expect(isPlatformIdList("1,,2")).toBe(false);
    expect(isPlatformIdList("1,0")).toBe(false);
    expect(isPlatformIdList("1, 2")).toBe(false);
    expect(isPlatformIdList("1,2,3", 2)).toBe(false);
    expect(isPlatformIdList("1,2", 2)).toBe(true);
  });
});
