import { LIMITS, longerThan } from "@/lib/platform/limits";

/**
 * The rules of a customer event (§2.3, §8), shared by the recording form and the CSV import, so that
 * both refuse the same things before anything is sent.
 */

/**
 * Built-in event type ids. §2.3 says their list is not shown; these are the ones the platform (and
 * the sandbox: seed data, §4.1 unbinding) is known to record. Any other id without `c_` is allowed
 * too; the console names these.
 */
export const BUILT_IN_EVENT_TYPES = ["open_page", "click_link", "submit_form", "messenger_follow", "messenger_message", "messenger_unbind"] as const;

/** §8 limits of event fields, by field. */
export const EVENT_LIMITS = {
  event: LIMITS.eventId,
  targetId: LIMITS.eventTarget,
  targetName: LIMITS.eventTarget,
  tag: LIMITS.eventTarget,
  summaryBytes: LIMITS.eventSummaryBytes,
  identityType: LIMITS.identityType,
  identityValue: LIMITS.identityValue,
} as const;

/** §2.3 / §8: at most 53 custom properties per custom event type: 40 string, 3 numeric (count), 10 money. */
export const CUSTOM_PROPERTY_LIMITS = LIMITS.customProperties;
export type PropertyKind = keyof typeof CUSTOM_PROPERTY_LIMITS;

/** Built-in text fields of every event (§2.3). */
export const TEXT_FIELDS = ["targetId", "targetName", "source", "contentName", "tag", "campaign", "campaignName", "referrer", "summary"] as const;
/** Location fields of custom events (§2.3): text, and longitude/latitude (BigDecimal). */
export const LOCATION_TEXT_FIELDS = ["country", "province", "city", "county", "location"] as const;
export const COORDINATE_FIELDS = ["longitude", "latitude"] as const;
/** Names a custom property cannot take: they are fields of the event itself. */
export const RESERVED_NAMES = new Set<string>([
  "id", "customerId", "event", "date", "lastUpdated", "score", "externalId", "externalIdGenerator", "identityType", "identityValue", "identityName",
  ...TEXT_FIELDS, ...LOCATION_TEXT_FIELDS, ...COORDINATE_FIELDS,
]);

export type EventProblem =
  | { code: "required" }
  | { code: "tooLong"; max: number }
  | { code: "eventId" }
  | { code: "integer" }
  | { code: "decimal" }
  | { code: "range"; min: number; max: number }
  | { code: "date" }
  | { code: "customOnly" }
  | { code: "propertyName" }
  | { code: "tooManyProperties"; kind: PropertyKind; max: number }
  /** A CSV row with filled cells past the header's last column: they belong to no column. */
  | { code: "extraCells"; count: number; max: number };

export function isCustomEvent(event: string): boolean {
  return event.startsWith("c_");
}

/** §8: an event type id: 1–32 printable ASCII characters (no spaces); a custom one starts with `c_` and has a name after it. */
export function eventIdProblem(event: string): EventProblem | undefined {
  if (event === "") return { code: "required" };
  if (longerThan(event, EVENT_LIMITS.event)) return { code: "tooLong", max: EVENT_LIMITS.event };
  if (!/^[\x21-\x7e]+$/.test(event) || event === "c_") return { code: "eventId" };
  return undefined;
}

const utf8 = new TextEncoder();
/** §8 "summary: 1024 bytes or characters": the console holds it to 1024 UTF-8 bytes, which satisfies both readings. */
export function summaryTooLong(value: string): boolean {
  return value.length > EVENT_LIMITS.summaryBytes / 3 && utf8.encode(value).length > EVENT_LIMITS.summaryBytes;
}

/** The problem of a built-in text field's value, if any (§8 lengths). */
export function textFieldProblem(field: string, value: string): EventProblem | undefined {
  if (field === "summary") return summaryTooLong(value) ? { code: "tooLong", max: EVENT_LIMITS.summaryBytes } : undefined;
  const max = (EVENT_LIMITS as Record<string, number>)[field];
  return max !== undefined && longerThan(value, max) ? { code: "tooLong", max } : undefined;
}

const INTEGER = /^[+-]?\d{1,15}$/;
const DECIMAL = /^[+-]?(\d{1,15}(\.\d*)?|\.\d+)$/;

/** A whole number typed as text (score, numeric properties). */
export function parseInteger(text: string): number | undefined {
  return INTEGER.test(text.trim()) ? Number(text.trim()) : undefined;
}

/** A decimal typed as text (money, coordinates); no exponent, no thousands separators. */
export function parseDecimal(text: string): number | undefined {
  return DECIMAL.test(text.trim()) ? Number(text.trim()) : undefined;
}

/** A custom property name: a letter, then letters, digits or `_` (a JSON key the platform can define), not a field of the event. */
export function propertyNameProblem(name: string): EventProblem | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name) || RESERVED_NAMES.has(name)) return { code: "propertyName" };
  return undefined;
}

/** §8: the kinds of properties used, against 40 string / 3 numeric / 10 money. */
export function propertyLimitProblems(kinds: Iterable<PropertyKind>): EventProblem[] {
  const counts: Record<PropertyKind, number> = { string: 0, number: 0, money: 0 };
  for (const k of kinds) counts[k] += 1;
  return (Object.keys(CUSTOM_PROPERTY_LIMITS) as PropertyKind[])
    .filter((k) => counts[k] > CUSTOM_PROPERTY_LIMITS[k])
    .map((kind) => ({ code: "tooManyProperties" as const, kind, max: CUSTOM_PROPERTY_LIMITS[kind] }));
}

/**
 * An event time as typed or written in a file, to the platform's UTC `YYYY-MM-DDTHH:MM:SSZ` (§2).
 * `YYYY-MM-DD HH:MM[:SS]` (or with `T`) is UTC+8, the platform's home time zone that the console shows;
 * a trailing `Z` means UTC. Anything else (or an impossible date) is undefined.
 */
const EVENT_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(Z?)$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function eventTimeToUtc(text: string): string | undefined {
  const m = EVENT_TIME.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s = "00", z] = m;
  // Fast path for the usual case (an import calls this per row): a year from 0100 (Date.UTC reads
  // 0000–0099 as 19xx) and a time that stays on its day when made UTC; the fields are checked as
  // the round trip below would, and the text is already zero-padded.
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  if (year >= 100 && (z || hour >= 8) && month >= 1 && month <= 12 && day >= 1 && hour < 24 && Number(mi) < 60 && Number(s) < 60) {
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    if (day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!)) return undefined;
    const utcHour = z ? h : String(hour - 8).padStart(2, "0");
    return `${y}-${mo}-${d}T${utcHour}:${mi}:${s}Z`;
  }
  const localMs = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const back = new Date(localMs);
  // Date.UTC rolls 2026-02-30 over to March: refuse what does not round-trip.
  if (back.getUTCMonth() !== Number(mo) - 1 || back.getUTCDate() !== Number(d) || back.getUTCHours() !== Number(h) || back.getUTCMinutes() !== Number(mi) || back.getUTCSeconds() !== Number(s)) return undefined;
  const utcMs = z ? localMs : localMs - 8 * 3600_000;
  return new Date(utcMs).toISOString().slice(0, 19) + "Z";
}

/**
 * §2.3 duplicate handling, as a choice: `date` (no externalId: the platform uses the Unix ms of the
 * event time, so two events of the same customer and type at the same second are one), `md5` (the md5
 * of the event's content: identical events are one), or `externalId` (your own id: the same id is one event).
 */
export type DuplicateRule = "date" | "md5" | "externalId";
