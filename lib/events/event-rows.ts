import { longerThan } from "@/lib/platform/limits";
import {
  COORDINATE_FIELDS,
  EVENT_LIMITS,
  eventIdProblem,
  eventTimeToUtc,
  isCustomEvent,
  LOCATION_TEXT_FIELDS,
  parseDecimal,
  parseInteger,
  propertyLimitProblems,
  propertyNameProblem,
  TEXT_FIELDS,
  textFieldProblem,
  type EventProblem,
  type PropertyKind,
} from "./event-fields";

/**
 * The CSV format of an event import (documented on the /events page) and the mapping of one row to a
 * §4.3 `batchPushEvents` item:
 * - required columns `identityType`, `identityValue`, `event`, `date`;
 * - `date` is `YYYY-MM-DD HH:MM:SS` in UTC+8 (the platform's home time, as the console shows it), or
 *   UTC with a trailing `Z` (`2026-11-20T08:00:00Z`);
 * - optional `externalId` (§2.3 duplicate rule 1), the built-in fields `targetId`, `targetName`,
 *   `source`, `contentName`, `score`, `tag`, `campaign`, `campaignName`, `referrer`, `summary`, and
 *   for custom (`c_`) events `longitude`, `latitude`, `country`, `province`, `city`, `county`, `location`;
 * - any other column is a custom property of `c_` events, typed by a suffix: `color` or
 *   `color:string`, `visits:number` (whole numbers), `price:money` (decimals); at most 40 / 3 / 10 (§8).
 * Empty cells are left out. Column names are matched exactly; their order does not matter.
 */

export const REQUIRED_COLUMNS = ["identityType", "identityValue", "event", "date"] as const;
const KNOWN_COLUMNS = new Set<string>([...REQUIRED_COLUMNS, "externalId", "score", ...TEXT_FIELDS, ...LOCATION_TEXT_FIELDS, ...COORDINATE_FIELDS]);
const KIND_SUFFIX: Record<string, PropertyKind> = { "": "string", string: "string", number: "number", money: "money" };

export type Column = { index: number; header: string; name: string; kind: "field" | PropertyKind };

export type HeaderProblem =
  | { code: "missingColumn"; column: string }
  | { code: "duplicateColumn"; column: string }
  | { code: "badColumn"; column: string }
  | { code: "tooManyProperties"; kind: PropertyKind; max: number };

export type ImportPlan = { header: string[]; columns: Column[] };

/** The columns of the header row, or what is wrong with it (the import cannot start then). */
export function planColumns(header: readonly string[]): { plan?: ImportPlan; problems: HeaderProblem[] } {
  const problems: HeaderProblem[] = [];
  const columns: Column[] = [];
  const seen = new Set<string>();
  header.forEach((raw, index) => {
    const text = raw.trim();
    if (text === "") return; // a trailing comma in the header: an unnamed, ignored column
    const [name = "", suffix = "", extra] = text.split(":");
    if (seen.has(name)) return problems.push({ code: "duplicateColumn", column: text });
    seen.add(name);
    if (KNOWN_COLUMNS.has(name) && suffix === "" && extra === undefined) return columns.push({ index, header: raw, name, kind: "field" });
    const kind = KIND_SUFFIX[suffix];
    if (!kind || extra !== undefined || propertyNameProblem(name)) return problems.push({ code: "badColumn", column: text });
    columns.push({ index, header: raw, name, kind });
  });
  for (const column of REQUIRED_COLUMNS) if (!seen.has(column)) problems.push({ code: "missingColumn", column });
  for (const p of propertyLimitProblems(columns.flatMap((c) => (c.kind === "field" ? [] : [c.kind])))) {
    if (p.code === "tooManyProperties") problems.push(p);
  }
  return problems.length > 0 ? { problems } : { plan: { header: [...header], columns }, problems };
}

/** One event of `batchPushEvents` (§4.3): identity, event fields and custom properties. */
export type EventItem = Record<string, string | number>;

