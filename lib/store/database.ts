import "server-only";
import "@/lib/node-api-check";
import Database from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import { Migrator } from "kysely/migration";
import { mkdirSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import type { AppEnv, EncryptionKey } from "@/lib/env";
import { storeMigrations } from "./migrations";
import type { StoreSchema } from "./schema";

export type { StoreSchema } from "./schema";

export type StoreDialect = "sqlite" | "postgres";

export type Store = {
  db: Kysely<StoreSchema>;
  dialect: StoreDialect;
  /** The first key encrypts tokens, every key decrypts them. */
  tokenKeys: EncryptionKey[];
  close(): Promise<void>;
};

export type StoreOptions = {
  database: AppEnv["database"];
  tokenKeys: EncryptionKey[];
  /** PostgreSQL only: the schema that holds every table (created if missing); tests use one per run. */
  schema?: string;
};

/** Opens the store and applies every pending migration (automatic at start, ARCHITECTURE.md §2). */
export async function openStore(options: StoreOptions): Promise<Store> {
  const { database } = options;
  let db: Kysely<StoreSchema>;
  if (database.kind === "sqlite") {
    if (database.file !== ":memory:") mkdirSync(path.dirname(database.file), { recursive: true });
    const sqlite = new Database(database.file);
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("busy_timeout = 5000");
    db = new Kysely<StoreSchema>({ dialect: new SqliteDialect({ database: sqlite }) });
  } else {
    const schema = options.schema;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
    if (schema) {
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      try {
        await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      } finally {
        await admin.end();
      }
    }
    const pool = new pg.Pool({
      connectionString: database.url,
      max: 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    db = new Kysely<StoreSchema>({ dialect: new PostgresDialect({ pool }) });
  }

  // Kysely looks for its migration tables in `public` unless told: with a schema of its own (tests),
  // another run's leftover tables there would be taken for ours ("kysely_migration_lock does not exist").
  const migrationTableSchema = database.kind === "postgres" ? options.schema : undefined;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => storeMigrations }, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    await db.destroy();
    throw new Error(`store migration ${failed?.migrationName ?? ""} failed: ${error instanceof Error ? error.message : String(error)}`);
  }

  return {
    db,
    dialect: database.kind,
    tokenKeys: options.tokenKeys,
    close: () => db.destroy(),
  };
}
