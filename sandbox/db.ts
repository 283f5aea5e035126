import "@/lib/node-api-check";
import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import path from "node:path";

export type SandboxDb = Database.Database;

/**
 * A piece of the sandbox schema. Each area of the sandbox (auth, resources, webhooks, …) owns its
 * tables and lists them here; `openDatabase` applies every migration once, in order.
 */
export type Migration = { id: string; sql: string };

const coreMigrations: Migration[] = [
  {
    id: "core-001",
    sql: `
      CREATE TABLE id_sequences (kind TEXT PRIMARY KEY, last INTEGER NOT NULL);
      CREATE TABLE environments (
        name TEXT PRIMARY KEY, origin TEXT NOT NULL, open_app_id TEXT NOT NULL UNIQUE,
        product_type TEXT NOT NULL, product_version TEXT NOT NULL
      );
      CREATE TABLE tenants (
        id INTEGER PRIMARY KEY, environment TEXT NOT NULL REFERENCES environments(name), name TEXT NOT NULL
      );
      CREATE TABLE staff (
        id INTEGER PRIMARY KEY, tenant_id INTEGER NOT NULL REFERENCES tenants(id),
        email TEXT NOT NULL UNIQUE, password TEXT NOT NULL, name TEXT NOT NULL
      );
      CREATE TABLE access_tokens (
        token TEXT PRIMARY KEY, environment TEXT NOT NULL, tenant_id INTEGER NOT NULL, user_id INTEGER NOT NULL,
        client_id TEXT NOT NULL, expires_at INTEGER NOT NULL, revoked INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE refresh_tokens (
        token TEXT PRIMARY KEY, environment TEXT NOT NULL, tenant_id INTEGER NOT NULL, user_id INTEGER NOT NULL,
        client_id TEXT NOT NULL, created_at INTEGER NOT NULL, used_at INTEGER, revoked INTEGER NOT NULL DEFAULT 0
      );
    `,
  },
];

const registered: Migration[] = [...coreMigrations];

/** Adds migrations of an area of the sandbox; call at module load, before `openDatabase`. */
export function registerMigrations(migrations: Migration[]): void {
  for (const m of migrations) {
    if (registered.some((r) => r.id === m.id)) continue;
    registered.push(m);
  }
}

export function openDatabase(file: string): SandboxDb {
  if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.exec("CREATE TABLE IF NOT EXISTS _migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)");
  const applied = new Set((db.prepare("SELECT id FROM _migrations").all() as { id: string }[]).map((r) => r.id));
  const apply = db.transaction((m: Migration) => {
    db.exec(m.sql);
    db.prepare("INSERT INTO _migrations (id, applied_at) VALUES (?, ?)").run(m.id, new Date().toISOString());
  });
  for (const m of registered) if (!applied.has(m.id)) apply(m);
  return db;
}

/** One instance per database (a store and its prepared statements), made on first use. */
export function perDatabase<T>(make: (db: SandboxDb) => T): (db: SandboxDb) => T {
  const made = new WeakMap<SandboxDb, T>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) {
      value = make(db);
      made.set(db, value);
    }
    return value;
  };
}
