import { randomBytes } from "node:crypto";
import path from "node:path";

export type BenchStore = { name: "SQLite" | "PostgreSQL"; database: { kind: "sqlite"; file: string } | { kind: "postgres"; url: string } };

/**
 * The stores a benchmark measures: SQLite in a file under `dir`, and PostgreSQL in a database of its
 * own (named `prefix` + random) when TEST_DATABASE_URL is set; `drop()` removes that database (call
 * it in a `finally`). `kinds` narrows the choice (a benchmark's STORES setting).
 */
export async function benchStores(dir: string, prefix: string, kinds: readonly string[] = ["sqlite", "postgres"]): Promise<{ stores: BenchStore[]; drop(): Promise<void> }> {
  const stores: BenchStore[] = [];
  if (kinds.includes("sqlite")) stores.push({ name: "SQLite", database: { kind: "sqlite", file: path.join(dir, "app.sqlite") } });
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (!kinds.includes("postgres")) return { stores, drop: async () => {} };
  if (!pgUrl) {
    console.log("PostgreSQL skipped: set TEST_DATABASE_URL to measure it too");
    return { stores, drop: async () => {} };
  }
  const pg = (await import("pg")).default;
  const database = `${prefix}_${randomBytes(3).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${database}`);
  const url = new URL(pgUrl);
  url.pathname = `/${database}`;
  stores.push({ name: "PostgreSQL", database: { kind: "postgres", url: url.toString() } });
  return { stores, drop: () => admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`) };
}
