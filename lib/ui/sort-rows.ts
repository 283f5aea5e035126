type Sortable = string | number | null | undefined;
const DIGITS = /^\d+$/;

/** Two values of a column in ascending order: numbers by value, digit strings (64-bit ids, §2) by length then digits, text as the language orders it; empty last. */
export function compareValues(a: Sortable, b: Sortable): number {
  if (a === null || a === undefined || a === "") return b === null || b === undefined || b === "" ? 0 : 1;
  if (b === null || b === undefined || b === "") return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  const [x, y] = [String(a), String(b)];
  if (DIGITS.test(x) && DIGITS.test(y)) return x.length - y.length || (x < y ? -1 : x > y ? 1 : 0);
  return x.localeCompare(y);
}

/**
 * A list the app's own route answers whole (shop groups, media imports), sorted in the browser by
 * the column the URL names; `valueOf` gives each sort key's value of a row. Stable; empty values last.
 */
export function sortRows<T, K extends string>(rows: readonly T[], sort: K, order: "asc" | "desc", valueOf: Record<K, (row: T) => Sortable>): T[] {
  const direction = order === "asc" ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => {
      const [x, y] = [valueOf[sort](a.row), valueOf[sort](b.row)];
      const empty = (v: Sortable) => v === null || v === undefined || v === "";
      // Empty values stay last whichever way the column sorts.
      if (empty(x) || empty(y)) return compareValues(x, y) || a.index - b.index;
      return direction * compareValues(x, y) || a.index - b.index;
    })
    .map(({ row }) => row);
}
