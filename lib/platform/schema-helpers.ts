import { z } from "zod";
import { isPlatformId, isPlatformIdList } from "./ids";
import { longerThan } from "./limits";

/**
 * Building blocks of the operation table's schemas. Every helper stays convertible with
 * `z.toJSONSchema(schema, { io: "input" })` (the sandbox's /openapi.json): coercions are written as
 * `z.preprocess` (rendered as their target type), never as `.transform` or `z.bigint()`.
 */


/** Schemas of ids (`platformId()`), found by `idFieldsOf` to write ids as JSON integers. */
const ID_SCHEMAS = new WeakSet<object>();
/** Response schemas that are strings but may come as numbers (external ids, task ids). */
const TEXT_SCHEMAS = new WeakSet<object>();

const NOT_AN_ID = Symbol("not an id");

/**
 * A 64-bit platform id (§2: `Long`). Accepts a bigint (lossless parse of platform JSON), a safe
 * integer number or a string of digits; yields the decimal string. Ids are strings everywhere in
 * TypeScript and in the app's own JSON, and go to the platform as JSON integers (see `toWire`).
 * JSON Schema: `{type: "integer", format: "int64"}`. (Checked in the preprocess, not a refinement:
 * zod runs it on its fast path, which matters for 50-row responses.)
 */
export function platformId(description = "64-bit id (§2)") {
  const schema = z
    .preprocess(
      (value) => {
        let text: unknown = value;
        if (typeof value === "bigint") text = value.toString();
        else if (typeof value === "number") text = Number.isSafeInteger(value) ? String(value) : NOT_AN_ID;
        else if (typeof value === "string") text = value.trim();
        if (typeof text === "string" && !isPlatformId(text)) return NOT_AN_ID;
        return text;
      },
      z.string({ error: "must be an id: a positive 64-bit integer" }),
    )
    .meta({ type: "integer", format: "int64", description, pattern: undefined });
  ID_SCHEMAS.add(schema);
  return schema;
}

export const id = platformId();

/** True for a schema made by `platformId()`. */
export function isIdSchema(schema: unknown): boolean {
  return typeof schema === "object" && schema !== null && ID_SCHEMAS.has(schema);
}

/** Comma-separated ids in a query (`idList`, `customerIds`); an array of ids is joined. */
export const idListParam = z
  .preprocess(
    (value) => (Array.isArray(value) ? value.map((v) => String(v)).join(",") : typeof value === "string" ? value.replace(/\s+/g, "") : value),
    z.string().refine((s) => isPlatformIdList(s), "must be comma-separated ids"),
  )
  .meta({ type: "string", description: "comma-separated 64-bit ids", pattern: "^\\d+(,\\d+)*$" });

/** An integer in a query string ("20") or in JSON (20). */
export function intParam(min?: number, max?: number) {
  let schema = z.number({ error: "must be an integer" }).int("must be an integer");
  if (min !== undefined) schema = schema.min(min);
  if (max !== undefined) schema = schema.max(max);
  return z.preprocess((value) => (typeof value === "string" && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value), schema);
}

/** A boolean in a query string ("true"/"false") or in JSON. */
export const boolParam = z.preprocess(
  (value) => (value === "true" ? true : value === "false" ? false : value),
  z.boolean({ error: 'must be true or false' }),
);

/** §2: timestamp query filters are UTC `YYYY-MM-DDTHH:MM:SS`. */
export const utcFilter = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/, "must be a UTC time YYYY-MM-DDTHH:MM:SS")
  .meta({ description: "UTC, YYYY-MM-DDTHH:MM:SS (§2)" });

/** §4.3: event `lastUpdated` filters are written `YYYY-MM-DDTHH:MM:SSZ`; the bare form is accepted too. */
export const utcFilterZ = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z?$/, "must be a UTC time YYYY-MM-DDTHH:MM:SSZ")
  .meta({ description: "UTC, YYYY-MM-DDTHH:MM:SSZ (§4.3)" });

/** A UTC time in a request body (order dates, cancel/refund dates). */
export const utcBodyTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}Z?$/, "must be a UTC time YYYY-MM-DDTHH:MM:SSZ")
  .meta({ description: "UTC, YYYY-MM-DDTHH:MM:SSZ (§2)" });

