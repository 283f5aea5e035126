import { LIMITS } from "@/lib/platform/limits";
import { parseJson, stringifyJson } from "@/lib/platform/json";
import { perDatabase, type SandboxDb } from "../db";
import { sendJson } from "../http";
import { nextId } from "../ids";
import { handle, handleBody, isBlank, isObject, lastMonthStart, parseBodyTime, parseId, queryId, queryInt, queryTime, queryTimeEnd, sendError, sendNotFound, tooLong, utc, type ApiContext, type Json, type ResourceRoutes } from "./common";
import { customerStore } from "./customer-store";
import { identityStore, md5 } from "./identities";
import { queryOrder, SqlFilter } from "./paging";

/** §2.3 built-in event fields (besides id, customerId, event, date, lastUpdated). */
const BUILT_IN_FIELDS = ["targetId", "targetName", "source", "contentName", "score", "tag", "campaign", "campaignName", "referrer", "summary"] as const;
/** §2.3 preset fields of custom events, besides the common ones. */
const LOCATION_FIELDS = ["longitude", "latitude", "country", "province", "city", "county", "location"] as const;
/** §2.3 fields that hold text; a number or an object there is refused rather than stored as is. */
const TEXT_FIELDS = ["targetId", "targetName", "source", "contentName", "tag", "campaign", "campaignName", "referrer", "summary"] as const;
/** §2.3 location fields of custom events that hold text (ignored, like any other extra, on built-in events). */
const LOCATION_TEXT_FIELDS = ["country", "province", "city", "county", "location"] as const;
/** §2.3 location fields of custom events that are BigDecimal. */
const DECIMAL_FIELDS = ["longitude", "latitude"] as const;
/** Request fields that steer the call and are not stored as properties. */
const CONTROL_FIELDS = new Set(["id", "customerId", "event", "date", "lastUpdated", "externalId", "externalIdGenerator", "identityType", "identityValue", "identityName"]);
/** §2.3 / §8: at most 53 custom properties per custom event type: 40 string, 3 numeric (count), 10 money. */
export const CUSTOM_PROPERTY_LIMITS = { string: LIMITS.customProperties.string, count: LIMITS.customProperties.number, money: LIMITS.customProperties.money } as const;
type PropKind = keyof typeof CUSTOM_PROPERTY_LIMITS;

export type FieldProblem = { fieldName: string; message: string };
export type EventInput = { event: string; date: number; externalId: string; score: number; doc: Json };
export type EventRow = { id: bigint; customer_id: bigint; event: string; date: bigint; last_updated: bigint; external_id: string; doc: string };

function kindOf(value: unknown): PropKind | null {
  if (typeof value === "string") return "string";
  if (typeof value === "number") return Number.isInteger(value) ? "count" : "money";
  if (typeof value === "bigint") return "count";
  return null;
}

/** Sorted-key JSON, so that the md5 of the same content is the same whatever the key order (§2.3 rule 2). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(",")}}`;
  }
  return stringifyJson(value ?? null);
}

/**
 * Validates one event (§2.3, §8) and works out its `externalId` (§2.3 duplicate handling).
 * `prefix` names the item in a batch (`events[3].`).
 */
