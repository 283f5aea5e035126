import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { operations } from "@/lib/platform/operations";
import {
  activeCursor,
  countInput,
  movePage,
  pageRows,
  DEFAULT_STATE,
  EMPTY_FILTERS,
  filterProblem,
  hasActiveFilters,
  listInput,
  parseListState,
  serializeListState,
  type CustomerListState,
} from "./customer-list-state";

type Patch = Omit<Partial<CustomerListState>, "filters"> & { filters?: Partial<CustomerListState["filters"]> };
const state = (patch: Patch = {}): CustomerListState => ({
  ...DEFAULT_STATE,
  ...patch,
  filters: { ...EMPTY_FILTERS, ...patch.filters },
});

describe("customers list state in the URL", () => {
  it("reads defaults from an empty URL and writes nothing for them", () => {
    const parsed = parseListState(new URLSearchParams());
    expect(parsed).toEqual(DEFAULT_STATE);
    expect(serializeListState(parsed).toString()).toBe("");
  });

  it("keeps the page's other parameters (openAppId) and replaces its own", () => {
    const keep = new URLSearchParams("openAppId=oa-1&page=3&stage=lead");
    const out = serializeListState(state({ filters: { source: "web" } }), keep);
    expect(out.toString()).toBe("openAppId=oa-1&source=web");
  });

  it("round-trips every field", () => {
    const full = state({
      filters: {
        stage: "", stageEmpty: true, source: "wx", mobile: "+86 13800000000", email: "a@b.c", gender: "2", hasMobile: "true", hasEmail: "false",
        identityType: "email", identityValue: "a@b.c", idList: "9007199254740993,9007199254740995", idFrom: "1", idTo: "9223372036854775807",
        createdFrom: "2026-01-01T00:00", createdTo: "2026-01-31T23:59", updatedFrom: "2026-02-01T08:00", updatedTo: "2026-02-02T08:00",
      },
      sort: "lastUpdated", order: "desc", page: 7, rows: 100, columns: ["id", "email", "city"],
    });
    expect(parseListState(serializeListState(full))).toEqual(full);
  });

  it("accepts Next's searchParams object (first of repeated values)", () => {
    expect(parseListState({ stage: ["lead", "x"], page: "2", rows: "50" })).toMatchObject({ filters: { stage: "lead" }, page: 2, rows: 50 });
  });

  it("falls back to defaults for values it does not know", () => {
    const parsed = parseListState(new URLSearchParams("sidx=password&sord=sideways&page=-1&rows=7&gender=5&hasEmail=maybe&cols=secret,,"));
    expect(parsed).toEqual(DEFAULT_STATE);
    expect(parseListState(new URLSearchParams("page=1.5")).page).toBe(1);
  });

  it("survives any URL without throwing", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom("stage", "page", "rows", "sidx", "sord", "cols", "gender", "createdFrom", "idList", "x"), fc.string()), (params) => {
        const parsed = parseListState(new URLSearchParams(params));
        expect(parseListState(serializeListState(parsed))).toEqual(parsed);
      }),
    );
  });
});

describe("the platform queries of a state (§4.1)", () => {
  it("sends stage _empty for customers without a stage", () => {
    const s = state({ filters: { stageEmpty: true } });
    expect(listInput(s).query).toMatchObject({ stage: "_empty" });
    expect(countInput(s)?.query).toEqual({ stage: "_empty" });
  });

  it("converts UTC+8 time filters to UTC (§2)", () => {
    const s = state({ filters: { createdFrom: "2026-03-01T00:00", updatedTo: "2026-01-01T07:59" } });
    expect(listInput(s).query).toMatchObject({ dateCreatedFrom: "2026-02-28T16:00:00", lastUpdatedTo: "2025-12-31T23:59:00" });
  });

  it("sends paging, sort and select with id always included", () => {
    const s = state({ page: 3, rows: 50, sort: "dateCreated", order: "desc", columns: ["email", "stage"] });
    expect(listInput(s).query).toEqual({ select: "id,email,stage", rows: 50, page: 3, sidx: "dateCreated", sord: "desc" });
  });

  it("does not send invalid or half filters", () => {
    const s = state({ filters: { idList: "1,x", idFrom: "abc", createdFrom: "2026-02-30T00:00", identityType: "email" } });
    expect(listInput(s).query).toEqual(listInput(DEFAULT_STATE).query);
    expect(filterProblem("idList", "1,x")).toBe("invalidIds");
    expect(filterProblem("idList", "1, 2 ,3")).toBeUndefined();
    expect(filterProblem("createdFrom", "2026-02-30T00:00")).toBe("invalidTime");
  });

  it("normalizes id lists typed with spaces or Chinese commas", () => {
    expect(listInput(state({ filters: { idList: "1, 2，3" } })).query?.idList).toBe("1,2,3");
  });

  it("has no count when a filter the count does not take is active", () => {
    for (const filters of [{ email: "a@b.c" }, { hasMobile: "true" as const }, { hasEmail: "false" as const }, { identityType: "email", identityValue: "x" }, { idFrom: "5" }]) {
      expect(countInput(state({ filters })), JSON.stringify(filters)).toBeUndefined();
    }
    expect(countInput(state({ filters: { mobile: "138", gender: "1", source: "web" } }))?.query).toEqual({ mobile: "138", gender: 1, source: "web" });
  });

  it("produces inputs the operation table accepts", () => {
    const s = state({
      filters: { stage: "lead", email: "a@b.c", hasMobile: "true", identityType: "email", identityValue: "a@b.c", idList: "9007199254740993", idFrom: "1", idTo: "2", createdFrom: "2026-01-01T00:00" },
      sort: "email", order: "desc", page: 2, rows: 100,
    });
    expect(operations["customers.list"].query.safeParse(listInput(s).query).success).toBe(true);
    const count = countInput(state({ filters: { stageEmpty: true, gender: "0", idList: "1,2", updatedFrom: "2026-01-01T00:00" } }));
    expect(operations["customers.count"].query.safeParse(count?.query).success).toBe(true);
  });

  it("knows when filters are active", () => {
    expect(hasActiveFilters(EMPTY_FILTERS)).toBe(false);
    expect(hasActiveFilters({ ...EMPTY_FILTERS, hasEmail: "false" })).toBe(true);
  });
});

