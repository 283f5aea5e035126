import { describe, expect, it } from "vitest";
import { concurrently, describeEachDialect, openTwinTestStores, testDialects, warnIfPostgresSkipped } from "@/lib/store/testing";
import { sql } from "kysely";
import { countIndexed, deleteCustomers, explainSearch, finishBackfill, indexPage, lookupIndexed, refreshIndexStatistics, searchIndex, setCustomerTags, upsertCustomers } from "./index-store";
import { ensureTenant, removeTenantIndex } from "./tenant-state";
import type { IndexDocument } from "./normalize";

warnIfPostgresSkipped("customer index");

const LI: IndexDocument = { id: "9007199254740993", name: "李娜", displayName: "李娜", email: "li.tao0@example.com", mobile: "+86 13900000000", stage: "lead", source: "web", gender: 2, identities: [{ type: "wechat", value: "oWx-77abc" }] };
const TAO: IndexDocument = { id: "9007199254740995", name: "Tao Li", displayName: "Tao Li", email: "tao@example.org", mobile: "+86 13811112222", stage: "customer", gender: 1 };
const NICK: IndexDocument = { id: "9007199254740997", nickName: "小王", displayName: "小王", mobile: null, email: null };

const ids = (r: { hits: Array<{ id: string }> }) => r.hits.map((h) => h.id).sort();

