import "server-only";
import { sql, type SqlBool } from "kysely";
import { parseJson } from "@/lib/platform/json";
import type { Store } from "@/lib/store/database";
import { inWriteOrder } from "@/lib/store/write-order";
import type { SearchHit } from "./types";
import { foldText, isShortQuery, queryText, searchTextOf, type IndexDocument } from "./normalize";

/**
 * The tenant customer index in the app's store (migration 006): rows of `customer_index`, the
 * trigram index over their text (SQLite FTS5 `customer_fts`, PostgreSQL pg_trgm on `search_text`)
 * and `customer_index_tags`. Every read and write names the tenant (the `search_tenants` row of one
 * installation): no query can reach another tenant's customers.
 */

/** Rows per statement: 18 columns × 400 stays under SQLite's 32,766 bound parameters. */
const CHUNK = 400;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const nonEmpty = (value: string | null | undefined): string | null => (value === undefined || value === null || value === "" ? null : value);

function rowOf(tenant: number, doc: IndexDocument) {
  return {
    tenant,
    customer_id: doc.id,
    display_name: nonEmpty(doc.displayName ?? (doc.name || doc.nickName)),
    name: nonEmpty(doc.name),
    nick_name: nonEmpty(doc.nickName),
    email: nonEmpty(doc.email),
    mobile: nonEmpty(doc.mobile),
    stage: nonEmpty(doc.stage),
    source: nonEmpty(doc.source),
    gender: typeof doc.gender === "number" ? doc.gender : null,
    identities: doc.identities?.length ? JSON.stringify(doc.identities) : null,
    date_created: nonEmpty(doc.dateCreated),
    last_updated: nonEmpty(doc.lastUpdated),
    name_key: doc.name ? foldText(doc.name) : null,
    nick_key: doc.nickName ? foldText(doc.nickName) : null,
    search_text: searchTextOf(doc),
    ...segmentColumnsOf(doc),
  };
}

/** The columns segments filter on (migration 013): the birthday's month, the custom attributes. */
function segmentColumnsOf(doc: IndexDocument) {
  const month = doc.birthday ? /^\d{4}-(\d{2})-\d{2}/.exec(doc.birthday)?.[1] : undefined;
  const attrs = doc.attrs && typeof doc.attrs === "object" && Object.keys(doc.attrs).length > 0 ? JSON.stringify(doc.attrs) : null;
  return { birth_month: month && Number(month) >= 1 && Number(month) <= 12 ? Number(month) : null, attrs };
}

/**
 * Inserts or replaces customers of one tenant (in one transaction). A document without
 * `identities` keeps the identities already indexed (a webhook's re-read of the customer does not
 * carry them).
 */
export async function upsertCustomers(store: Store, tenant: number, docs: readonly IndexDocument[]): Promise<void> {
  if (docs.length === 0) return;
  // Concurrent writers (two tabs, two processes) of the same ids: one row each, locks in one order.
  const ordered = inWriteOrder(docs);
  await store.db.transaction().execute(async (tx) => {
    for (const part of chunks(ordered)) {
      const missing = part.filter((d) => d.identities === undefined).map((d) => d.id);
      const known = new Map<string, IndexDocument["identities"]>();
      if (missing.length > 0) {
        const rows = await tx.selectFrom("customer_index").select(["customer_id", "identities"]).where("tenant", "=", tenant).where("customer_id", "in", missing).execute();
        for (const row of rows) if (row.identities) known.set(row.customer_id, parseJson(row.identities) as IndexDocument["identities"]);
      }
      const rows = part.map((doc) => rowOf(tenant, doc.identities === undefined ? { ...doc, identities: known.get(doc.id) } : doc));
      const inserted = await tx
        .insertInto("customer_index")
        .values(rows)
        .onConflict((oc) =>
          oc.columns(["tenant", "customer_id"]).doUpdateSet((eb) => ({
            display_name: eb.ref("excluded.display_name"),
            name: eb.ref("excluded.name"),
            nick_name: eb.ref("excluded.nick_name"),
            email: eb.ref("excluded.email"),
            mobile: eb.ref("excluded.mobile"),
            stage: eb.ref("excluded.stage"),
            source: eb.ref("excluded.source"),
            gender: eb.ref("excluded.gender"),
            identities: eb.ref("excluded.identities"),
            date_created: eb.ref("excluded.date_created"),
            last_updated: eb.ref("excluded.last_updated"),
            name_key: eb.ref("excluded.name_key"),
            nick_key: eb.ref("excluded.nick_key"),
            search_text: eb.ref("excluded.search_text"),
            birth_month: eb.ref("excluded.birth_month"),
            attrs: eb.ref("excluded.attrs"),
          })),
        )
        .returning(store.dialect === "sqlite" ? [sql<number>`rowid`.as("rowid"), "search_text"] : ["search_text"])
        .execute();
      if (store.dialect === "sqlite") {
        // The contentless FTS table is kept in step by rowid: the old entry out, the new one in.
        const fts = inserted as unknown as Array<{ rowid: number; search_text: string }>;
        await sql`DELETE FROM customer_fts WHERE rowid IN (${sql.join(fts.map((r) => r.rowid))})`.execute(tx);
        await sql`INSERT INTO customer_fts (rowid, search_text) VALUES ${sql.join(fts.map((r) => sql`(${r.rowid}, ${r.search_text})`))}`.execute(tx);
      }
    }
  });
}

