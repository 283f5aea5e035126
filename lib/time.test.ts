import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatHomeTime, formatUtcTitle, homeInputToUtcFilter, parsePlatformTime, utcFilterToHomeInput } from "./time";

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
    expect(formatHomeTime(`${utc}Z`)).toBe(home);
  });

  it("keeps the UTC value for the hover title", () => {
    expect(formatUtcTitle("2025-12-31T23:59:59Z")).toBe("2025-12-31 23:59:59 UTC");
  });

  it("shows empty for null and an unreadable value as it came", () => {
    expect(formatHomeTime(null)).toBe("");
    expect(formatHomeTime(undefined)).toBe("");
    expect(formatHomeTime("yesterday")).toBe("yesterday");
    expect(formatHomeTime("2026-02-30T00:00:00Z")).toBe("2026-02-30T00:00:00Z");
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
