/**
 * 64-bit ids issued above 2^53 (DESIGN.md "Ids are 64-bit"), so that every client that parses them
 * as JavaScript numbers breaks visibly. Each kind of record has its own sequence in `id_sequences`.
 */
import type { Database } from "better-sqlite3";

export const ID_BASE = 2n ** 53n + 1000n;

export function nextId(db: Database, kind: string, count = 1): bigint {
  const row = db
    .prepare(
      `INSERT INTO id_sequences (kind, last) VALUES (?, ?)
       ON CONFLICT(kind) DO UPDATE SET last = last + ? RETURNING last`,
    )
    .safeIntegers(true)
    .get(kind, ID_BASE + BigInt(count) - 1n, BigInt(count)) as { last: bigint };
  return row.last - BigInt(count) + 1n;
}
