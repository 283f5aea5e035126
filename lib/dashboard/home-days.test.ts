import { describe, expect, it } from "vitest";
import { homeClock, homeDayOf, homeDayStart, lastHomeDays, lastMonthHomeDays } from "./home-days";

const at = (iso: string) => Date.parse(iso);

describe("UTC+8 days (§2)", () => {
  it("a UTC evening is the next day in UTC+8", () => {
    expect(homeDayOf(at("2026-11-26T15:59:59Z"))).toBe("2026-11-26");
    expect(homeDayOf(at("2026-11-26T16:00:00Z"))).toBe("2026-11-27");
    expect(homeDayStart(at("2026-11-27T02:00:00Z"))).toBe(at("2026-11-26T16:00:00Z"));
  });

  it("day bounds are sent as UTC filters, 8 hours earlier, covering the whole day", () => {
    const days = lastHomeDays(at("2026-11-27T02:12:00Z"), 30);
    expect(days).toHaveLength(30);
    expect(days.at(-1)).toEqual({ day: "2026-11-27", startMs: at("2026-11-26T16:00:00Z"), fromUtc: "2026-11-26T16:00:00", toUtc: "2026-11-27T15:59:59" });
    expect(days[0]!.day).toBe("2026-10-29");
    // Consecutive days touch: no second is counted twice or left out.
    for (let i = 1; i < days.length; i++) expect(days[i]!.startMs - days[i - 1]!.startMs).toBe(86_400_000);
  });

  it("the last month runs from the UTC+8 day of one calendar month before now through today", () => {
    const { days, windowStartMs } = lastMonthHomeDays(at("2026-03-31T01:00:00Z"));
    // March 31 minus one month rolls over (no February 31), as the platform's calendar month does.
    expect(windowStartMs).toBe(new Date(Date.UTC(2026, 1, 31, 1)).getTime());
    expect(days[0]!.day).toBe(homeDayOf(windowStartMs));
    expect(days.at(-1)!.day).toBe("2026-03-31");
  });

  it("shows the clock in UTC+8", () => {
    expect(homeClock(at("2026-11-26T18:05:00Z"))).toBe("02:05");
  });
});