/** Removes customers (deleted, or merged into another) from one tenant's index. */
export async function deleteCustomers(store: Store, tenant: number, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await store.db.transaction().execute(async (tx) => {
    for (const part of chunks(ids)) {
      if (store.dialect === "sqlite") {
        await sql`DELETE FROM customer_fts WHERE rowid IN (SELECT rowid FROM customer_index WHERE tenant = ${tenant} AND customer_id IN (${sql.join(part)}))`.execute(tx);
      }
      await tx.deleteFrom("customer_index").where("tenant", "=", tenant).where("customer_id", "in", part).execute();
      await tx.deleteFrom("customer_index_tags").where("tenant", "=", tenant).where("customer_id", "in", part).execute();
    }
  });
}

/** Replaces the tags of the given customers (`getCustomerTags` answers, §4.5): every id given gets exactly its list. */
export async function setCustomerTags(store: Store, tenant: number, tags: ReadonlyMap<string, readonly string[]>): Promise<void> {
  if (tags.size === 0) return;
  await store.db.transaction().execute(async (tx) => {
    for (const part of chunks([...tags.keys()])) {
      await tx.deleteFrom("customer_index_tags").where("tenant", "=", tenant).where("customer_id", "in", part).execute();
      const rows = part.flatMap((id) => [...new Set(tags.get(id) ?? [])].map((tag) => ({ tenant, tag, customer_id: id })));
      for (const rowPart of chunks(rows)) await tx.insertInto("customer_index_tags").values(rowPart).onConflict((oc) => oc.doNothing()).execute();
    }
  });
}

/** The distinct tag names of one tenant's index. */
export async function indexedTagNames(store: Store, tenant: number): Promise<string[]> {
  const rows = await store.db.selectFrom("customer_index_tags").select("tag").distinct().where("tenant", "=", tenant).execute();
  return rows.map((r) => r.tag);
}

/** The customers indexed under any of these tag names. */
export async function customersTagged(store: Store, tenant: number, tags: readonly string[]): Promise<string[]> {
  const out = new Set<string>();
  for (const part of chunks(tags)) {
    const rows = await store.db.selectFrom("customer_index_tags").select("customer_id").where("tenant", "=", tenant).where("tag", "in", part).execute();
    for (const row of rows) out.add(row.customer_id);
  }
  return [...out];
}

/** Empties one tenant's index (re-sync from scratch, installation reset). */
export async function clearTenantIndex(store: Store, tenant: number): Promise<void> {
  await store.db.transaction().execute(async (tx) => {
    if (store.dialect === "sqlite") await sql`DELETE FROM customer_fts WHERE rowid IN (SELECT rowid FROM customer_index WHERE tenant = ${tenant})`.execute(tx);
    await tx.deleteFrom("customer_index").where("tenant", "=", tenant).execute();
    await tx.deleteFrom("customer_index_tags").where("tenant", "=", tenant).execute();
  });
}