export function parseEvent(raw: Json, nowMs: number, prefix = ""): { input?: EventInput; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const bad = (field: string, message: string) => problems.push({ fieldName: `${prefix}${field}`, message });
  const event = raw.event;
  if (typeof event !== "string" || event === "") bad("event", "event is required");
  else if (event.length > LIMITS.eventId || !/^[\x21-\x7e]+$/.test(event)) bad("event", `event must be at most ${LIMITS.eventId} ASCII characters`);
  let date = nowMs;
  if (!isBlank(raw.date)) {
    const ms = parseBodyTime(raw.date);
    if (ms === null) bad("date", "date must be a UTC time YYYY-MM-DDTHH:MM:SSZ");
    else date = ms;
  }
  for (const f of TEXT_FIELDS) if (!isBlank(raw[f]) && typeof raw[f] !== "string") bad(f, `${f} must be a string`);
  for (const f of ["targetId", "targetName", "tag"] as const) if (tooLong(raw[f], LIMITS.eventTarget)) bad(f, `${f} must be at most ${LIMITS.eventTarget} characters`);
  if (typeof event === "string" && event.startsWith("c_")) {
    for (const f of LOCATION_TEXT_FIELDS) if (!isBlank(raw[f]) && typeof raw[f] !== "string") bad(f, `${f} must be a string`);
    for (const f of DECIMAL_FIELDS) if (!isBlank(raw[f]) && typeof raw[f] !== "number") bad(f, `${f} must be a number`);
  }
  if (tooLong(raw.summary, LIMITS.eventSummaryBytes)) bad("summary", `summary must be a string of at most ${LIMITS.eventSummaryBytes} characters`);
  let score = 0;
  if (!isBlank(raw.score)) {
    if (typeof raw.score !== "number" || !Number.isInteger(raw.score)) bad("score", "score must be an integer");
    else score = raw.score;
  }
  const generator = raw.externalIdGenerator;
  if (!isBlank(generator) && generator !== "md5" && generator !== "date") bad("externalIdGenerator", "externalIdGenerator must be md5, date or empty");
  if (!isBlank(raw.externalId) && !["string", "number", "bigint"].includes(typeof raw.externalId)) bad("externalId", "externalId must be a string");
  const custom = typeof event === "string" && event.startsWith("c_");
  const doc: Json = {};
  for (const f of BUILT_IN_FIELDS) if (!isBlank(raw[f])) doc[f] = raw[f];
  if (custom) {
    for (const f of LOCATION_FIELDS) if (!isBlank(raw[f])) doc[f] = raw[f];
    for (const [key, value] of Object.entries(raw)) {
      if (CONTROL_FIELDS.has(key) || (BUILT_IN_FIELDS as readonly string[]).includes(key) || (LOCATION_FIELDS as readonly string[]).includes(key) || isBlank(value)) continue;
      if (kindOf(value) === null) bad(key, `custom property ${key} must be a string or a number`);
      else doc[key] = value;
    }
  }
  if (problems.length > 0) return { problems };
  let externalId: string;
  if (!isBlank(raw.externalId)) externalId = String(raw.externalId);
  else if (generator === "md5") {
    const content = { ...raw };
    delete content.externalIdGenerator;
    externalId = md5(canonical(content));
  } else externalId = String(date);
  return { input: { event: event as string, date, externalId, score, doc }, problems };
}

const customTypeStatements = perDatabase((db) => ({
  read: db.prepare("SELECT props FROM custom_event_types WHERE tenant_id = ? AND event = ?"),
  write: db.prepare("INSERT INTO custom_event_types (tenant_id, event, props) VALUES (?, ?, ?) ON CONFLICT (tenant_id, event) DO UPDATE SET props = excluded.props"),
}));

type PropKinds = Record<string, PropKind>;

/**
 * §2.3: the custom properties of a custom event type, defined on first use, within the 53-property
 * limits. `pending` carries the definitions made by earlier items of the same batch, so that a batch
 * cannot pass the limits by spreading new properties over several events.
 */
