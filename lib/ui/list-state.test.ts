import { describe, expect, it } from "vitest";
import { activityFilterOf, activityList } from "@/lib/activity/activity-list";
import { customerListUrlState } from "@/lib/customers/customer-list-state";
import { eventBrowseUrlState } from "@/lib/events/event-browse";
import { membersUrlState } from "@/lib/lists/list-members-state";
import { listsUrlState } from "@/lib/lists/lists-state";
import { orderListUrlState } from "@/lib/orders/order-list-state";
import { shopListState, shopQueryOf } from "@/lib/shops/shop-list-query";
import { tagsUrlState } from "@/lib/tags/tags-state";
import { hasNextPage, pageCount } from "./list-state";
import { sortRows } from "./sort-rows";

describe("the list definitions: where a change of filter, sort or size starts again", () => {
  it("offset lists go back to page 1, keeping the rest", () => {
    expect(listsUrlState.firstPage({ ...listsUrlState.defaults, page: 7, sort: "name" })).toEqual({ ...listsUrlState.defaults, sort: "name", page: 1 });
    expect(tagsUrlState.firstPage({ ...tagsUrlState.defaults, page: 3, dimension: "basic" })).toMatchObject({ page: 1, dimension: "basic" });
    expect(orderListUrlState.firstPage({ ...orderListUrlState.defaults, page: 9, customerId: "42" })).toMatchObject({ page: 1, customerId: "42" });
    const deep = customerListUrlState.parse(new URLSearchParams("page=5&after=9007199254740993&sidx=id"));
    expect(deep.cursor).toEqual({ dir: "after", id: "9007199254740993" });
    // Page 1 needs no cursor: none is written.
    expect(customerListUrlState.serialize(customerListUrlState.firstPage(deep)).toString()).toBe("");
  });

  it("keyset lists drop their boundary: it belongs to one sort", () => {
    const paged = membersUrlState.parse(new URLSearchParams("since=77&back=1&msidx=id&joinedFrom=2026-01-01T00:00"));
    expect(paged).toMatchObject({ since: "77", back: true });
    expect(membersUrlState.firstPage(paged)).toEqual({ ...paged, since: "", back: false });
    const older = activityList.parse(new URLSearchParams("resource=order&before=120"));
    expect(activityList.firstPage(older)).toEqual({ ...older, before: "" });
  });

  it("lists shown whole keep the state as it is", () => {
    const events = { ...eventBrowseUrlState.defaults, max: 100 };
    expect(eventBrowseUrlState.firstPage(events)).toBe(events);
    const shops = { ...shopListState.defaults, q: "S0001" };
    expect(shopListState.firstPage(shops)).toBe(shops);
  });
});

describe("the Shops list in the URL", () => {
  it("reads and writes the search, sort, order and state; defaults stay out; bad values read as defaults", () => {
    expect(shopListState.parse(new URLSearchParams("q=%20Bagel%20&sort=name&order=asc&state=seen&openAppId=x"))).toEqual({ q: "Bagel", sort: "name", order: "asc", state: "seen" });
    expect(shopListState.parse(new URLSearchParams("sort=price&order=up&state=gone"))).toEqual(shopListState.defaults);
    expect(shopListState.serialize({ ...shopListState.defaults, sort: "sid" }, new URLSearchParams("openAppId=x")).toString()).toBe("openAppId=x&sort=sid");
    expect(shopQueryOf(shopListState.defaults)).toEqual({});
    expect(shopQueryOf({ q: " a ", sort: "id", order: "asc", state: "unseen" })).toEqual({ q: "a", sort: "id", order: "asc", state: "unseen" });
  });
});

describe("the Activity list in the URL", () => {
  it("parses the filters and the boundary; a time that does not read is left out and flagged", () => {
    const state = activityList.parse({ kind: "tag.created", from: "2026-11-23 20:15", to: "yesterday", before: "12x", openAppId: "x" });
    expect(state).toEqual({ kind: "tag.created", resource: "", from: "2026-11-23 20:15", to: "yesterday", before: "" });
    const { filter, problems } = activityFilterOf(state);
    // UTC+8 typed: 8 hours earlier in UTC.
    expect(filter).toEqual({ kind: "tag.created", resource: undefined, from: Date.UTC(2026, 10, 23, 12, 15), to: undefined, before: undefined });
    expect(problems).toEqual({ from: false, to: true });
  });
});

describe("totals", () => {
  it("pages from a record count; a next page by the count, else by a full page", () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(41, 20)).toBe(3);
    expect(pageCount(undefined, 20)).toBeUndefined();
    expect(hasNextPage(2, 3, 20, 20)).toBe(true);
    expect(hasNextPage(3, 3, 20, 20)).toBe(false);
    expect(hasNextPage(1, undefined, 20, 20)).toBe(true);
    expect(hasNextPage(1, undefined, 19, 20)).toBe(false);
  });
});

describe("lists sorted in the browser (shop groups, media imports)", () => {
  const rows = [
    { id: "9007199254740993", name: "北区", at: 3 },
    { id: "10", name: null, at: 1 },
    { id: "900719925474099", name: "Alpha", at: 2 },
  ];
  const valueOf = { id: (r: (typeof rows)[number]) => r.id, name: (r: (typeof rows)[number]) => r.name, created: (r: (typeof rows)[number]) => r.at };
  it("sorts ids as 64-bit numbers (never Number()), times as numbers, empty names last both ways", () => {
    expect(sortRows(rows, "id", "asc", valueOf).map((r) => r.id)).toEqual(["10", "900719925474099", "9007199254740993"]);
    expect(sortRows(rows, "id", "desc", valueOf).map((r) => r.id)).toEqual(["9007199254740993", "900719925474099", "10"]);
    expect(sortRows(rows, "created", "desc", valueOf).map((r) => r.at)).toEqual([3, 2, 1]);
    expect(sortRows(rows, "name", "asc", valueOf).at(-1)!.name).toBeNull();
    expect(sortRows(rows, "name", "desc", valueOf).at(-1)!.name).toBeNull();
  });
});
