import { describe, expect, it } from "vitest";
import { customerLookupQuery, hitContact, hitName, hitsById } from "./search-queries";

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
});
