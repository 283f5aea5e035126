import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatHomeTimeIn, formatHomeValue, formatUtcTitle, homeInputToUtcFilter, homeValueNow, parseHomeValue, parsePlatformTime, utcFilterToHomeInput } from "./time";

/** The same instants in UTC (the platform's) and in UTC+8 (shown and typed): across midnight, month ends, leap days, the year end. */
const INSTANTS: Array<[utc: string, home: string]> = [
  ["2026-03-14T01:02:03", "2026-03-14 09:02:03"],
  ["2026-03-14T16:00:00", "2026-03-15 00:00:00"],
  ["2026-03-14T23:59:00", "2026-03-15 07:59:00"],
  ["2026-04-30T16:00:00", "2026-05-01 00:00:00"],
  ["2026-04-30T20:30:00", "2026-05-01 04:30:00"],
  ["2024-02-28T18:00:00", "2024-02-29 02:00:00"],
  ["2024-02-29T16:00:00", "2024-03-01 00:00:00"],
  ["2025-02-28T16:00:00", "2025-03-01 00:00:00"],
  ["2025-02-28T18:00:00", "2025-03-01 02:00:00"],
  ["2025-12-31T19:00:00", "2026-01-01 03:00:00"],
  ["2025-12-31T23:59:59", "2026-01-01 07:59:59"],
];

describe("showing platform times in UTC+8 (§2)", () => {
  it.each(INSTANTS)("adds 8 hours to a UTC response time: %sZ is %s", (utc, home) => {
    expect(formatHomeTimeIn(`${utc}Z`, "en")).toBe(home);
  });

  it("keeps the UTC value for the hover title", () => {
    expect(formatUtcTitle("2025-12-31T23:59:59Z")).toBe("2025-12-31 23:59:59 UTC");
  });

  it("shows empty for null and an unreadable value as it came", () => {
    expect(formatHomeTimeIn(null, "en")).toBe("");
    expect(formatHomeTimeIn(undefined, "en")).toBe("");
    expect(formatHomeTimeIn("yesterday", "en")).toBe("yesterday");
    expect(formatHomeTimeIn("2026-02-30T00:00:00Z", "en")).toBe("2026-02-30T00:00:00Z");
    expect(parsePlatformTime("2026-13-01T00:00:00Z")).toBeUndefined();
  });
});

describe("filter input typed in UTC+8 is sent in UTC (§2: subtract 8 hours)", () => {
  it.each(INSTANTS)("subtracts 8 hours: %s is sent for %s typed", (utc, home) => {
    expect(homeInputToUtcFilter(home.replace(" ", "T"))).toBe(utc);
  });

  it("takes minutes without seconds", () => {
    expect(homeInputToUtcFilter("2026-03-14T09:30")).toBe("2026-03-14T01:30:00");
    expect(homeInputToUtcFilter("2026-03-15T07:59")).toBe("2026-03-14T23:59:00");
  });

  it("rejects times that do not exist or are not in the input format", () => {
    for (const bad of ["2025-02-29T10:00", "2026-04-31T00:00", "2026-01-01T24:00", "2026-01-01", "2026-01-01 10:00", "", "x"]) {
      expect(homeInputToUtcFilter(bad), bad).toBeUndefined();
    }
    expect(homeInputToUtcFilter(undefined)).toBeUndefined();
  });

  it("round-trips every minute between 1970 and 2100", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800 / 60 }), (minutes) => {
        const ms = minutes * 60_000;
        const input = new Date(ms).toISOString().slice(0, 16);
        const utc = homeInputToUtcFilter(input)!;
        expect(Date.parse(`${utc}Z`)).toBe(ms - 8 * 3600_000);
        expect(utcFilterToHomeInput(utc)).toBe(`${input}:00`);
      }),
    );
  });
});

describe("the DateTimeField's format: one per language, typed in either", () => {
  it("writes a UTC+8 value in each language's format", () => {
    expect(formatHomeValue("2026-11-23T20:15:00", "en")).toBe("2026-11-23 20:15:00");
    expect(formatHomeValue("2026-11-23T20:15", "en")).toBe("2026-11-23 20:15:00");
    expect(formatHomeValue("2026-01-03T08:05:09", "zh-CN")).toBe("2026年1月3日 08:05:09");
    expect(formatHomeValue("not a time", "zh-CN")).toBe("not a time");
    expect(formatHomeTimeIn("2025-12-31T23:59:59Z", "zh-CN")).toBe("2026年1月1日 07:59:59");
    expect(formatHomeTimeIn("2025-12-31T23:59:59Z", "en")).toBe("2026-01-01 07:59:59");
  });

  it.each([
    ["2026-11-23 20:15:00", "2026-11-23T20:15:00"],
    ["2026-11-23T20:15", "2026-11-23T20:15:00"],
    ["2026/1/3 8:05", "2026-01-03T08:05:00"],
    ["2026年1月3日 08:05:09", "2026-01-03T08:05:09"],
    ["2026年1月3日", "2026-01-03T00:00:00"],
    ["２０２６-０１-０３ ０８：０５", "2026-01-03T08:05:00"],
    ["  2024-02-29 23:59:59 ", "2024-02-29T23:59:59"],
  ])("reads %s", (typed, value) => {
    expect(parseHomeValue(typed)).toBe(value);
  });

  it("refuses what is not a real time", () => {
    for (const bad of ["", "x", "2025-02-29 10:00", "2026-04-31", "2026-01-01 24:00", "2026-01-01 10:60", "11/23/2026, 08:15:00 PM", "2026-01-01 10"]) {
      expect(parseHomeValue(bad), bad).toBeUndefined();
    }
  });

  it("round-trips through each language's format", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800 }), fc.constantFrom("en" as const, "zh-CN" as const), (seconds, locale) => {
        const value = new Date(seconds * 1000).toISOString().slice(0, 19);
        expect(parseHomeValue(formatHomeValue(value, locale))).toBe(value);
      }),
    );
  });

  it("now is UTC+8", () => {
    expect(homeValueNow(Date.UTC(2026, 10, 23, 12, 15, 0, 999))).toBe("2026-11-23T20:15:00");
  });
});