describe("keyset paging when sorted by id", () => {
  const BIG = "9007199254740993";
  const shown = (...ids: string[]) => ids.map((id) => ({ id }));

  it("Next seeks after the last id shown: page=1 on the wire, the page number in the URL", () => {
    const next = movePage(state({ page: 1 }), 2, shown("9007199254740990", BIG));
    expect(next).toMatchObject({ page: 2, cursor: { dir: "after", id: BIG } });
    expect(serializeListState(next).toString()).toBe(`page=2&after=${BIG}`);
    expect(listInput(next).query).toMatchObject({ idFrom: "9007199254740994", page: 1, sidx: "id", sord: "asc" });
    expect(listInput(next).query).not.toHaveProperty("idTo");
    expect(parseListState(serializeListState(next))).toEqual(next);
  });

  it("Previous seeks before the first id shown in the reverse order and shows the rows reversed", () => {
    const prev = movePage(state({ page: 3, cursor: { dir: "after", id: "1" } }), 2, shown(BIG, "9007199254740999"));
    expect(prev).toMatchObject({ page: 2, cursor: { dir: "before", id: BIG } });
    expect(serializeListState(prev).toString()).toBe(`page=2&before=${BIG}`);
    expect(listInput(prev).query).toMatchObject({ idTo: "9007199254740992", page: 1, sord: "desc" });
    expect(pageRows(prev, ["c", "b", "a"])).toEqual(["a", "b", "c"]);
    expect(pageRows(state({ page: 2, cursor: { dir: "after", id: "1" } }), ["a", "b"])).toEqual(["a", "b"]);
  });

  it("descending order: Next goes to smaller ids, Previous to larger ones", () => {
    const next = movePage(state({ order: "desc" }), 2, shown("9007199254740999", BIG));
    expect(listInput(next).query).toMatchObject({ idTo: "9007199254740992", sord: "desc", page: 1 });
    const prev = movePage({ ...next, page: 3 }, 2, shown(BIG));
    expect(listInput(prev).query).toMatchObject({ idFrom: "9007199254740994", sord: "asc", page: 1 });
  });

  it("keeps the user's own id range (intersected) and every other filter", () => {
    const s = state({ page: 1, filters: { idFrom: "9007199254740000", idTo: "9007199254741000", stage: "lead", email: "a@b.c" } });
    expect(listInput(s).query).toMatchObject({ idFrom: "9007199254740000", idTo: "9007199254741000", stage: "lead", email: "a@b.c" });
    const next = movePage(s, 2, shown(BIG));
    expect(listInput(next).query).toMatchObject({ idFrom: "9007199254740994", idTo: "9007199254741000", stage: "lead", email: "a@b.c", page: 1 });
    expect(operations["customers.list"].query.safeParse(listInput(next).query).success).toBe(true);
  });

  it("page 1 never has a cursor; a jump (last page) or another sort uses offsets", () => {
    const onKeyset = state({ page: 5, cursor: { dir: "after", id: BIG } });
    expect(movePage(onKeyset, 4, shown(BIG))).toMatchObject({ page: 4, cursor: { dir: "before" } });
    const first = movePage(onKeyset, 1, shown(BIG));
    expect(first.cursor).toBeUndefined();
    expect(listInput(first).query).toMatchObject({ page: 1 });
    const last = movePage(onKeyset, 40, shown(BIG));
    expect(last.cursor).toBeUndefined();
    expect(listInput(last).query).toMatchObject({ page: 40 });
    expect(listInput(last).query).not.toHaveProperty("idFrom");
    const byDate = movePage(state({ sort: "dateCreated" }), 2, shown(BIG));
    expect(byDate.cursor).toBeUndefined();
    expect(listInput(byDate).query).toMatchObject({ page: 2, sidx: "dateCreated" });
    // Nothing on screen (still loading): an offset step.
    expect(movePage(state({ page: 2 }), 3, []).cursor).toBeUndefined();
  });

  it("ignores a cursor the state cannot use (page 1, another sort, not an id)", () => {
    for (const query of [`after=${BIG}`, `page=2&sidx=email&after=${BIG}`, "page=2&after=abc", "page=2&before=99999999999999999999", "page=2&after=-5"]) {
      const parsed = parseListState(new URLSearchParams(query));
      expect(activeCursor(parsed), query).toBeUndefined();
      expect(serializeListState(parsed).toString(), query).not.toMatch(/after|before/);
    }
    expect(parseListState(new URLSearchParams(`page=2&before=${BIG}`)).cursor).toEqual({ dir: "before", id: BIG });
    // A filter change resets to page 1, and the stale cursor then goes nowhere.
    const reset = { ...state({ page: 4, cursor: { dir: "after", id: BIG } }), page: 1 };
    expect(serializeListState(reset).toString()).toBe("");
    expect(listInput(reset).query).not.toHaveProperty("idFrom");
  });
});
