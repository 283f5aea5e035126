/**
 * 64-bit ids issued above 2^53 (ARCHITECTURE.md §4 "Ids are 64-bit"), so that every client that parses them
 * as JavaScript numbers breaks visibly. Each kind of record has its own sequence in `id_sequences`.
 */
import type { Database, Statement } from "better-sqlite3";

export const ID_BASE = 2n ** 53n + 1000n;

// One prepared statement per database: ids are issued on hot paths (event ingest, seeding).
const statements = new WeakMap<Database, Statement>();

export function nextId(db: Database, kind: string, count = 1): bigint {
  let statement = statements.get(db);
  if (!statement) {
    statement = db
      .prepare(
        `INSERT INTO id_sequences (kind, last) VALUES (?, ?)
         ON CONFLICT(kind) DO UPDATE SET last = last + ? RETURNING last`,
      )
      .safeIntegers(true);
    statements.set(db, statement);
  }
  const row = statement.get(kind, ID_BASE + BigInt(count) - 1n, BigInt(count)) as { last: bigint };
  return row.last - BigInt(count) + 1n;
}
