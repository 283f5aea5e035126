import "server-only";
import { sql, type RawBuilder, type Transaction } from "kysely";
import { parseJson } from "@/lib/platform/json";
import type { Store, StoreSchema } from "@/lib/store/database";
import { inWriteOrder } from "@/lib/store/write-order";
import type { SearchHit } from "./types";
import { foldText, isPairQuery, isShortQuery, namePairsOf, pairToken, queryText, searchTextOf, type IndexDocument } from "./normalize";

/**
 * The tenant customer index in the app's store (migration 006): rows of `customer_index`, the
 * trigram index over their text (SQLite FTS5 `customer_fts`, PostgreSQL pg_trgm on `search_text`)
 * and `customer_index_tags`. Every read and write names the tenant (the `search_tenants` row of one
 * installation): no query can reach another tenant's customers.
 */

/** Rows per statement: 14 columns × 400 stays under SQLite's 32,766 bound parameters. */
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

type IndexRow = ReturnType<typeof rowOf>;
type Tx = Transaction<StoreSchema>;

/** Column names come from `rowOf` (code, not input); checked anyway before they are put in SQL text. */
const column = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a column name: ${name}`);
  return sql.raw(name);
};

/**
 * Writes one batch of rows in one statement, the batch passed as a single JSON parameter (SQLite
 * `json_each`, PostgreSQL `json_populate_recordset` over the table's own row type), so the cost
 * per row is the database's, not a statement built per row. The columns are whatever `rowOf`
 * gives; the key is (tenant, customer_id) and every other column is replaced on conflict.
 */
async function writeRows(tx: Tx, dialect: Store["dialect"], tenant: number, docs: readonly IndexDocument[]): Promise<void> {
  const idsJson = JSON.stringify(docs.map((d) => d.id));
  const missing = docs.some((d) => d.identities === undefined);
  // Rows already there: their identities (a document without any keeps them) and, on SQLite, their
  // rowids, whose entries in the FTS tables are replaced. A first backfill finds none.
  let existing: Array<{ rowid?: number; customer_id: string; identities: string | null }> = [];
  if (dialect === "sqlite") {
    existing = (await sql<{ rowid: number; customer_id: string; identities: string | null }>`SELECT rowid, customer_id, identities FROM customer_index WHERE tenant = ${tenant} AND customer_id IN (SELECT value FROM json_each(${idsJson}))`.execute(tx)).rows;
  } else if (missing) {
    existing = await tx.selectFrom("customer_index").select(["customer_id", "identities"]).where("tenant", "=", tenant).where("customer_id", "in", docs.map((d) => d.id)).execute();
  }
  const known = new Map<string, IndexDocument["identities"]>();
  for (const row of existing) if (row.identities) known.set(row.customer_id, parseJson(row.identities) as IndexDocument["identities"]);
  const rows: IndexRow[] = docs.map((doc) => rowOf(tenant, doc.identities === undefined ? { ...doc, identities: known.get(doc.id) } : doc));
  const columns = Object.keys(rows[0]!);
  const updates = sql.join(columns.filter((c) => c !== "tenant" && c !== "customer_id").map((c) => sql`${column(c)} = excluded.${column(c)}`));

  if (dialect === "postgres") {
    const payload = JSON.stringify(rows.map((row, i) => ({ ...row, name_pairs: namePairsOf(docs[i]!) })));
    const names = sql.join([...columns, "name_pairs"].map(column));
    await sql`INSERT INTO customer_index (${names}) SELECT ${names} FROM json_populate_recordset(NULL::customer_index, ${payload}::json) ON CONFLICT (tenant, customer_id) DO UPDATE SET ${updates}, name_pairs = excluded.name_pairs`.execute(tx);
    return;
  }
  // SQLite: the contentless FTS tables are kept in step by rowid: old entries out, new ones in.
  if (existing.length > 0) {
    const rowids = JSON.stringify(existing.map((r) => r.rowid));
    await sql`DELETE FROM customer_fts WHERE rowid IN (SELECT value FROM json_each(${rowids}))`.execute(tx);
    await sql`DELETE FROM customer_pairs WHERE rowid IN (SELECT value FROM json_each(${rowids}))`.execute(tx);
  }
  const values = sql.join(columns.map((c) => sql`value ->> ${c}`));
  // `WHERE true`: SQLite reads `ON CONFLICT` after `SELECT … FROM` as a join constraint otherwise.
  await sql`INSERT INTO customer_index (${sql.join(columns.map(column))}) SELECT ${values} FROM json_each(${JSON.stringify(rows)}) WHERE true ON CONFLICT (tenant, customer_id) DO UPDATE SET ${updates}`.execute(tx);
  await sql`INSERT INTO customer_fts (rowid, search_text) SELECT rowid, search_text FROM customer_index WHERE tenant = ${tenant} AND customer_id IN (SELECT value FROM json_each(${idsJson}))`.execute(tx);
  const pairs = docs.map((doc) => ({ id: doc.id, pairs: namePairsOf(doc).map(pairToken).join(" ") })).filter((p) => p.pairs !== "");
  if (pairs.length > 0) {
    await sql`INSERT INTO customer_pairs (rowid, pairs) SELECT ci.rowid, j.value ->> 'pairs' FROM json_each(${JSON.stringify(pairs)}) AS j CROSS JOIN customer_index AS ci ON ci.tenant = ${tenant} AND ci.customer_id = j.value ->> 'id'`.execute(tx);
  }
}

/** Rows per statement of the JSON-batched writes (a backfill page). */
const WRITE_BATCH = 1000;

async function upsertWithin(tx: Tx, dialect: Store["dialect"], tenant: number, docs: readonly IndexDocument[]): Promise<void> {
  // Concurrent writers (two tabs, two processes) of the same ids: one row each, locks in one order.
  for (const part of chunks(inWriteOrder(docs), WRITE_BATCH)) await writeRows(tx, dialect, tenant, part);
}

async function setTagsWithin(tx: Tx, tenant: number, tags: ReadonlyMap<string, readonly string[]>): Promise<void> {
  for (const part of chunks([...tags.keys()])) {
    await tx.deleteFrom("customer_index_tags").where("tenant", "=", tenant).where("customer_id", "in", part).execute();
    const rows = part.flatMap((id) => [...new Set(tags.get(id) ?? [])].map((tag) => ({ tenant, tag, customer_id: id })));
    for (const rowPart of chunks(rows)) await tx.insertInto("customer_index_tags").values(rowPart).onConflict((oc) => oc.doNothing()).execute();
  }
}

/**
 * Inserts or replaces customers of one tenant (in one transaction). A document without
 * `identities` keeps the identities already indexed (a webhook's re-read of the customer does not
 * carry them).
 */
export async function upsertCustomers(store: Store, tenant: number, docs: readonly IndexDocument[]): Promise<void> {
  if (docs.length === 0) return;
  await store.db.transaction().execute((tx) => upsertWithin(tx, store.dialect, tenant, docs));
}

/**
 * One page of the sync: its customers and their tags (`getCustomerTags` answers: every id given
 * gets exactly its list) in one transaction, so a page costs one commit and is all there or not.
 */
export async function indexPage(store: Store, tenant: number, docs: readonly IndexDocument[], tags: ReadonlyMap<string, readonly string[]>, options: { backfill?: boolean } = {}): Promise<void> {
  if (docs.length === 0 && tags.size === 0) return;
  await store.db.transaction().execute(async (tx) => {
    if (options.backfill && store.dialect === "postgres") await backfillSettings(tx);
    if (docs.length > 0) await upsertWithin(tx, store.dialect, tenant, docs);
    if (tags.size > 0) await setTagsWithin(tx, tenant, tags);
  });
}

/**
 * A backfill page's transaction on PostgreSQL. The two GIN indexes take new entries into a pending
 * list and merge it into the index when it passes `gin_pending_list_limit`, sorted in `work_mem`:
 * with the defaults (4 MB each) a merge came every few pages and rewrote a third of the trigram
 * index each time, so the write slowed as the index grew (1,000,000 customers: 1.6 GB of WAL per
 * 400,000 rows). Eight times larger, the merges are that much rarer and touch each page once per
 * merge (1.1 GB; 134 → 76 s for 400,000). The rest of the list is merged when the backfill ends
 * (`finishBackfill`), so searches do not read it for long. A commit need not wait for its WAL to
 * reach the disk: a page lost in a crash is lost with its checkpoint row, written after it, and is
 * read again.
 */
async function backfillSettings(tx: Tx): Promise<void> {
  await sql`SELECT set_config('gin_pending_list_limit', '32MB', true), set_config('work_mem', '64MB', true), set_config('synchronous_commit', 'off', true)`.execute(tx);
}

/** Removes customers (deleted, or merged into another) from one tenant's index. */
export async function deleteCustomers(store: Store, tenant: number, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await store.db.transaction().execute(async (tx) => {
    for (const part of chunks(ids)) {
      if (store.dialect === "sqlite") {
        await sql`DELETE FROM customer_fts WHERE rowid IN (SELECT rowid FROM customer_index WHERE tenant = ${tenant} AND customer_id IN (${sql.join(part)}))`.execute(tx);
        await sql`DELETE FROM customer_pairs WHERE rowid IN (SELECT rowid FROM customer_index WHERE tenant = ${tenant} AND customer_id IN (${sql.join(part)}))`.execute(tx);
      }
      await tx.deleteFrom("customer_index").where("tenant", "=", tenant).where("customer_id", "in", part).execute();
      await tx.deleteFrom("customer_index_tags").where("tenant", "=", tenant).where("customer_id", "in", part).execute();
    }
  });
}

/** Replaces the tags of the given customers (`getCustomerTags` answers, §4.5): every id given gets exactly its list. */
export async function setCustomerTags(store: Store, tenant: number, tags: ReadonlyMap<string, readonly string[]>): Promise<void> {
  if (tags.size === 0) return;
  await store.db.transaction().execute((tx) => setTagsWithin(tx, tenant, tags));
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
    if (store.dialect === "sqlite") {
      await sql`DELETE FROM customer_fts WHERE rowid IN (SELECT rowid FROM customer_index WHERE tenant = ${tenant})`.execute(tx);
      await sql`DELETE FROM customer_pairs WHERE rowid IN (SELECT rowid FROM customer_index WHERE tenant = ${tenant})`.execute(tx);
    }
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

const HIT_COLUMNS = sql`ci.customer_id AS id, ci.display_name AS "displayName", ci.name, ci.nick_name AS "nickName", ci.email, ci.mobile`;

/**
 * The statement for one page of a search. Where there is text, the text index drives:
 * - SQLite: the FTS5 table (trigram, or the name pairs for two characters) is read first, in its
 *   rowid order, each hit joined to its row by rowid, and the tenant and filters checked on that row
 *   (`CROSS JOIN` fixes the order; `+ci.tenant` keeps the tenant's B-tree out of the choice: walking
 *   a big tenant's rows and probing the FTS hits for each was the slow plan at 1,000,000). The
 *   LIMIT stops the FTS scan early, so a common pair costs no more than a rare one.
 * - PostgreSQL: `LIKE '%…%'` on the pg_trgm GIN index, `name_pairs @> {pair}` on the pairs' GIN
 *   index; the planner chooses between them and the tenant's key order, which needs statistics
 *   (`refreshIndexStatistics` after a backfill).
 * One character matches the start of a name or nickName (a range on the folded keys).
 */
function searchStatement(store: Store, tenant: number, request: SearchRequest): RawBuilder<SearchHit> {
  const text = request.q ? queryText(request.q) : "";
  const limit = Math.max(1, Math.min(request.limit, 200));
  const offset = Math.max(0, request.offset ?? 0);
  const sqlite = store.dialect === "sqlite";

  const filters: Array<RawBuilder<unknown>> = [];
  if (request.tag) filters.push(sql`EXISTS (SELECT 1 FROM customer_index_tags AS t WHERE t.tenant = ci.tenant AND t.customer_id = ci.customer_id AND t.tag = ${request.tag})`);
  if (request.stageEmpty) filters.push(sql`ci.stage IS NULL`);
  else if (request.stage) filters.push(sql`ci.stage = ${request.stage}`);
  if (request.source) filters.push(sql`ci.source = ${request.source}`);
  if (request.gender !== undefined) filters.push(request.gender === 0 ? sql`(ci.gender = 0 OR ci.gender IS NULL)` : sql`ci.gender = ${request.gender}`);
  if (request.hasMobile !== undefined) filters.push(request.hasMobile ? sql`ci.mobile IS NOT NULL` : sql`ci.mobile IS NULL`);
  if (request.hasEmail !== undefined) filters.push(request.hasEmail ? sql`ci.email IS NOT NULL` : sql`ci.email IS NULL`);
  const and = (parts: Array<RawBuilder<unknown>>) => (parts.length > 0 ? sql` AND ${sql.join(parts, sql` AND `)}` : sql``);
  const page = sql`LIMIT ${limit + 1} OFFSET ${offset}`;

  const pair = text !== "" && isPairQuery(text);
  if (pair || (text !== "" && !isShortQuery(text))) {
    if (sqlite) {
      const [table, match] = pair ? [sql.raw("customer_pairs"), `"${pairToken(text)}"`] : [sql.raw("customer_fts"), `"${text.replace(/"/g, '""')}"`];
      return sql<SearchHit>`SELECT ${HIT_COLUMNS} FROM ${table} CROSS JOIN customer_index AS ci WHERE ${table} MATCH ${match} AND ci.rowid = ${table}.rowid AND +ci.tenant = ${tenant}${and(filters)} ORDER BY ${table}.rowid ${page}`;
    }
    const condition = pair ? sql`ci.name_pairs @> ARRAY[${text}]::text[]` : sql`ci.search_text LIKE ${`%${likeLiteral(text)}%`}`;
    return sql<SearchHit>`SELECT ${HIT_COLUMNS} FROM customer_index AS ci WHERE ci.tenant = ${tenant} AND ${condition}${and(filters)} ORDER BY ci.customer_id ${page}`;
  }
  if (text !== "") {
    // The range [text, text + U+10FFFF) on the folded keys: an index range scan on both dialects.
    const high = `${text}\u{10FFFF}`;
    const nameKey = sqlite ? sql`ci.name_key` : sql`ci.name_key COLLATE "C"`;
    const nickKey = sqlite ? sql`ci.nick_key` : sql`ci.nick_key COLLATE "C"`;
    filters.unshift(sql`((${nameKey} >= ${text} AND ${nameKey} < ${high}) OR (${nickKey} >= ${text} AND ${nickKey} < ${high}))`);
  }
  // SQLite: rowid order (the FTS order above, so a tenant's pages keep one order); PostgreSQL: by id.
  return sql<SearchHit>`SELECT ${HIT_COLUMNS} FROM customer_index AS ci WHERE ci.tenant = ${tenant}${and(filters)} ORDER BY ${sqlite ? sql`ci.rowid` : sql`ci.customer_id`} ${page}`;
}

