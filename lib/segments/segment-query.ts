import "server-only";
import { sql, type RawBuilder, type SqlBool } from "kysely";
import type { Store } from "@/lib/store/database";
import { HOME_OFFSET_MINUTES } from "@/lib/time";
import type { Condition, SegmentDefinition } from "./segment-conditions";
import type { PreviewRowView } from "./segment-types";

/**
 * A segment's definition as SQL over one tenant's people index: `customer_index` (ci), its tags
 * (`customer_index_tags`) and the customer's statistics beside it (`customer_facts`, cf, joined
 * left: a customer without statistics has no orders). Every value is a bound parameter; the only
 * text put into the statement is column names chosen here. Days are UTC+8 days (§2), and "days
 * since the last order" is counted like §2.7's `lastOrderDays`: whole days since that order, now.
 */

const DAY_MS = 86_400_000;

type Expr = RawBuilder<SqlBool>;

/** `YYYY-MM-DDTHH:MM:SS` in UTC, as the index keeps times (a prefix of the platform's answers). */
const filterTime = (ms: number): string => new Date(ms).toISOString().slice(0, 19);

/** The first instant of a UTC+8 day. */
function dayStart(day: string, plusDays = 0): string {
  const [y = 0, m = 1, d = 1] = day.split("-").map(Number);
  return filterTime(Date.UTC(y, m - 1, d + plusDays) - HOME_OFFSET_MINUTES * 60_000);
}

const or = (parts: Expr[]): Expr => sql<SqlBool>`(${sql.join(parts, sql` OR `)})`;
const and = (parts: Expr[]): Expr => sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const COLUMN = {
  stage: sql.ref("ci.stage"),
  source: sql.ref("ci.source"),
  dateCreated: sql.ref("ci.date_created"),
  lastUpdated: sql.ref("ci.last_updated"),
  orderCount: sql.ref("cf.order_count"),
  orderAmount: sql.ref("cf.order_amount"),
  activityScore: sql.ref("cf.activity_score"),
} as const;

function tagExists(tags: readonly string[]): Expr {
  return sql<SqlBool>`EXISTS (SELECT 1 FROM customer_index_tags t WHERE t.tenant = ci.tenant AND t.customer_id = ci.customer_id AND t.tag IN (${sql.join(tags)}))`;
}

function numberTest(column: RawBuilder<unknown>, op: "gte" | "lte" | "eq" | "between", value: number, to: number | undefined): Expr {
  const test =
    op === "gte" ? sql<SqlBool>`${column} >= ${value}` : op === "lte" ? sql<SqlBool>`${column} <= ${value}` : op === "eq" ? sql<SqlBool>`${column} = ${value}` : sql<SqlBool>`${column} BETWEEN ${value} AND ${to ?? value}`;
  // No statistics is no orders: 0 (so "at most 1 order" keeps the customers who never ordered).
  const zeroMatches = op === "gte" ? value <= 0 : op === "lte" ? value >= 0 : op === "eq" ? value === 0 : value <= 0 && 0 <= (to ?? value);
  return zeroMatches ? or([test, sql<SqlBool>`${column} IS NULL`]) : test;
}

