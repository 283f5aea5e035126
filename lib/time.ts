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

/** A platform time shown in UTC+8, `YYYY-MM-DD HH:MM:SS`; an unreadable value is shown as it came. */
export function formatHomeTime(value: string | null | undefined): string {
  const ms = parsePlatformTime(value);
  if (ms === undefined) return value ?? "";
  return formatParts(ms + OFFSET_MS, " ");
}

/** The UTC value for the hover title, `YYYY-MM-DD HH:MM:SS UTC`. */
export function formatUtcTitle(value: string | null | undefined): string {
  const ms = parsePlatformTime(value);
  if (ms === undefined) return value ?? "";
  return `${formatParts(ms, " ")} UTC`;
}

/**
 * A filter time typed in UTC+8 (`YYYY-MM-DDTHH:MM` from `<input type="datetime-local">`, seconds
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

/** A UTC filter (`YYYY-MM-DDTHH:MM:SS`) as the UTC+8 value of a datetime-local input. */
export function utcFilterToHomeInput(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const match = LOCAL_INPUT.exec(value.trim());
  if (!match) return undefined;
  const ms = strictUtc(match);
  return ms === undefined ? undefined : formatParts(ms + OFFSET_MS, "T");
}