/**
 * One page of a tenant's customers matching a query (name parts, partial email, mobile with or
 * without country code, identity values; CJK and Latin) and filters. Three characters and more
 * use the trigram index (substrings anywhere); two characters match anywhere in a name or nickName
 * (a given name, `子涵`; `li`); one character matches the start of one.
 */
export async function searchIndex(store: Store, tenant: number, request: SearchRequest): Promise<SearchResult> {
  const limit = Math.max(1, Math.min(request.limit, 200));
  const { rows } = await searchStatement(store, tenant, request).execute(store.db);
  return { hits: rows.slice(0, limit), hasMore: rows.length > limit };
}

/** The database's plan for a search (SQLite `EXPLAIN QUERY PLAN`, PostgreSQL `EXPLAIN`), one line per step: tests and benchmarks check the text index leads. */
export async function explainSearch(store: Store, tenant: number, request: SearchRequest): Promise<string> {
  const statement = searchStatement(store, tenant, request);
  if (store.dialect === "sqlite") {
    const { rows } = await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${statement}`.execute(store.db);
    return rows.map((r) => r.detail).join("\n");
  }
  const { rows } = await sql<{ "QUERY PLAN": string }>`EXPLAIN ${statement}`.execute(store.db);
  return rows.map((r) => r["QUERY PLAN"]).join("\n");
}

/**
 * Fresh planner statistics for the index tables (PostgreSQL `ANALYZE`): after a backfill or a
 * large change the planner otherwise still believes the tables small and reads a tenant whole with
 * `LIKE` instead of the trigram index. SQLite's search plans are fixed by the statements' form.
 */
/**
 * The end of a backfill: the GIN pending lists merged into their indexes in bulk (PostgreSQL; the
 * merge sorts in `maintenance_work_mem`), then fresh statistics.
 */
export async function finishBackfill(store: Store): Promise<void> {
  if (store.dialect === "postgres") {
    await store.db.transaction().execute(async (tx) => {
      await sql`SELECT set_config('maintenance_work_mem', '256MB', true)`.execute(tx);
      await sql`SELECT gin_clean_pending_list('customer_index_trgm'::regclass), gin_clean_pending_list('customer_index_pairs'::regclass)`.execute(tx);
    });
  }
  await refreshIndexStatistics(store);
}

export async function refreshIndexStatistics(store: Store): Promise<void> {
  if (store.dialect !== "postgres") return;
  await sql`ANALYZE customer_index`.execute(store.db);
  await sql`ANALYZE customer_index_tags`.execute(store.db);
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