function conditionSql(c: Condition, dialect: Store["dialect"], now: number): Expr {
  switch (c.field) {
    case "tags":
      if (c.op === "any") return tagExists(c.values);
      if (c.op === "none") return sql<SqlBool>`NOT ${tagExists(c.values)}`;
      return and([...new Set(c.values)].map((tag) => tagExists([tag])));
    case "stage":
    case "source": {
      const col = COLUMN[c.field];
      if (c.op === "empty") return sql<SqlBool>`${col} IS NULL`;
      if (c.op === "notEmpty") return sql<SqlBool>`${col} IS NOT NULL`;
      const values = c.values ?? [];
      return c.op === "is" ? sql<SqlBool>`${col} IN (${sql.join(values)})` : or([sql<SqlBool>`${col} IS NULL`, sql<SqlBool>`${col} NOT IN (${sql.join(values)})`]);
    }
    case "gender": {
      // §2.1: 0 or empty is unknown.
      const test = sql<SqlBool>`ci.gender IN (${sql.join(c.values)})`;
      return c.values.includes(0) ? or([test, sql<SqlBool>`ci.gender IS NULL`]) : test;
    }
    case "dateCreated":
    case "lastUpdated": {
      const col = COLUMN[c.field];
      switch (c.op) {
        case "on":
          return and([sql<SqlBool>`${col} >= ${dayStart(c.from!)}`, sql<SqlBool>`${col} < ${dayStart(c.from!, 1)}`]);
        case "after":
          return sql<SqlBool>`${col} >= ${dayStart(c.from!)}`;
        case "before":
          return sql<SqlBool>`${col} < ${dayStart(c.to!, 1)}`;
        case "between":
          return and([sql<SqlBool>`${col} >= ${dayStart(c.from!)}`, sql<SqlBool>`${col} < ${dayStart(c.to!, 1)}`]);
        case "withinDays":
          return sql<SqlBool>`${col} >= ${filterTime(now - c.days! * DAY_MS)}`;
        case "notWithinDays":
          return or([sql<SqlBool>`${col} IS NULL`, sql<SqlBool>`${col} < ${filterTime(now - c.days! * DAY_MS)}`]);
      }
      break;
    }
    case "birthMonth":
      return sql<SqlBool>`ci.birth_month IN (${sql.join(c.months)})`;
    case "attr": {
      const value = dialect === "sqlite" ? sql`CAST(json_extract(ci.attrs, ${`$.${c.attr}`}) AS TEXT)` : sql`(ci.attrs::jsonb ->> ${c.attr})`;
      if (c.op === "empty") return or([sql<SqlBool>`${value} IS NULL`, sql<SqlBool>`${value} = ''`]);
      if (c.op === "notEmpty") return and([sql<SqlBool>`${value} IS NOT NULL`, sql<SqlBool>`${value} <> ''`]);
      if (c.op === "is") return sql<SqlBool>`${value} = ${c.value!}`;
      return sql<SqlBool>`${value} LIKE ${`%${likeLiteral(c.value!)}%`} ESCAPE '\\'`;
    }
    case "identityType": {
      // The index keeps identities as JSON written by JSON.stringify: `{"type":"…","value":"…"}`.
      const held = or(c.values.map((type) => sql<SqlBool>`ci.identities LIKE ${`%{"type":${likeLiteral(JSON.stringify(type))},%`} ESCAPE '\\'`));
      return c.op === "any" ? held : or([sql<SqlBool>`ci.identities IS NULL`, sql<SqlBool>`NOT ${held}`]);
    }
    case "orderCount":
    case "orderAmount":
    case "activityScore":
      return numberTest(COLUMN[c.field], c.op, c.value, c.to);
    case "daysSinceLastOrder": {
      const col = sql.ref("cf.last_order_at");
      // Whole days since the order ≤ n ⇔ the order is later than n + 1 days ago.
      const within = (n: number) => sql<SqlBool>`${col} > ${filterTime(now - (n + 1) * DAY_MS)}`;
      const atLeast = (n: number) => sql<SqlBool>`${col} <= ${filterTime(now - n * DAY_MS)}`;
      if (c.op === "never") return sql<SqlBool>`${col} IS NULL`;
      if (c.op === "lte") return within(c.value!);
      if (c.op === "gte") return atLeast(c.value!);
      return and([atLeast(c.value!), within(c.to!)]);
    }
  }
  throw new Error("unreachable");
}

/** The WHERE of a definition (true for no conditions: everyone). */
export function definitionSql(definition: SegmentDefinition, dialect: Store["dialect"], now: number): Expr {
  if (definition.conditions.length === 0) return sql<SqlBool>`1 = 1`;
  const parts = definition.conditions.map((c) => conditionSql(c, dialect, now));
  return definition.match === "all" ? and(parts) : or(parts);
}

const needsFacts = (definition: SegmentDefinition) => definition.conditions.some((c) => c.field === "orderCount" || c.field === "orderAmount" || c.field === "activityScore" || c.field === "daysSinceLastOrder");

function fromClause(definition: SegmentDefinition, withFacts = needsFacts(definition)) {
  return withFacts ? sql`customer_index ci LEFT JOIN customer_facts cf ON cf.tenant = ci.tenant AND cf.customer_id = ci.customer_id` : sql`customer_index ci`;
}

export type SegmentQuery = { store: Store; tenant: number; definition: SegmentDefinition; now: number };

/** How many of the tenant's indexed customers the segment holds. */
export async function countSegment({ store, tenant, definition, now }: SegmentQuery): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`SELECT count(*) AS n FROM ${fromClause(definition)} WHERE ci.tenant = ${tenant} AND ${definitionSql(definition, store.dialect, now)}`.execute(store.db);
  return Number(rows[0]?.n ?? 0);
}

export const PREVIEW_SORTS = ["name", "dateCreated", "lastUpdated", "orderCount", "orderAmount", "lastOrder", "activityScore"] as const;
export type PreviewSort = (typeof PREVIEW_SORTS)[number];

const SORT_COLUMN: Record<PreviewSort, string> = {
  name: "ci.display_name",
  dateCreated: "ci.date_created",
  lastUpdated: "ci.last_updated",
  orderCount: "cf.order_count",
  orderAmount: "cf.order_amount",
  lastOrder: "cf.last_order_at",
  activityScore: "cf.activity_score",
};

/** A preview row as the route answers it (segment-types.ts). */
export type PreviewRow = PreviewRowView;

