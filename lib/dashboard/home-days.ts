import { HOME_OFFSET_MINUTES } from "@/lib/time";

/**
 * Calendar days of the platform's home time zone (§2: UTC+8) for the overview's per-day figures.
 * A day is `YYYY-MM-DD` in UTC+8; its bounds as §2 query filters are UTC `YYYY-MM-DDTHH:MM:SS`,
 * 8 hours earlier (16:00:00 of the day before to 15:59:59).
 */

const OFFSET_MS = HOME_OFFSET_MINUTES * 60_000;
export const DAY_MS = 86_400_000;

export type HomeDay = {
  /** `YYYY-MM-DD` in UTC+8. */
  day: string;
  /** Epoch ms of the day's first instant. */
  startMs: number;
  /** §2 filter of the day's first second (inclusive). */
  fromUtc: string;
  /** §2 filter of the day's last second (the platform's "to" bounds cover their whole second). */
  toUtc: string;
};

const pad = (n: number) => String(n).padStart(2, "0");

function utcFilter(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** The UTC+8 calendar day of an instant. */
export function homeDayOf(ms: number): string {
  return new Date(ms + OFFSET_MS).toISOString().slice(0, 10);
}

/** Epoch ms where the UTC+8 day of `ms` starts. */
export function homeDayStart(ms: number): number {
  return Math.floor((ms + OFFSET_MS) / DAY_MS) * DAY_MS - OFFSET_MS;
}

function homeDay(startMs: number): HomeDay {
  return { day: homeDayOf(startMs), startMs, fromUtc: utcFilter(startMs), toUtc: utcFilter(startMs + DAY_MS - 1000) };
}

/** The last `count` UTC+8 days up to and including today, oldest first. */
export function lastHomeDays(nowMs: number, count: number): HomeDay[] {
  const today = homeDayStart(nowMs);
  return Array.from({ length: count }, (_, i) => homeDay(today - (count - 1 - i) * DAY_MS));
}

/**
 * The days of "the last month" (§4.3, §8: the platform returns only orders and events of the last
 * month): from the UTC+8 day holding one calendar month before now, through today. The first day is
 * cut by the window (its early hours are no longer returned), so callers flag it as partial.
 */
export function lastMonthHomeDays(nowMs: number): { days: HomeDay[]; windowStartMs: number } {
  const d = new Date(nowMs);
  d.setUTCMonth(d.getUTCMonth() - 1);
  const windowStartMs = d.getTime();
  const first = homeDayStart(windowStartMs);
  const count = Math.round((homeDayStart(nowMs) - first) / DAY_MS) + 1;
  return { days: lastHomeDays(nowMs, count), windowStartMs };
}

/** `HH:MM` of an instant in UTC+8 (the overview's "as of"). */
export function homeClock(ms: number): string {
  return new Date(ms + OFFSET_MS).toISOString().slice(11, 16);
}