export async function countIndexed(store: Store, tenant: number): Promise<number> {
  const row = await store.db.selectFrom("customer_index").select((eb) => eb.fn.countAll<number | string>().as("n")).where("tenant", "=", tenant).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The filters the index applies beside the text (the same ones the platform then applies live). */
export type IndexFilters = {
  tag?: string;
  stage?: string;
  stageEmpty?: boolean;
  source?: string;
  gender?: number;
  hasMobile?: boolean;
  hasEmail?: boolean;
};

export type SearchRequest = IndexFilters & { q?: string; limit: number; offset?: number };

export type { SearchHit };

export type SearchResult = { hits: SearchHit[]; hasMore: boolean };

/** `%`, `_` and `\` taken literally in a LIKE pattern (escape `\`). */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One page of a tenant's customers matching a query (name parts, partial email, mobile with or
 * without country code, identity values; CJK and Latin) and filters. Three characters and more
 * use the trigram index (substrings anywhere); one or two characters match the start of the name
 * or nickName (a surname, `李娜`, `li`).
 */
export async function searchIndex(store: Store, tenant: number, request: SearchRequest): Promise<SearchResult> {
  const text = request.q ? queryText(request.q) : "";
  const limit = Math.max(1, Math.min(request.limit, 200));
  const offset = Math.max(0, request.offset ?? 0);
  const sqlite = store.dialect === "sqlite";

  let query = store.db
    .selectFrom("customer_index as ci")
    .select(["ci.customer_id as id", "ci.display_name as displayName", "ci.name", "ci.nick_name as nickName", "ci.email", "ci.mobile"])
    .where("ci.tenant", "=", tenant);

  if (text) {
    if (isShortQuery(text)) {
      // The range [text, text + U+10FFFF) on the folded keys: an index range scan on both dialects.
      const high = `${text}\u{10FFFF}`;
      const nameKey = sqlite ? sql.ref("ci.name_key") : sql`ci.name_key COLLATE "C"`;
      const nickKey = sqlite ? sql.ref("ci.nick_key") : sql`ci.nick_key COLLATE "C"`;
      query = query.where(sql<SqlBool>`((${nameKey} >= ${text} AND ${nameKey} < ${high}) OR (${nickKey} >= ${text} AND ${nickKey} < ${high}))`);
    } else if (sqlite) {
      const phrase = `"${text.replace(/"/g, '""')}"`;
      query = query.where(sql<SqlBool>`ci.rowid IN (SELECT rowid FROM customer_fts WHERE customer_fts MATCH ${phrase})`);
    } else {
      query = query.where(sql<SqlBool>`ci.search_text LIKE ${`%${likeLiteral(text)}%`}`);
    }
  }
  if (request.tag) {
    const tag = request.tag;
    query = query.where((eb) =>
      eb.exists(eb.selectFrom("customer_index_tags as t").select(sql`1`.as("one")).whereRef("t.tenant", "=", "ci.tenant").whereRef("t.customer_id", "=", "ci.customer_id").where("t.tag", "=", tag)),
    );
  }
  if (request.stageEmpty) query = query.where("ci.stage", "is", null);
  else if (request.stage) query = query.where("ci.stage", "=", request.stage);
  if (request.source) query = query.where("ci.source", "=", request.source);
  if (request.gender !== undefined) query = request.gender === 0 ? query.where((eb) => eb.or([eb("ci.gender", "=", 0), eb("ci.gender", "is", null)])) : query.where("ci.gender", "=", request.gender);
  if (request.hasMobile !== undefined) query = query.where("ci.mobile", request.hasMobile ? "is not" : "is", null);
  if (request.hasEmail !== undefined) query = query.where("ci.email", request.hasEmail ? "is not" : "is", null);

  // SQLite: rowid order is the trigram index's own order (no sort); PostgreSQL: by id.
  const ordered = sqlite ? query.orderBy(sql`ci.rowid`) : query.orderBy("ci.customer_id");
  const rows = await ordered.limit(limit + 1).offset(offset).execute();
  return { hits: rows.slice(0, limit), hasMore: rows.length > limit };
}

/** Names and contacts of customers by id (for ids shown in lists, orders, pickers). */
export async function lookupIndexed(store: Store, tenant: number, ids: readonly string[]): Promise<SearchHit[]> {
  if (ids.length === 0) return [];
  const out: SearchHit[] = [];
  for (const part of chunks([...new Set(ids)])) {
    out.push(
      ...(await store.db
        .selectFrom("customer_index")
        .select(["customer_id as id", "display_name as displayName", "name", "nick_name as nickName", "email", "mobile"])
        .where("tenant", "=", tenant)
        .where("customer_id", "in", part)
        .execute()),
    );
  }
  return out;
}