type RawPreview = {
  id: string;
  display_name: string | null;
  email: string | null;
  mobile: string | null;
  stage: string | null;
  source: string | null;
  gender: number | null;
  date_created: string | null;
  last_updated: string | null;
  birth_month: number | null;
  attrs: string | null;
  identities: string | null;
  order_count: number | string | null;
  order_amount: number | string | null;
  last_order_at: string | null;
  activity_score: number | string | null;
};

const numOrNull = (v: number | string | null) => (v === null ? null : Number(v));
function parseObject(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
function identityTypesOf(text: string | null): string[] {
  if (!text) return [];
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? [...new Set(v.map((i: { type?: unknown }) => (typeof i?.type === "string" ? i.type : "")).filter(Boolean))] : [];
  } catch {
    return [];
  }
}

/**
 * One page of the segment's people with the fields conditions use, sorted (nulls last, then by
 * id so pages never overlap). The tags of the page in one more query.
 */
export async function previewSegment(
  query: SegmentQuery & { sort?: PreviewSort; order?: "asc" | "desc"; limit: number; offset?: number },
): Promise<{ rows: PreviewRow[]; hasMore: boolean }> {
  const { store, tenant, definition, now } = query;
  const limit = Math.max(1, Math.min(query.limit, 200));
  const offset = Math.max(0, query.offset ?? 0);
  const dir = query.order === "desc" ? sql`DESC` : sql`ASC`;
  const sortColumn = query.sort ? sql.ref(SORT_COLUMN[query.sort]) : undefined;
  const orderBy = sortColumn ? sql`(${sortColumn} IS NULL), ${sortColumn} ${dir}, ci.customer_id ${dir}` : sql`ci.customer_id ${dir}`;
  const { rows } = await sql<RawPreview>`
    SELECT ci.customer_id AS id, ci.display_name, ci.email, ci.mobile, ci.stage, ci.source, ci.gender, ci.date_created, ci.last_updated,
           ci.birth_month, ci.attrs, ci.identities, cf.order_count, cf.order_amount, cf.last_order_at, cf.activity_score
    FROM ${fromClause(definition, true)}
    WHERE ci.tenant = ${tenant} AND ${definitionSql(definition, store.dialect, now)}
    ORDER BY ${orderBy}
    LIMIT ${limit + 1} OFFSET ${offset}`.execute(store.db);
  const page = rows.slice(0, limit);
  const tags = new Map<string, string[]>();
  if (page.length > 0) {
    const tagRows = await store.db.selectFrom("customer_index_tags").select(["customer_id", "tag"]).where("tenant", "=", tenant).where("customer_id", "in", page.map((r) => r.id)).orderBy("tag").execute();
    for (const row of tagRows) tags.set(row.customer_id, [...(tags.get(row.customer_id) ?? []), row.tag]);
  }
  return {
    hasMore: rows.length > limit,
    rows: page.map((r) => ({
      id: r.id,
      displayName: r.display_name,
      email: r.email,
      mobile: r.mobile,
      stage: r.stage,
      source: r.source,
      gender: r.gender,
      dateCreated: r.date_created,
      lastUpdated: r.last_updated,
      birthMonth: r.birth_month,
      attrs: parseObject(r.attrs),
      identityTypes: identityTypesOf(r.identities),
      tags: tags.get(r.id) ?? [],
      orderCount: numOrNull(r.order_count),
      orderAmount: numOrNull(r.order_amount),
      lastOrderAt: r.last_order_at,
      activityScore: numOrNull(r.activity_score),
    })),
  };
}

/**
 * The segment's customer ids in id order, a page at a time after `afterId` (keyset: the export and
 * the sync read a large segment without holding an OFFSET scan).
 */
export async function segmentIdsAfter(query: SegmentQuery & { afterId: string | null; limit: number }): Promise<string[]> {
  const { store, tenant, definition, now } = query;
  // Ids are decimal strings of up to 19 digits: ordered by length, then text, is numeric order.
  const after = query.afterId === null ? sql<SqlBool>`1 = 1` : sql<SqlBool>`(length(ci.customer_id) > ${query.afterId.length} OR (length(ci.customer_id) = ${query.afterId.length} AND ci.customer_id > ${query.afterId}))`;
  const { rows } = await sql<{ id: string }>`
    SELECT ci.customer_id AS id FROM ${fromClause(definition)}
    WHERE ci.tenant = ${tenant} AND ${after} AND ${definitionSql(definition, store.dialect, now)}
    ORDER BY length(ci.customer_id), ci.customer_id
    LIMIT ${query.limit}`.execute(store.db);
  return rows.map((r) => r.id);
}

/** Every customer id of the segment (the sync's "should be in the list"). */
export async function segmentIds(query: SegmentQuery): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`SELECT ci.customer_id AS id FROM ${fromClause(query.definition)} WHERE ci.tenant = ${query.tenant} AND ${definitionSql(query.definition, query.store.dialect, query.now)}`.execute(query.store.db);
  return rows.map((r) => r.id);
}
