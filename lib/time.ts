/**
 * Times of the platform (§2): responses carry UTC `YYYY-MM-DDTHH:MM:SSZ`, query filters take UTC
 * `YYYY-MM-DDTHH:MM:SS`. The console shows and takes times in the platform's home time zone, UTC+8
 * (ARCHITECTURE.md §4 "Time"), so a filter typed as local time is sent 8 hours earlier.
 */

/** The platform's home time zone: UTC+8, no daylight saving. */
export const HOME_OFFSET_MINUTES = 8 * 60;
const OFFSET_MS = HOME_OFFSET_MINUTES * 60_000;

const RESPONSE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?Z?$/;
const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** Epoch ms of a calendar time, or undefined when a part is out of range (Feb 30, 24:00, …). */
function strictUtc(parts: RegExpExecArray): number | undefined {
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(parts[i] ?? 0)) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59 || day < 1) return undefined;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls Feb 30 over to Mar 2: a changed day means the date does not exist.
  if (new Date(ms).getUTCDate() !== day) return undefined;
  return ms;
}

function formatParts(ms: number, separator: "T" | " "): string {
  const d = new Date(ms);
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `${separator}${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}

/** Epoch ms of a platform response time (`YYYY-MM-DDTHH:MM:SSZ`), or undefined. */
export function parsePlatformTime(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const match = RESPONSE_TIME.exec(value.trim());
  return match ? strictUtc(match) : undefined;
}

/** The UTC value for the hover title, `YYYY-MM-DD HH:MM:SS UTC`. */
export function formatUtcTitle(value: string | null | undefined): string {
  const ms = parsePlatformTime(value);
  if (ms === undefined) return value ?? "";
  return `${formatParts(ms, " ")} UTC`;
}

/**
 * A filter time typed in UTC+8 (`YYYY-MM-DDTHH:MM` from the DateTimeField, seconds
 * optional) as the UTC filter of §2: `YYYY-MM-DDTHH:MM:SS`, 8 hours earlier. Undefined when the
 * input is not a real time of the calendar.
 */
export function homeInputToUtcFilter(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const match = LOCAL_INPUT.exec(value.trim());
  if (!match) return undefined;
  const ms = strictUtc(match);
  return ms === undefined ? undefined : formatParts(ms - OFFSET_MS, "T");
}

/** A UTC filter (`YYYY-MM-DDTHH:MM:SS`) as the UTC+8 value of a DateTimeField. */
export function utcFilterToHomeInput(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const match = LOCAL_INPUT.exec(value.trim());
  if (!match) return undefined;
  const ms = strictUtc(match);
  return ms === undefined ? undefined : formatParts(ms + OFFSET_MS, "T");
}

/**
 * The console's one way to write a time of UTC+8 per language (pickers and tables alike):
 * English `2026-11-23 20:15:00` (24-hour, year first: no month/day ambiguity), Chinese
 * `2026年11月23日 20:15:00`. Not the browser's own `datetime-local` rendering, which follows the
 * browser's language (`11/23/2026, 08:15:00 PM` for a Chinese console in an English browser).
 */
export type TimeLocale = "en" | "zh-CN";

const HOME_VALUE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** A UTC+8 form value (`YYYY-MM-DDTHH:MM[:SS]`) written in `locale`'s format; anything else as it came. */
export function formatHomeValue(value: string, locale: TimeLocale): string {
  const m = HOME_VALUE.exec(value.trim());
  if (!m || strictUtc(m) === undefined) return value;
  const [, y, mo, d, h, mi, s = "00"] = m;
  const time = `${h}:${mi}:${s}`;
  return locale === "zh-CN" ? `${y}年${Number(mo)}月${Number(d)}日 ${time}` : `${y}-${mo}-${d} ${time}`;
}

/** A platform time (`…Z`) in UTC+8 written in `locale`'s format; an unreadable value as it came. */
export function formatHomeTimeIn(value: string | null | undefined, locale: TimeLocale): string {
  const ms = parsePlatformTime(value);
  if (ms === undefined) return value ?? "";
  return formatHomeValue(formatParts(ms + OFFSET_MS, "T"), locale);
}

// What staff type: either language's format, ISO with `T` or a space, `/` or `.` between the date's
// parts; seconds optional; a date alone is midnight. Full-width digits and colons are read too.
const TYPED = /^(\d{4})\s*(?:[-/.]|年)\s*(\d{1,2})\s*(?:[-/.]|月)\s*(\d{1,2})\s*日?(?:(?:\s+|T|\s*,\s*)(\d{1,2})\s*[:：時时]\s*(\d{1,2})(?:\s*[:：分]\s*(\d{1,2}))?\s*秒?)?$/;

/**
 * A typed time of UTC+8 as the form value `YYYY-MM-DDTHH:MM:SS`, or undefined when it is not a real
 * time of the calendar in a format the field reads.
 */
export function parseHomeValue(text: string): string | undefined {
  const normal = text.trim().replace(/[０-９：]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
  const m = TYPED.exec(normal);
  if (!m) return undefined;
  const parts = [m[1], m[2], m[3], m[4] ?? "0", m[5] ?? "0", m[6] ?? "0"].map(Number) as [number, number, number, number, number, number];
  const canonical = `${pad(parts[0], 4)}-${pad(parts[1])}-${pad(parts[2])}T${pad(parts[3])}:${pad(parts[4])}:${pad(parts[5])}`;
  const check = LOCAL_INPUT.exec(canonical);
  return check && strictUtc(check) !== undefined ? canonical : undefined;
}

/** Now in UTC+8 as a form value (`now` injected for tests). */
export function homeValueNow(now: number = Date.now()): string {
  return formatParts(Math.floor(now / 1000) * 1000 + OFFSET_MS, "T");
}