export type RowProblem = EventProblem & { column: string };

/** What `rowToEvent` needs of a column, worked out once per plan rather than per cell. */
type PreparedColumn = Column & { label: string; required: boolean; customOnly: boolean };
type PreparedPlan = { columns: PreparedColumn[]; type: Column | undefined };
const prepared = new WeakMap<ImportPlan, PreparedPlan>();

function prepare(plan: ImportPlan): PreparedPlan {
  let p = prepared.get(plan);
  if (!p) {
    p = {
      type: plan.columns.find((c) => c.name === "event"),
      columns: plan.columns.map((c) => ({
        ...c,
        label: c.header.trim(),
        required: (REQUIRED_COLUMNS as readonly string[]).includes(c.name),
        // Built-in events keep only built-in fields (§2.3): a value here would be dropped silently.
        customOnly: c.kind !== "field" || (LOCATION_TEXT_FIELDS as readonly string[]).includes(c.name) || (COORDINATE_FIELDS as readonly string[]).includes(c.name),
      })),
    };
    prepared.set(plan, p);
  }
  return p;
}

/** At most `max` characters (code points); the spread only runs where UTF-16 units exceed it. */
/**
 * A data row to an event item, or the problems of its cells (each named by its column). Runs once per
 * row of a file of any size: no closures or copies per cell.
 */
export function rowToEvent(plan: ImportPlan, fields: readonly string[]): { event?: EventItem; problems: RowProblem[] } {
  const { columns, type } = prepare(plan);
  let problems: RowProblem[] | undefined;
  const event: EventItem = {};
  const eventId = type ? (fields[type.index] ?? "").trim() : "";
  const custom = isCustomEvent(eventId);
  for (const c of columns) {
    const value = (fields[c.index] ?? "").trim();
    let p: EventProblem | undefined;
    if (value === "") {
      if (c.required) p = { code: "required" };
    } else if (c.customOnly && !custom) {
      p = { code: "customOnly" };
    } else {
      switch (c.name) {
        case "event":
          p = eventIdProblem(value);
          if (!p) event.event = value;
          break;
        case "identityType":
        case "identityValue": {
          const max = EVENT_LIMITS[c.name];
          if (longerThan(value, max)) p = { code: "tooLong", max };
          else event[c.name] = value;
          break;
        }
        case "date": {
          const utc = eventTimeToUtc(value);
          if (!utc) p = { code: "date" };
          else event.date = utc;
          break;
        }
        case "score": {
          const n = parseInteger(value);
          if (n === undefined) p = { code: "integer" };
          else event.score = n;
          break;
        }
        case "longitude":
        case "latitude": {
          const n = parseDecimal(value);
          const max = c.name === "longitude" ? 180 : 90;
          if (n === undefined) p = { code: "decimal" };
          else if (Math.abs(n) > max) p = { code: "range", min: -max, max };
          else event[c.name] = n;
          break;
        }
        default:
          if (c.kind === "field") {
            p = textFieldProblem(c.name, value);
            if (!p) event[c.name] = value;
          } else if (c.kind === "string") event[c.name] = value;
          else if (c.kind === "number") {
            const n = parseInteger(value);
            if (n === undefined) p = { code: "integer" };
            else event[c.name] = n;
          } else {
            const n = parseDecimal(value);
            if (n === undefined) p = { code: "decimal" };
            else event[c.name] = n;
          }
      }
    }
    if (p) (problems ??= []).push({ ...p, column: c.label });
  }
  // Cells past the header (a comma too many, an unquoted comma in a value) belong to no column: the
  // row is flagged rather than sent without them.
  if (fields.length > plan.header.length) {
    let extra = 0;
    for (let i = plan.header.length; i < fields.length; i++) if (fields[i]!.trim() !== "") extra += 1;
    if (extra > 0) (problems ??= []).push({ code: "extraCells", count: extra, max: plan.header.length, column: `#${plan.header.length + 1}` });
  }
  return problems ? { problems } : { event, problems: [] };
}
