import { parseJson, stringifyJson } from "@/lib/platform/json";
import { LIMITS } from "@/lib/platform/limits";
import { perDatabase, type SandboxDb } from "../db";
import { nextId } from "../ids";
import { isBlank, isObject, parseBodyTime, tooLong, utc, type Json } from "./common";

/** §2.1 customer fields a client may write, in the order they are returned. */
export const CUSTOMER_FIELDS = [
  "name", "img", "gender", "mobile", "mobileVerified", "email", "emailVerified", "birthday", "messenger", "im",
  "nickName", "country", "province", "city", "county", "homeAddress", "officeAddress", "stage", "dateJoin", "source",
  "contentName", "company", "title", "industry", "employeeNumber", "annualRevenue", "website", "telephone",
  "ownerId", "ownerName", "isMember", "isEmployee", "campaignId", "campaignName", "remark", "attr",
] as const;
type CustomerField = (typeof CUSTOMER_FIELDS)[number];
const WRITABLE = new Set<string>(CUSTOMER_FIELDS);

const BOOLEAN_FIELDS = new Set(["mobileVerified", "emailVerified", "isEmployee", "isMember"]);
/**
 * Fields the sandbox treats as "set as non-modifiable" in the platform settings (§4.1 PUT
 * `forceUpdate`): the initial source and join date. Once set they change only with forceUpdate.
 */
export const NON_MODIFIABLE = ["source", "contentName", "dateJoin"] as const;

export type CustomerDoc = Partial<Record<CustomerField, unknown>>;
export type FieldProblem = { field: string; message: string };

export type CustomerRow = { id: bigint; doc: string; date_created: bigint; last_updated: bigint };

/** §2.1 field rules: types, gender 0/1/2, address lengths (§8), mobile and email formats. */
export function validateCustomerFields(input: Json): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const [field, value] of Object.entries(input)) {
    if (!WRITABLE.has(field) || value === null || value === "") continue;
    const bad = (message: string) => problems.push({ field, message });
    if (field === "gender") {
      if (![0, 1, 2, "0", "1", "2"].includes(value as number)) bad("gender must be 0, 1 or 2");
    } else if (BOOLEAN_FIELDS.has(field)) {
      if (typeof value !== "boolean") bad(`${field} must be true or false`);
    } else if (field === "employeeNumber") {
      if (!Number.isInteger(typeof value === "string" ? Number(value) : value)) bad("employeeNumber must be an integer");
    } else if (field === "annualRevenue") {
      if (!(typeof value === "number" || (typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value)))) bad("annualRevenue must be a number");
    } else if (field === "ownerId") {
      if (!(typeof value === "number" || typeof value === "bigint" || (typeof value === "string" && /^\d+$/.test(value)))) bad("ownerId must be a number");
    } else if (field === "attr") {
      if (!isObject(value)) bad("attr must be an object of attr1, attr2, …");
      else if (Object.keys(value).some((k) => !/^attr\d+$/.test(k))) bad("attr may only hold custom attributes named attr1, attr2, …");
    } else if (typeof value !== "string") {
      bad(`${field} must be a string`);
    } else if (field === "mobile") {
      // Global numbers: "+<country code> <number>", the country code not starting with 0 (§2.1).
      if (!/^(\+[1-9]\d{0,3} \d{4,14}|\d{5,20})$/.test(value)) bad("mobile must be digits, or +<country code> <number>");
    } else if (field === "email") {
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) || value.length > 254) bad("email is not a valid address");
    } else if (field === "birthday") {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || parseBodyTime(value) === null) bad("birthday must be YYYY-MM-DD");
    } else if (field === "homeAddress" || field === "officeAddress") {
      if (tooLong(value, LIMITS.address)) bad(`${field} must be at most ${LIMITS.address} characters`);
    } else if (field === "dateJoin") {
      if (parseBodyTime(value) === null) bad("dateJoin must be a UTC time YYYY-MM-DDTHH:MM:SSZ");
    } else if (tooLong(value, 1024)) {
      bad(`${field} must be at most 1024 characters`);
    }
  }
  return problems;
}

