import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPlatformId, MAX_ID } from "@/lib/platform/ids";
import { advances, EMPTY_RANGE, intersectRanges, isEmptyRange, keysetQuery, nextCursor, previousCursor } from "./id-keyset";

const BIG = "9007199254740993"; // 2^53 + 1: Number() would make it …992
const MAX = MAX_ID.toString();

describe("keyset cursor math on 64-bit ids kept as strings", () => {
  it("steps by exactly one above 2^53 (no float rounding)", () => {
    expect(keysetQuery("asc", { dir: "after", id: BIG })).toEqual({ range: { from: "9007199254740994" }, sord: "asc", reversed: false });
    expect(keysetQuery("asc", { dir: "before", id: BIG })).toEqual({ range: { to: "9007199254740992" }, sord: "desc", reversed: true });
    expect(String(Number(BIG))).not.toBe(BIG); // why strings: Number() would already be off by one
  });

  it("follows the list's direction: after = larger ids ascending, smaller ids descending", () => {
    expect(keysetQuery("desc", { dir: "after", id: BIG })).toEqual({ range: { to: "9007199254740992" }, sord: "desc", reversed: false });
    expect(keysetQuery("desc", { dir: "before", id: BIG })).toEqual({ range: { from: "9007199254740994" }, sord: "asc", reversed: true });
  });

  it("without a cursor is the user's range in the list's order", () => {
    expect(keysetQuery("desc", undefined, { from: "5", to: "9" })).toEqual({ range: { from: "5", to: "9" }, sord: "desc", reversed: false });
    expect(keysetQuery("asc", undefined)).toEqual({ range: {}, sord: "asc", reversed: false });
  });

  it("intersects the cursor with the user's own idFrom / idTo", () => {
    const user = { from: "9007199254740000", to: "9007199254741000" };
    // The cursor is inside the range: it narrows one end and keeps the other.
    expect(keysetQuery("asc", { dir: "after", id: BIG }, user).range).toEqual({ from: "9007199254740994", to: "9007199254741000" });
    expect(keysetQuery("asc", { dir: "before", id: BIG }, user).range).toEqual({ from: "9007199254740000", to: "9007199254740992" });
    // The cursor is outside the range: the user's end wins.
    expect(keysetQuery("asc", { dir: "after", id: "10" }, user).range).toEqual(user);
    // The cursor is past the range's end: nothing is left.
    expect(isEmptyRange(keysetQuery("asc", { dir: "after", id: "9007199254741000" }, user).range)).toBe(true);
  });

  it("the boundaries of Long: nothing after the largest id, nothing before 1 (ids are positive), every end a valid id", () => {
    expect(keysetQuery("asc", { dir: "after", id: MAX }).range).toEqual(EMPTY_RANGE);
    expect(keysetQuery("asc", { dir: "before", id: "1" }).range).toEqual(EMPTY_RANGE);
    expect(keysetQuery("desc", { dir: "after", id: "1" }).range).toEqual(EMPTY_RANGE);
    expect(keysetQuery("desc", { dir: "before", id: MAX }).range).toEqual(EMPTY_RANGE);
    expect(keysetQuery("asc", { dir: "after", id: (MAX_ID - 1n).toString() }).range).toEqual({ from: MAX });
    expect(keysetQuery("asc", { dir: "before", id: "2" }).range).toEqual({ to: "1" });
    expect(Object.values(EMPTY_RANGE).every(isPlatformId)).toBe(true);
    // A typed range beyond Long is clamped (to) or empty (from).
    expect(keysetQuery("asc", undefined, { to: "9999999999999999999" }).range).toEqual({ to: MAX });
    expect(keysetQuery("asc", undefined, { from: "9999999999999999999" }).range).toEqual(EMPTY_RANGE);
  });

  it("keeps every id it produces valid and on the right side of the cursor (property)", () => {
    const id = fc.bigInt({ min: 1n, max: MAX_ID }).map(String);
    fc.assert(
      fc.property(id, fc.constantFrom("after", "before"), fc.constantFrom("asc", "desc"), fc.option(id), fc.option(id), (cursor, dir, order, from, to) => {
        const user = { ...(from !== null ? { from } : {}), ...(to !== null ? { to } : {}) };
        const { range } = keysetQuery(order as "asc" | "desc", { dir: dir as "after" | "before", id: cursor }, user);
        for (const end of [range.from, range.to]) if (end !== undefined) expect(isPlatformId(end)).toBe(true);
        if (isEmptyRange(range)) return;
        const larger = (dir === "after") === (order === "asc");
        if (larger) expect(BigInt(range.from!) > BigInt(cursor)).toBe(true);
        else expect(BigInt(range.to!) < BigInt(cursor)).toBe(true);
        if (from !== null && range.from !== undefined) expect(BigInt(range.from) >= BigInt(from)).toBe(true);
        if (to !== null && range.to !== undefined) expect(BigInt(range.to) <= BigInt(to)).toBe(true);
      }),
    );
  });

  it("intersects ranges with open ends", () => {
    expect(intersectRanges({}, {})).toEqual({});
    expect(intersectRanges({ from: "3" }, { to: "7" })).toEqual({ from: "3", to: "7" });
    expect(intersectRanges({ from: "3", to: "20" }, { from: "10", to: "30" })).toEqual({ from: "10", to: "20" });
    expect(intersectRanges({ from: "18446744073709551615" }, { from: "9" })).toEqual({ from: "18446744073709551615" });
  });

  it("takes the cursors from the first / last row shown", () => {
    const rows = [{ id: BIG }, { id: "9007199254740995" }];
    expect(nextCursor(rows)).toEqual({ dir: "after", id: "9007199254740995" });
    expect(previousCursor(rows)).toEqual({ dir: "before", id: BIG });
    expect(nextCursor([])).toBeUndefined();
    expect(previousCursor([{ id: "not-an-id" }])).toBeUndefined();
  });

  it("says whether a walk advances", () => {
    expect(advances("asc", BIG, "9007199254740994")).toBe(true);
    expect(advances("asc", BIG, BIG)).toBe(false);
    expect(advances("desc", BIG, "9007199254740992")).toBe(true);
    expect(advances("desc", BIG, "9007199254740994")).toBe(false);
  });
});