describeEachDialect("customer index", (t) => {
  /** A tenant holding `docs`, and its text search answering the matching ids. */
  async function searchOf(docs: IndexDocument[]) {
    const tenant = await tenantWith(docs);
    return (q: string) => searchIndex(t.store, tenant, { q, limit: 20 }).then(ids);
  }

  async function tenantWith(docs: IndexDocument[], tenantId = "1001") {
    const state = await ensureTenant(t.store, { openAppId: "app-a", tenantId });
    await upsertCustomers(t.store, state.tenant, docs);
    return state.tenant;
  }

  it("finds a customer by a partial email, a bare mobile, the mobile with its country code, a CJK name and an identity value", async () => {
    const search = await searchOf([LI, TAO, NICK]);
    expect(await search("li.tao0")).toEqual([LI.id]);
    expect(await search("13900000000")).toEqual([LI.id]);
    expect(await search("+86 13900000000")).toEqual([LI.id]);
    expect(await search("139 0000")).toEqual([LI.id]);
    expect(await search("0000000")).toEqual([LI.id]);
    expect(await search("77ABC")).toEqual([LI.id]);
    expect(await search("example")).toEqual([LI.id, TAO.id]);
    expect(await search("nobody-here")).toEqual([]);
  });

  it("two characters match anywhere in a name or nickName (a CJK given name, Latin); one character the start of one", async () => {
    const WU: IndexDocument = { id: "9007199254740999", name: "吴子涵", displayName: "吴子涵", nickName: "Ｈａｎ·X", email: "wu@example.com" };
    const search = await searchOf([LI, TAO, NICK, WU]);
    expect(await search("李娜")).toEqual([LI.id]);
    expect(await search("子涵")).toEqual([WU.id]);
    expect(await search("李")).toEqual([LI.id]);
    expect(await search("子")).toEqual([]);
    expect(await search("ta")).toEqual([TAO.id]);
    expect(await search("ao")).toEqual([TAO.id]);
    expect(await search("LI")).toEqual([TAO.id]);
    expect(await search("小王")).toEqual([NICK.id]);
    expect(await search("an")).toEqual([WU.id]); // the nickName, folded from full-width
    expect(await search("n·")).toEqual([WU.id]); // punctuation is a character like any other
    expect(await search("o l")).toEqual([TAO.id]); // three characters: the trigram index
    expect(await search("wu")).toEqual([]); // an email is not a name: two characters look at names only
  });

  it("a name changed or removed leaves no pair behind", async () => {
    const WU: IndexDocument = { id: "9007199254740999", name: "吴子涵", displayName: "吴子涵" };
    const tenant = await tenantWith([WU]);
    const find = (q: string) => searchIndex(t.store, tenant, { q, limit: 20 }).then(ids);
    await upsertCustomers(t.store, tenant, [{ ...WU, name: "吴雨桐" }]);
    expect(await find("子涵")).toEqual([]);
    expect(await find("雨桐")).toEqual([WU.id]);
    await deleteCustomers(t.store, tenant, [WU.id]);
    expect(await find("雨桐")).toEqual([]);
  });

  it("the text index leads every text search's plan once statistics are fresh; the tenant's own rows are not walked first", async () => {
    // Enough rows that reading the tenant whole costs PostgreSQL's planner more than the text index
    // (SQLite's plan does not depend on the size).
    const crowd: IndexDocument[] = Array.from({ length: t.store.dialect === "sqlite" ? 3000 : 20_000 }, (_, i) => ({ id: String(1000 + i), name: `${"赵钱孙周"[i % 4]}${"伟芳娜敏静"[i % 5]}${i}`, email: `person${i}@example.net`, mobile: `+86 138${String(i).padStart(8, "0")}` }));
    const tenant = await tenantWith([LI, TAO, NICK, ...crowd]);
    await refreshIndexStatistics(t.store);
    const sqlite = t.store.dialect === "sqlite";
    for (const [q, index] of [["子涵", sqlite ? "customer_pairs" : "customer_index_pairs"], ["li.tao0", sqlite ? "customer_fts" : "customer_index_trgm"], ["13900000000", sqlite ? "customer_fts" : "customer_index_trgm"]] as const) {
      // A test table fits in a few pages, which a sequential read always wins: priced out on
      // PostgreSQL, the planner still chooses among the tenant's key, the name keys and the text
      // indexes from the statistics.
      const plan = sqlite
        ? await explainSearch(t.store, tenant, { q, limit: 20, stage: "lead" })
        : await t.store.db.transaction().execute(async (tx) => {
            await sql`SET LOCAL enable_seqscan = off`.execute(tx);
            return explainSearch({ ...t.store, db: tx }, tenant, { q, limit: 20 });
          });
      if (sqlite) {
        // First the FTS table, then each hit's row by rowid; no sort, no scan of the tenant's index.
        const steps = plan.split("\n");
        expect(steps[0], q).toMatch(new RegExp(`^SCAN ${index} VIRTUAL TABLE`));
        expect(steps[1], q).toMatch(/^SEARCH ci USING INTEGER PRIMARY KEY \(rowid=\?\)$/);
        expect(plan, q).not.toMatch(/TEMP B-TREE|customer_index_pk|sqlite_autoindex/);
      } else {
        // Either the text index finds the hits, or (a term the statistics say is common) the tenant's
        // key order is walked and the LIMIT stops it early; never the tenant read whole, then sorted.
        const textIndex = plan.includes(`Bitmap Index Scan on ${index}`);
        const keyOrderWalk = /^Limit[^\n]*\n\s*->\s+Index Scan using customer_index_pk/.test(plan) && !plan.includes("Sort");
        expect(textIndex || keyOrderWalk, `${q}:\n${plan}`).toBe(true);
      }
    }
  }, 120_000); // 20,000 rows written on a shared machine

  it("statistics are refreshed on demand (PostgreSQL ANALYZE after a backfill)", async () => {
    await tenantWith([LI, TAO, NICK]);
    await refreshIndexStatistics(t.store);
    if (t.store.dialect === "postgres") {
      const { rows } = await sql<{ analyzed: Date | null }>`SELECT last_analyze AS analyzed FROM pg_stat_user_tables WHERE relname = 'customer_index' AND schemaname = current_schema()`.execute(t.store.db);
      expect(rows[0]?.analyzed).toBeInstanceOf(Date);
    }
  });

  it("a backfill's pages are searchable at once; finishing it leaves no GIN entry pending (PostgreSQL) and fresh statistics, the text sampled 1,000 values deep", async () => {
    const state = await ensureTenant(t.store, { openAppId: "app-a", tenantId: "1001" });
    const docs = Array.from({ length: 2000 }, (_, i) => ({ id: String(9007199254800000n + BigInt(i)), name: `客户${i}`, email: `customer.${i}@example.com`, mobile: `+86 139${String(i).padStart(8, "0")}` }));
    await indexPage(t.store, state.tenant, docs.slice(0, 1000), new Map(), { backfill: true });
    await indexPage(t.store, state.tenant, docs.slice(1000), new Map([[docs[1500]!.id, ["vip"]]]), { backfill: true });
    expect((await searchIndex(t.store, state.tenant, { q: "customer.1500@", limit: 5 })).hits.map((h) => h.id)).toEqual([docs[1500]!.id]);
    expect((await searchIndex(t.store, state.tenant, { q: "户1", limit: 5, tag: "vip" })).hits.map((h) => h.id)).toEqual([docs[1500]!.id]);
    await finishBackfill(t.store);
    if (t.store.dialect === "postgres") {
      const pending = await sql<{ trgm: number; pairs: number }>`SELECT gin_clean_pending_list('customer_index_trgm'::regclass)::int AS trgm, gin_clean_pending_list('customer_index_pairs'::regclass)::int AS pairs`.execute(t.store.db);
      expect(pending.rows[0]).toEqual({ trgm: 0, pairs: 0 });
      const analyzed = await sql<{ analyzed: Date | null }>`SELECT last_analyze AS analyzed FROM pg_stat_user_tables WHERE relname = 'customer_index' AND schemaname = current_schema()`.execute(t.store.db);
      expect(analyzed.rows[0]?.analyzed).toBeInstanceOf(Date);
      const targets = await sql<{ target: number }>`SELECT attstattarget AS target FROM pg_attribute WHERE attrelid = 'customer_index'::regclass AND attname = 'search_text'`.execute(t.store.db);
      expect(targets.rows).toEqual([{ target: 1000 }]);
    }
  });

  it("treats LIKE and FTS syntax in a query as text", async () => {
    const tenant = await tenantWith([LI, TAO]);
    for (const q of ['%%%', '___', '"li', "li*", "a OR b", "\\\\\\"]) expect((await searchIndex(t.store, tenant, { q, limit: 20 })).hits).toEqual([]);
  });

  it("filters by tag, stage, gender, has mobile, combined with the text; pages with hasMore", async () => {
    const tenant = await tenantWith([LI, TAO, NICK]);
    await setCustomerTags(t.store, tenant, new Map([[LI.id, ["vip", "2024"]], [TAO.id, ["vip"]], [NICK.id, []]]));
    expect(ids(await searchIndex(t.store, tenant, { tag: "vip", limit: 20 }))).toEqual([LI.id, TAO.id]);
    expect(ids(await searchIndex(t.store, tenant, { tag: "2024", limit: 20 }))).toEqual([LI.id]);
    expect(ids(await searchIndex(t.store, tenant, { tag: "vip", q: "tao@", limit: 20 }))).toEqual([TAO.id]);
    expect(ids(await searchIndex(t.store, tenant, { tag: "vip", stage: "lead", limit: 20 }))).toEqual([LI.id]);
    expect(ids(await searchIndex(t.store, tenant, { gender: 1, limit: 20 }))).toEqual([TAO.id]);
    expect(ids(await searchIndex(t.store, tenant, { gender: 0, limit: 20 }))).toEqual([NICK.id]);
    expect(ids(await searchIndex(t.store, tenant, { hasMobile: false, limit: 20 }))).toEqual([NICK.id]);
    const first = await searchIndex(t.store, tenant, { tag: "vip", limit: 1 });
    const second = await searchIndex(t.store, tenant, { tag: "vip", limit: 1, offset: 1 });
    expect(first.hasMore).toBe(true);
    expect(second.hasMore).toBe(false);
    expect([...ids(first), ...ids(second)].sort()).toEqual([LI.id, TAO.id]);
    // Tags replaced, not added to.
    await setCustomerTags(t.store, tenant, new Map([[TAO.id, []]]));
    expect(ids(await searchIndex(t.store, tenant, { tag: "vip", limit: 20 }))).toEqual([LI.id]);
  });

  it("an update replaces what is searchable; an update without identities keeps the indexed ones; a delete removes the customer", async () => {
    const tenant = await tenantWith([LI, TAO]);
    await upsertCustomers(t.store, tenant, [{ ...LI, identities: undefined, email: "na.li@corp.cn" }]);
    expect(ids(await searchIndex(t.store, tenant, { q: "li.tao0", limit: 20 }))).toEqual([]);
    expect(ids(await searchIndex(t.store, tenant, { q: "na.li@", limit: 20 }))).toEqual([LI.id]);
    expect(ids(await searchIndex(t.store, tenant, { q: "77abc", limit: 20 }))).toEqual([LI.id]);
    await setCustomerTags(t.store, tenant, new Map([[LI.id, ["vip"]]]));
    await deleteCustomers(t.store, tenant, [LI.id]);
    expect(ids(await searchIndex(t.store, tenant, { q: "na.li@", limit: 20 }))).toEqual([]);
    expect(ids(await searchIndex(t.store, tenant, { tag: "vip", limit: 20 }))).toEqual([]);
    expect(await countIndexed(t.store, tenant)).toBe(1);
  });

  it("keeps tenants apart: one tenant's query never returns another's customers; removing one leaves the other", async () => {
    const a = await tenantWith([LI], "1001");
    const b = await tenantWith([{ ...TAO, email: "li.tao0@other.com" }], "2002");
    await setCustomerTags(t.store, b, new Map([[TAO.id, ["vip"]]]));
    expect(ids(await searchIndex(t.store, a, { q: "li.tao0", limit: 20 }))).toEqual([LI.id]);
    expect(ids(await searchIndex(t.store, b, { q: "li.tao0", limit: 20 }))).toEqual([TAO.id]);
    expect(ids(await searchIndex(t.store, a, { tag: "vip", limit: 20 }))).toEqual([]);
    expect(await lookupIndexed(t.store, a, [TAO.id])).toEqual([]);
    await removeTenantIndex(t.store, { openAppId: "app-a", tenantId: "1001" });
    expect(await countIndexed(t.store, a)).toBe(0);
    expect(ids(await searchIndex(t.store, b, { q: "li.tao0", limit: 20 }))).toEqual([TAO.id]);
  });

  it("looks up names and contacts by id", async () => {
    const tenant = await tenantWith([LI, NICK]);
    const found = await lookupIndexed(t.store, tenant, [NICK.id, LI.id, "1"]);
    expect(found.map((h) => [h.id, h.displayName, h.mobile]).sort()).toEqual([
      [LI.id, "李娜", "+86 13900000000"],
      [NICK.id, "小王", null],
    ]);
  });
});

for (const dialect of testDialects) {
  describe.skipIf(!dialect.enabled)(`customer index first writes race on ${dialect.name}`, () => {
    it("20 concurrent first writes of the same customers (and the tenant row) over two store instances: one row each, no error", async () => {
      const { stores, cleanup } = await openTwinTestStores(dialect);
      try {
        const key = { openAppId: "app-a", tenantId: "1001" };
        const { errors } = await concurrently(20, async (i) => {
          const store = stores[i % 2]!;
          const { tenant } = await ensureTenant(store, key);
          // A webhook's re-read and a sync page list the same customers in their own order, one of them twice.
          await upsertCustomers(store, tenant, i % 2 === 0 ? [LI, TAO, NICK] : [NICK, TAO, LI, { ...TAO, stage: "lead" }]);
        });
        expect(errors).toEqual([]);
        const { tenant } = await ensureTenant(stores[0], key);
        expect(await countIndexed(stores[1], tenant)).toBe(3);
        expect(await stores[0].db.selectFrom("search_tenants").selectAll().execute()).toHaveLength(1);
      } finally {
        await cleanup();
      }
    });
  });
}