function normalize(field: string, value: unknown): unknown {
  if (field === "gender") return Number(value);
  if (field === "employeeNumber") return Number(value);
  if (field === "annualRevenue" && typeof value === "string") return Number(value);
  if (field === "dateJoin") return utc(parseBodyTime(value));
  return value;
}

export type PatchOptions = { nullAble: boolean; forceUpdate?: boolean };

/**
 * Applies writable fields of `input` to `doc`. Blank values clear a field only when `nullAble`
 * (§4.1 rule 4 / PUT). Non-modifiable fields keep a set value unless `forceUpdate` (PUT only).
 * The verified flags cannot drop to false while their number/address stays the same (§4.1 PUT).
 */
export function patchCustomer(doc: CustomerDoc, input: Json, options: PatchOptions & { guardNonModifiable?: boolean }): CustomerDoc {
  const next: CustomerDoc = { ...doc };
  for (const [field, value] of Object.entries(input)) {
    if (!WRITABLE.has(field)) continue;
    const key = field as CustomerField;
    if (options.guardNonModifiable && !options.forceUpdate && (NON_MODIFIABLE as readonly string[]).includes(field) && !isBlank(doc[key])) continue;
    if (isBlank(value)) {
      if (options.nullAble) delete next[key];
      continue;
    }
    next[key] = normalize(field, value);
  }
  for (const [flag, contact] of [["mobileVerified", "mobile"], ["emailVerified", "email"]] as const) {
    if (doc[flag] === true && next[flag] !== true && next[contact] === doc[contact] && Object.keys(doc).length > 0) next[flag] = true;
  }
  return next;
}

/** Stored docs rarely hold big integers; plain JSON.parse is much faster than the lossless parser. */
function parseDoc(text: string): CustomerDoc {
  return (/\d{16}/.test(text) ? parseJson(text) : JSON.parse(text)) as CustomerDoc;
}

function blankToNull(value: unknown): string | null {
  return isBlank(value) ? null : String(value);
}

/** §2: "fields that are absent or empty are returned as null" — custom attributes too (`attr.attr1 = ""` → null). */
function attrOut(attr: unknown): unknown {
  if (!isObject(attr)) return attr ?? null;
  return Object.fromEntries(Object.entries(attr).map(([k, v]) => [k, isBlank(v) ? null : v]));
}

export function toCustomer(row: CustomerRow): Json {
  const doc = parseDoc(row.doc);
  const name = blankToNull(doc.name);
  const out: Json = { id: row.id, displayName: name ?? blankToNull(doc.nickName) };
  for (const field of CUSTOMER_FIELDS) out[field] = doc[field] ?? null;
  out.attr = attrOut(doc.attr);
  // Fields beyond §2.1 held by the customer (seeded in an observed environment; no request writes them).
  for (const [field, value] of Object.entries(doc)) if (!WRITABLE.has(field)) out[field] = value;
  out.lastUpdated = utc(row.last_updated);
  out.dateCreated = utc(row.date_created);
  if (out.dateJoin === null) out.dateJoin = out.dateCreated;
  return out;
}

/** §4.1 `select`: only the named fields (unknown names are ignored). */
export function selectFields(customer: Json, select: string[] | undefined): Json {
  if (!select) return customer;
  const out: Json = {};
  for (const f of select) if (f in customer) out[f] = customer[f];
  return out;
}

/** The customer store of one database: prepared statements, tenant-scoped. */
export class CustomerStore {
  static readonly BLOCK = 1024;
  private readonly byId;
  private readonly insertStmt;
  private readonly updateStmt;
  private readonly deleteStmt;
  private readonly lastBlock;
  private readonly insertBlock;
  private readonly growBlock;
  private readonly shrinkBlock;
  private readonly blocks;