function checkCustomProperties(db: SandboxDb, tenant: number, input: EventInput, prefix: string, save: boolean, pending?: Map<string, PropKinds>): FieldProblem[] {
  if (!input.event.startsWith("c_")) return [];
  let props = pending?.get(input.event);
  if (!props) {
    const row = customTypeStatements(db).read.get(tenant, input.event) as { props: string } | undefined;
    props = (row ? JSON.parse(row.props) : {}) as PropKinds;
    pending?.set(input.event, props);
  }
  const problems: FieldProblem[] = [];
  let changed = false;
  for (const [key, value] of Object.entries(input.doc)) {
    if ((BUILT_IN_FIELDS as readonly string[]).includes(key) || (LOCATION_FIELDS as readonly string[]).includes(key)) continue;
    const kind = kindOf(value)!;
    const defined = props[key];
    if (defined) {
      // A money property takes whole amounts too; a count (numeric) property only whole numbers.
      const fits = defined === "string" ? kind === "string" : defined === "money" ? kind !== "string" : kind === "count";
      if (!fits) problems.push({ fieldName: `${prefix}${key}`, message: `${key} is a ${defined === "count" ? "numeric (whole number)" : defined} property of ${input.event}` });
      continue;
    }
    const used = Object.values(props).filter((k) => k === kind).length;
    if (used >= CUSTOM_PROPERTY_LIMITS[kind]) {
      problems.push({ fieldName: `${prefix}${key}`, message: `${input.event} already has ${CUSTOM_PROPERTY_LIMITS[kind]} ${kind} properties (at most 53: 40 string, 3 numeric, 10 money)` });
      continue;
    }
    props[key] = kind;
    changed = true;
  }
  if (save && changed && problems.length === 0) {
    customTypeStatements(db).write.run(tenant, input.event, JSON.stringify(props));
  }
  return problems;
}

export class EventStore {
  private readonly insertStmt;
  private readonly findDup;

