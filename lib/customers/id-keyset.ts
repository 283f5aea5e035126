import { isPlatformId, MAX_ID } from "@/lib/platform/ids";

/**
 * Keyset ("seek") paging on customer ids for §4.1 GET /v1/customers, which filters by an id range
 * (`idFrom`, `idTo`, both inclusive) and sorts by `sidx=id`. The next page is "the rows after the
 * last id shown" instead of "skip N rows", so page 5,000 costs what page 1 costs on the platform
 * (an index seek on (tenant, id) instead of an offset walk).
 *
 * Ids are 64-bit (§2 "Ids are 64-bit integers (Long)") and above 2^53 in practice: they stay
 * decimal strings here and the arithmetic is BigInt; never `Number()` them.
 */

/** An inclusive id range; a missing end is open. */
export type IdRange = { from?: string; to?: string };

/** A range that holds no id, valid on the wire (both ends are ids). */
export const EMPTY_RANGE: Readonly<Required<IdRange>> = { from: "2", to: "1" };

/**
 * Where a keyset page starts: the rows strictly `after` `id` in the list's order (Next), or
 * strictly `before` it (Previous: fetched in the reverse order, then shown reversed).
 */
export type Cursor = { dir: "after" | "before"; id: string };
export type IdOrder = "asc" | "desc";

const big = (id: string | undefined): bigint | undefined => (id === undefined ? undefined : BigInt(id));

/** The ids of both ranges (max of the starts, min of the ends); may come out empty (from > to). */
export function intersectRanges(a: IdRange, b: IdRange): IdRange {
  const from = [big(a.from), big(b.from)].filter((v): v is bigint => v !== undefined);
  const to = [big(a.to), big(b.to)].filter((v): v is bigint => v !== undefined);
  const out: IdRange = {};
  if (from.length) out.from = from.reduce((x, y) => (x > y ? x : y)).toString();
  if (to.length) out.to = to.reduce((x, y) => (x < y ? x : y)).toString();
  return out;
}

/** True when the range can hold no id. */
export function isEmptyRange(range: IdRange): boolean {
  return range.from !== undefined && range.to !== undefined && BigInt(range.from) > BigInt(range.to);
}

/**
 * The §4.1 query of one keyset page: the id range (the cursor's half-line intersected with the
 * user's own idFrom/idTo filter) and the order to scan in. `reversed` says the rows come back in
 * the opposite of the list's order (a `before` page) and must be reversed for display.
 * Without a cursor it is the first page: the user's range in the list's order.
 */
export function keysetQuery(order: IdOrder, cursor: Cursor | undefined, user: IdRange = {}): { range: IdRange; sord: IdOrder; reversed: boolean } {
  if (!cursor) return { range: clampRange(user), sord: order, reversed: false };
  const id = BigInt(cursor.id);
  // "after" in ascending order and "before" in descending order both mean larger ids.
  const towardLarger = (cursor.dir === "after") === (order === "asc");
  const half: { from?: bigint; to?: bigint } = towardLarger ? { from: id + 1n } : { to: id - 1n };
  const reversed = cursor.dir === "before";
  const sord: IdOrder = reversed ? (order === "asc" ? "desc" : "asc") : order;
  if ((half.from !== undefined && half.from > MAX_ID) || (half.to !== undefined && half.to < 1n)) {
    return { range: { ...EMPTY_RANGE }, sord, reversed }; // nothing lies beyond the first or last possible id
  }
  const range = intersectRanges(user, { from: half.from?.toString(), to: half.to?.toString() });
  return { range: clampRange(range), sord, reversed };
}

/** A user range as typed may exceed the 64-bit bounds (19 digits): clamp it, or make it empty. */
function clampRange(range: IdRange): IdRange {
  const from = big(range.from);
  const to = big(range.to);
  if ((from !== undefined && from > MAX_ID) || (to !== undefined && to < 1n)) return { ...EMPTY_RANGE };
  const out: IdRange = {};
  if (from !== undefined) out.from = from.toString();
  if (to !== undefined) out.to = (to > MAX_ID ? MAX_ID : to).toString();
  return out;
}

/** The cursor that follows a page whose rows (in display order) end with `lastId`. */
export function nextCursor(rows: ReadonlyArray<{ id: string }>): Cursor | undefined {
  const last = rows.at(-1);
  return last && isPlatformId(last.id) ? { dir: "after", id: last.id } : undefined;
}

/** The cursor of the page before a page whose rows (in display order) start with `firstId`. */
export function previousCursor(rows: ReadonlyArray<{ id: string }>): Cursor | undefined {
  const first = rows[0];
  return first && isPlatformId(first.id) ? { dir: "before", id: first.id } : undefined;
}

/** True when `next` lies strictly beyond `previous` in `order` (a walk that does not advance must stop). */
export function advances(order: IdOrder, previous: string, next: string): boolean {
  return order === "asc" ? BigInt(next) > BigInt(previous) : BigInt(next) < BigInt(previous);
}
