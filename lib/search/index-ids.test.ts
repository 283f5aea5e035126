import { expect, it } from "vitest";
import { describeEachDialect, warnIfPostgresSkipped } from "@/lib/store/testing";
import { searchIds, tagCounts } from "./index-ids";
import { setCustomerTags, upsertCustomers } from "./index-store";
import { ensureTenant } from "./tenant-state";
import type { IndexDocument } from "./normalize";

warnIfPostgresSkipped("customer index ids");

const person = (n: number, name: string): IndexDocument => ({ id: String(9007199254740993n + BigInt(n)), name, displayName: name, email: `p${n}@example.com`, mobile: null });

describeEachDialect("customer index ids and tag counts", (t) => {
  async function tenantWith(docs: IndexDocument[], tenantId = "2001") {
    const state = await ensureTenant(t.store, { openAppId: "app-ids", tenantId });
    await upsertCustomers(t.store, state.tenant, docs);
    return state.tenant;
  }
  const all = async (gen: AsyncIterable<string[]>) => {
    const pages: string[][] = [];
    for await (const page of gen) pages.push(page);
    return pages;
  };

  it("walks every id of a search, a page at a time, and no other tenant's", async () => {
    const docs = Array.from({ length: 7 }, (_, i) => person(i, i % 2 === 0 ? `Wang ${i}` : `Zhao ${i}`));
    const tenant = await tenantWith(docs);
    await tenantWith([person(100, "Wang other")], "2002");
    const pages = await all(searchIds(t.store, tenant, { q: "wang" }, undefined, 2));
    expect(pages.map((p) => p.length)).toEqual([2, 2]);
    expect(pages.flat().sort()).toEqual(docs.filter((_, i) => i % 2 === 0).map((d) => d.id).sort());
    // A tag filter alone (no text) is a search too.
    await setCustomerTags(t.store, tenant, new Map([[docs[1]!.id, ["vip"]], [docs[2]!.id, ["vip"]]]));
    expect((await all(searchIds(t.store, tenant, { tag: "vip" }))).flat().sort()).toEqual([docs[1]!.id, docs[2]!.id].sort());
    expect(await all(searchIds(t.store, tenant, { q: "nobody here" }))).toEqual([]);
  });

  it("stops when the export is cancelled", async () => {
    const tenant = await tenantWith(Array.from({ length: 5 }, (_, i) => person(i, `Li ${i}`)));
    const abort = new AbortController();
    const seen: string[][] = [];
    await expect(async () => {
      for await (const page of searchIds(t.store, tenant, { q: "li" }, abort.signal, 2)) {
        seen.push(page);
        abort.abort();
      }
    }).rejects.toThrow();
    expect(seen).toHaveLength(1);
  });

  it("counts the customers of each tag asked, 0 for a tag nobody carries, per tenant", async () => {
    const docs = Array.from({ length: 4 }, (_, i) => person(i, `P ${i}`));
    const tenant = await tenantWith(docs);
    const other = await tenantWith([person(50, "Q")], "2003");
    await setCustomerTags(t.store, tenant, new Map([[docs[0]!.id, ["vip", "新客"]], [docs[1]!.id, ["vip"]], [docs[2]!.id, ["新客"]], [docs[3]!.id, ["vip"]]]));
    await setCustomerTags(t.store, other, new Map([[person(50, "Q").id, ["vip"]]]));
    expect(await tagCounts(t.store, tenant, ["vip", "新客", "none"])).toEqual({ vip: 3, 新客: 2, none: 0 });
    expect(await tagCounts(t.store, other, ["vip"])).toEqual({ vip: 1 });
    expect(await tagCounts(t.store, tenant, [])).toEqual({});
  });
});