  constructor(readonly db: SandboxDb) {
    this.insertStmt = db.prepare(
      `INSERT INTO customer_events (id, tenant_id, customer_id, event, date, last_updated, external_id, score, doc)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.findDup = db
      .prepare("SELECT id, customer_id, event, date, last_updated, external_id, doc FROM customer_events WHERE customer_id = ? AND event = ? AND external_id = ? AND tenant_id = ?")
      .safeIntegers(true);
  }

  /**
   * Checks the custom-property limits without saving anything (for all-or-nothing batches); give the
   * items of one batch the same `pending` map so that they count together.
   */
  check(tenant: number, input: EventInput, prefix = "", pending: Map<string, PropKinds> = new Map()): FieldProblem[] {
    return checkCustomProperties(this.db, tenant, input, prefix, false, pending);
  }

  /** Records an event; a duplicate `externalId` (§2.3) returns the stored record instead. */
  record(tenant: number, customerId: bigint, input: EventInput, now: number): { row: EventRow; duplicate: boolean } {
    const dup = this.findDup.get(customerId, input.event, input.externalId, tenant) as EventRow | undefined;
    if (dup) return { row: dup, duplicate: true };
    checkCustomProperties(this.db, tenant, input, "", true);
    const id = nextId(this.db, "event");
    const doc = stringifyJson(input.doc);
    this.insertStmt.run(id, tenant, customerId, input.event, input.date, now, input.externalId, input.score, doc);
    return {
      row: { id, customer_id: customerId, event: input.event, date: BigInt(input.date), last_updated: BigInt(now), external_id: input.externalId, doc },
      duplicate: false,
    };
  }
}

export const eventStore = perDatabase((db) => new EventStore(db));

export function toEvent(row: EventRow): Json {
  const doc = parseJson(row.doc) as Json;
  const out: Json = { id: row.id, customerId: row.customer_id, event: row.event, date: utc(row.date) };
  for (const f of BUILT_IN_FIELDS) out[f] = doc[f] ?? null;
  if (row.event.startsWith("c_")) for (const [k, v] of Object.entries(doc)) if (!(k in out)) out[k] = v;
  out.externalId = row.external_id;
  out.lastUpdated = utc(row.last_updated);
  return out;
}

const EVENT_COLUMNS = "id, customer_id, event, date, last_updated, external_id, doc";
const SORTS: Record<string, string> = { id: "id", lastUpdated: "last_updated", date: "date", event: "event", customerId: "customer_id" };
const TENANT_ORDER_INDEXES: Record<string, string> = {
  id: "INDEXED BY customer_events_tenant",
  last_updated: "INDEXED BY customer_events_tenant_updated",
  date: "INDEXED BY customer_events_tenant_date",
};

/** The customer of a collected event (§4.3 pushevent); an unknown identity gets a new customer bound to it. */
function customerForIdentity(db: SandboxDb, tenant: number, type: string, value: string, now: number): { id: bigint; created: boolean } {
  const identity = identityStore(db).lookup(tenant, type, value);
  if (identity) return { id: identity.customer_id, created: false };
  const id = customerStore(db).insert(tenant, type === "mobile" ? { mobile: value } : type === "email" ? { email: value } : {}, now);
  identityStore(db).bind(tenant, id, { identityType: type, identityValue: value, identityName: null }, now);
  return { id, created: true };
}

function identityProblems(raw: Json, prefix: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (typeof raw.identityType !== "string" || raw.identityType === "") problems.push({ fieldName: `${prefix}identityType`, message: "identityType is required" });
  else if (tooLong(raw.identityType, LIMITS.identityType)) problems.push({ fieldName: `${prefix}identityType`, message: `identityType must be at most ${LIMITS.identityType} characters` });
  const value = raw.identityValue;
  if (!((typeof value === "string" && value !== "") || typeof value === "number" || typeof value === "bigint")) problems.push({ fieldName: `${prefix}identityValue`, message: "identityValue is required" });
  else if (tooLong(String(value), LIMITS.identityValue)) problems.push({ fieldName: `${prefix}identityValue`, message: `identityValue must be at most ${LIMITS.identityValue} characters` });
  return problems;
}

export const MAX_BATCH_EVENTS = LIMITS.eventsPerBatch;

export const eventRoutes: ResourceRoutes = (app, ctx, publish) => {
  const published = (tenantId: number, row: EventRow) => publish(tenantId, "event", "created", row.id, { customerId: String(row.customer_id), event: row.event });
  const invalid = (c: ApiContext, problems: FieldProblem[]) => sendError(c, "400", problems[0]!.message, problems);

  app.post(
    "/v1/customerevents",
    handleBody((c, body, tenant) => {
      const customerId = parseId(body.customerId);
      if (customerId === null) return invalid(c, [{ fieldName: "customerId", message: "customerId is required and must be a number" }]);
      const now = ctx.clock.nowMs();
      const parsed = parseEvent(body, now);
      if (!parsed.input) return invalid(c, parsed.problems);
      if (!customerStore(ctx.db).get(tenant, customerId)) return sendNotFound(c, `customer ${customerId}`);
      const store = eventStore(ctx.db);
      const limits = store.check(tenant, parsed.input);
      if (limits.length > 0) return invalid(c, limits);
      const { row, duplicate } = ctx.db.transaction(() => store.record(tenant, customerId, parsed.input!, now))();
      if (!duplicate) published(tenant, row);
      return sendJson(c, toEvent(row));
    }),
  );

  app.post(
    "/v1/collector/pushevent",
    handleBody((c, body, tenant) => {
      const now = ctx.clock.nowMs();
      const problems = identityProblems(body, "");
      const parsed = parseEvent(body, now);
      if (problems.length > 0 || !parsed.input) return invalid(c, [...problems, ...parsed.problems]);
      const store = eventStore(ctx.db);
      const limits = store.check(tenant, parsed.input);
      if (limits.length > 0) return invalid(c, limits);
      const result = ctx.db.transaction(() => {
        const customer = customerForIdentity(ctx.db, tenant, body.identityType as string, String(body.identityValue), now);
        return { customer, ...store.record(tenant, customer.id, parsed.input!, now) };
      })();
      if (result.customer.created) publish(tenant, "customer", "created", result.customer.id);
      if (!result.duplicate) published(tenant, result.row);
      return sendJson(c, { success: true });
    }),
  );

  app.post(
    "/v1/collector/batchPushEvents",
    handleBody((c, body, tenant) => {
      const events = body.events;
      if (!Array.isArray(events) || events.length === 0) return invalid(c, [{ fieldName: "events", message: "events is required: an array of 1 to 100 events" }]);
      if (events.length > MAX_BATCH_EVENTS) return invalid(c, [{ fieldName: "events", message: `events may hold at most ${MAX_BATCH_EVENTS} items` }]);
      if (body.commonProps !== undefined && body.commonProps !== null && !isObject(body.commonProps)) {
        return invalid(c, [{ fieldName: "commonProps", message: "commonProps must be an object" }]);
      }
      const common = (body.commonProps ?? {}) as Json;
      const now = ctx.clock.nowMs();
      const store = eventStore(ctx.db);
      const items: Array<{ raw: Json; input: EventInput }> = [];
      const problems: FieldProblem[] = [];
      const pending = new Map<string, PropKinds>();
      events.forEach((item, i) => {
        const prefix = `events[${i}].`;
        if (!isObject(item)) return problems.push({ fieldName: `events[${i}]`, message: "each event must be an object" });
        // §4.3: commonProps are added to every event and win over the event's own property.
        const raw = { ...item, ...common };
        problems.push(...identityProblems(raw, prefix));
        const parsed = parseEvent(raw, now, prefix);
        problems.push(...parsed.problems);
        if (parsed.input) {
          problems.push(...store.check(tenant, parsed.input, prefix, pending));
          items.push({ raw, input: parsed.input });
        }
      });
      if (problems.length > 0) return invalid(c, problems);
      const results = ctx.db.transaction(() =>
        items.map(({ raw, input }) => {
          const customer = customerForIdentity(ctx.db, tenant, raw.identityType as string, String(raw.identityValue), now);
          return { customer, ...store.record(tenant, customer.id, input, now) };
        }),
      )();
      for (const r of results) {
        if (r.customer.created) publish(tenant, "customer", "created", r.customer.id);
        if (!r.duplicate) published(tenant, r.row);
      }
      return sendJson(c, { success: true });
    }),
  );

  app.get(
    "/v1/customerevents/:id",
    handle((c, tenant) => {
      const id = parseId(c.req.param("id"));
      const row =
        id === null
          ? undefined
          : (ctx.db.prepare(`SELECT ${EVENT_COLUMNS} FROM customer_events WHERE id = ? AND tenant_id = ? AND date >= ?`).safeIntegers(true).get(id, tenant, lastMonthStart(ctx.clock.nowMs())) as
              | EventRow
              | undefined);
      if (!row) return sendNotFound(c, `event ${c.req.param("id")}`);
      return sendJson(c, toEvent(row));
    }),
  );

  app.get(
    "/v1/customerevents",
    handle((c, tenant) => {
      // §4.3 / §8: only events of the last month.
      const filter = new SqlFilter("tenant_id = ?", tenant).add("date >= ?", lastMonthStart(ctx.clock.nowMs()));
      const customerId = queryId(c, "customerId");
      filter.addIf("customer_id = ?", customerId);
      const types = (c.req.query("event") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
      if (types.length > 0) filter.add(`event IN (${types.map(() => "?").join(",")})`, ...types);
      filter.addIf("id >= ?", queryId(c, "idFrom")).addIf("id <= ?", queryId(c, "idTo"));
      filter.addIf("last_updated >= ?", queryTime(c, "lastUpdatedFrom")).addIf("last_updated <= ?", queryTimeEnd(c, "lastUpdatedTo"));
      const max = queryInt(c, "max", 20, 1, LIMITS.eventQueryMax);
      const order = queryOrder(c, SORTS, "id");
      // Without a customer, walk the index in the requested order rather than sort a month of events
      // (SQLite would otherwise pick the date range and sort it).
      const hint = customerId !== undefined ? "" : (TENANT_ORDER_INDEXES[order.column] ?? "");
      const rows = ctx.db
        .prepare(`SELECT ${EVENT_COLUMNS} FROM customer_events ${hint} WHERE ${filter.sql} ORDER BY ${order.sql} LIMIT ?`)
        .safeIntegers(true)
        .all(...filter.params, max) as EventRow[];
      return sendJson(c, rows.map(toEvent));
    }),
  );
};

