import { describe, expect, it } from "vitest";
import { customerLookupQuery, hitContact, hitName, hitsById, searchCount, tagCountsQuery } from "./search-queries";

const hit = (id: string, more: Partial<{ name: string; mobile: string; email: string }> = {}) => ({ id, displayName: null, name: more.name ?? null, nickName: null, email: more.email ?? null, mobile: more.mobile ?? null });

describe("names beside customer ids", () => {
  it("one lookup per page: the same ids in any order and with repeats share one query key", () => {
    expect(customerLookupQuery(["2", "1", "2"]).queryKey).toEqual(customerLookupQuery(["1", "2"]).queryKey);
  });
  it("leaves out what is not an id and asks for at most 200", () => {
    const ids = Array.from({ length: 250 }, (_, i) => String(i + 1));
    const key = customerLookupQuery([...ids, "abc", ""]).queryKey;
    const asked = String((key[4] as { query: { ids: string } }).query.ids);
    expect(asked.split(",")).toHaveLength(200);
    expect(asked).not.toContain("abc");
  });
  it("contact is the mobile, else the email; a name falls back through nickName", () => {
    expect(hitContact(hit("1", { mobile: "+86 139", email: "a@b.c" }))).toBe("+86 139");
    expect(hitContact(hit("1", { email: "a@b.c" }))).toBe("a@b.c");
    expect(hitContact(hit("1"))).toBeUndefined();
    expect(hitName({ displayName: null, name: null, nickName: "Tao" })).toBe("Tao");
  });
  it("an id the index does not hold finds nothing (the row shows the id alone)", () => {
    const byId = hitsById([hit("1", { name: "Li" })]);
    expect(byId.get("1")?.name).toBe("Li");
    expect(byId.get("2")).toBeUndefined();
    expect(hitsById(undefined).size).toBe(0);
  });

  it("counts a search exactly on its last page or from the index's tag count, else as 'more than'", () => {
    const page = (n: number, hasMore: boolean) => ({ hits: Array.from({ length: n }, (_, i) => hit(String(i + 1))), hasMore });
    expect(searchCount({ offset: 0 }, page(7, false))).toEqual({ count: 7, exact: true });
    expect(searchCount({ offset: 40 }, page(20, true))).toEqual({ count: 60, exact: false });
    expect(searchCount({ offset: 0 }, page(20, true), 1234)).toEqual({ count: 1234, exact: true });
    expect(searchCount({}, page(0, false))).toEqual({ count: 0, exact: true });
  });

  it("asks the tag counts of a set of tags under one key whatever their order", () => {
    expect(tagCountsQuery(["b", "a", "b"]).queryKey).toEqual(tagCountsQuery(["a", "b"]).queryKey);
  });
});
