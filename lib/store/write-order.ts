/**
 * Rows keyed by a platform id as one write should send them: one per id (the last given wins:
 * PostgreSQL refuses an `INSERT … ON CONFLICT DO UPDATE` that touches a row twice), in one order
 * (ids numerically: by length, then text), so concurrent transactions writing the same rows take
 * their locks in the same order and wait on each other instead of deadlocking.
 */
export function inWriteOrder<T extends { id: string }>(items: readonly T[]): T[] {
  return [...new Map(items.map((item) => [item.id, item])).values()].sort((a, b) => a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