export const sord = z.enum(["asc", "desc"], { error: "must be asc or desc" });

/** A string capped at `max` characters (§8), counted as the platform counts them: code points. */
export function text(max?: number) {
  const s = z.string({ error: "must be a string" });
  return max === undefined ? s : s.refine((v) => !longerThan(v, max), `at most ${max} characters`).meta({ maxLength: max });
}

/** A response string field: absent or empty fields come back as `null` (§2). */
export const outText = z.string().nullish();
/** A response time: UTC `YYYY-MM-DDTHH:MM:SSZ` (§2); not enforced, the console formats it. */
export const outTime = z.string().nullish();

/** A response value that is a string or a number on the wire (external ids, task ids): a string. */
export const textOrNumber = z.preprocess(
  (value) => (typeof value === "bigint" || typeof value === "number" ? String(value) : value),
  z.string(),
);
TEXT_SCHEMAS.add(textOrNumber);

/** A response id that may be absent. */
export const outId = platformId().nullish();

/**
 * A BigDecimal (§2.1, §2.4): a JSON number; a numeric string is accepted too. Amounts never reach
 * 2^53, so a number is exact enough to show; a bigint from the lossless parser becomes a number.
 */
export const decimal = z.preprocess(
  (value) => (typeof value === "bigint" ? Number(value) : typeof value === "string" && value.trim() !== "" && !Number.isNaN(Number(value)) ? Number(value) : value),
  z.number({ error: "must be a number" }),
);

/** Response integers; a bigint (only above 2^53) becomes a number. */
export const outInt = z.preprocess((value) => (typeof value === "bigint" ? Number(value) : value), z.number()).nullish();

/**
 * Where in a schema ids live: the object keys whose value is an id (or array of ids), anywhere in
 * the schema. `toWire` turns the string ids under these keys back into JSON integers for the platform;
 * `quoteIds` turns integers under these keys of a response into strings (`includeText` adds the
 * string-or-number fields).
 */
export function idFieldsOf(schema: z.ZodType | undefined, options: { includeText?: boolean } = {}): Set<string> {
  const keys = new Set<string>();
  // Returns true when `s` holds ids (itself, or an array/union/wrapper of ids).
  const visit = (s: unknown): boolean => {
    if (!s || typeof s !== "object") return false;
    if (isIdSchema(s) || (options.includeText && TEXT_SCHEMAS.has(s))) return true;
    const def = (s as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
    if (!def) return false;
    switch (def.type) {
      case "object":
        for (const [key, value] of Object.entries(def.shape as Record<string, unknown>)) if (visit(value)) keys.add(key);
        if (def.catchall) visit(def.catchall);
        return false;
      case "array":
        return visit(def.element);
      case "optional":
      case "nullable":
      case "default":
      case "prefault":
      case "readonly":
      case "nonoptional":
      case "catch":
        return visit(def.innerType);
      case "union":
        return (def.options as unknown[]).map(visit).some(Boolean);
      case "intersection":
        return [visit(def.left), visit(def.right)].some(Boolean);
      case "pipe":
        return [visit(def.in), visit(def.out)].some(Boolean);
      case "record":
        visit(def.valueType);
        return false;
      default:
        return false;
    }
  };
  visit(schema);
  return keys;
}

/**
 * The body as the platform must receive it: string ids under `idKeys` become bigint, which
 * `stringifyJson` writes as bare JSON integers (§2: ids are `Long`). Everything else is copied as is.
 */
export function toWire(value: unknown, idKeys: ReadonlySet<string>): unknown {
  if (idKeys.size === 0 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => toWire(v, idKeys));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (idKeys.has(key)) out[key] = idToWire(v, idKeys);
    else out[key] = toWire(v, idKeys);
  }
  return out;
}

function idToWire(value: unknown, idKeys: ReadonlySet<string>): unknown {
  if (typeof value === "string" && isPlatformId(value)) return BigInt(value);
  if (Array.isArray(value)) return value.map((v) => idToWire(v, idKeys));
  return toWire(value, idKeys);
}