  constructor(readonly db: SandboxDb) {
    this.byId = db.prepare("SELECT id, doc, date_created, last_updated FROM customers WHERE id = ? AND tenant_id = ?").safeIntegers(true);
    this.insertStmt = db.prepare(
      `INSERT INTO customers (id, tenant_id, name, nick_name, mobile, email, gender, stage, source, date_created, last_updated, doc)
       VALUES (@id, @tenant, @name, @nickName, @mobile, @email, @gender, @stage, @source, @now, @now, @doc)`,
    );
    this.updateStmt = db.prepare(
      `UPDATE customers SET name = @name, nick_name = @nickName, mobile = @mobile, email = @email, gender = @gender,
       stage = @stage, source = @source, last_updated = @now, doc = @doc WHERE id = @id AND tenant_id = @tenant`,
    );
    this.deleteStmt = db.prepare("DELETE FROM customers WHERE id = ? AND tenant_id = ?");
    this.lastBlock = db.prepare("SELECT first_id, count FROM customer_rank_blocks WHERE tenant_id = ? ORDER BY first_id DESC LIMIT 1").safeIntegers(true);
    this.insertBlock = db.prepare("INSERT INTO customer_rank_blocks (tenant_id, first_id, count) VALUES (?, ?, 1)");
    this.growBlock = db.prepare("UPDATE customer_rank_blocks SET count = count + 1 WHERE tenant_id = ? AND first_id = ?");
    this.shrinkBlock = db.prepare(
      `UPDATE customer_rank_blocks SET count = count - 1 WHERE tenant_id = ? AND first_id =
       (SELECT max(first_id) FROM customer_rank_blocks WHERE tenant_id = ? AND first_id <= ?)`,
    );
    this.blocks = db.prepare("SELECT first_id, count FROM customer_rank_blocks WHERE tenant_id = ? ORDER BY first_id").safeIntegers(true);
  }

  get(tenant: number, id: bigint): CustomerRow | undefined {
    return this.byId.get(id, tenant) as CustomerRow | undefined;
  }

  doc(row: CustomerRow): CustomerDoc {
    return parseDoc(row.doc);
  }

  private columns(doc: CustomerDoc) {
    const text = (v: unknown) => (isBlank(v) ? null : String(v));
    return {
      name: text(doc.name),
      nickName: text(doc.nickName),
      mobile: text(doc.mobile),
      email: text(doc.email),
      gender: isBlank(doc.gender) ? null : Number(doc.gender),
      stage: text(doc.stage),
      source: text(doc.source),
      doc: stringifyJson(doc),
    };
  }

  insert(tenant: number, doc: CustomerDoc, now: number, id: bigint = nextId(this.db, "customer")): bigint {
    this.insertStmt.run({ id, tenant, now, ...this.columns(doc) });
    this.noteInserted(tenant, id);
    return id;
  }

  /** Keeps the rank blocks right after an insert: ids only grow, so the new id is the last one. */
  noteInserted(tenant: number, id: bigint): void {
    const last = this.lastBlock.get(tenant) as { first_id: bigint; count: bigint } | undefined;
    if (!last || last.count >= BigInt(CustomerStore.BLOCK)) this.insertBlock.run(tenant, id);
    else this.growBlock.run(tenant, last.first_id);
  }

  update(tenant: number, id: bigint, doc: CustomerDoc, now: number): void {
    this.updateStmt.run({ id, tenant, now, ...this.columns(doc) });
  }

  delete(tenant: number, id: bigint): boolean {
    const changed = this.deleteStmt.run(id, tenant).changes > 0;
    if (changed) this.shrinkBlock.run(tenant, tenant, id);
    return changed;
  }

  /** `[first_id, count]` of every rank block of a tenant, ascending. */
  rankBlocks(tenant: number): Array<{ first_id: bigint; count: bigint }> {
    return this.blocks.all(tenant) as Array<{ first_id: bigint; count: bigint }>;
  }

  /** Rebuilds a tenant's rank blocks from scratch (after bulk loading). */
  rebuildRankBlocks(tenant: number): void {
    this.db.prepare("DELETE FROM customer_rank_blocks WHERE tenant_id = ?").run(tenant);
    this.db
      .prepare(
        `INSERT INTO customer_rank_blocks (tenant_id, first_id, count)
         SELECT ?, min(id), count(*) FROM (SELECT id, (row_number() OVER (ORDER BY id) - 1) / ${CustomerStore.BLOCK} AS block FROM customers WHERE tenant_id = ?)
         GROUP BY block`,
      )
      .run(tenant, tenant);
  }
}

export const customerStore = perDatabase((db) => new CustomerStore(db));
