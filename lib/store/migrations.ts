import "server-only";
import { sql, type Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * Portable migrations of the app's store: written with Kysely's schema builder only, so the same
 * migration runs on SQLite and PostgreSQL. Each concern of the app adds its tables the same way:
 * `registerStoreMigrations({ "002-webhook-inbox": {...} })` at module load, before `openStore`.
 * Names sort in the order they apply; never change a migration that has shipped, add a new one.
 */

const registry: Record<string, Migration> = {
  "001-environments-installations": {
    async up(db: Kysely<unknown>) {
      // §5.4.2: openAppId → authDomain, apiDomain (+ product type and version).
      await db.schema
        .createTable("environments")
        .addColumn("open_app_id", "varchar(128)", (c) => c.primaryKey())
        .addColumn("auth_domain", "varchar(512)", (c) => c.notNull())
        .addColumn("api_domain", "varchar(512)", (c) => c.notNull())
        .addColumn("product_type", "varchar(128)")
        .addColumn("product_version", "varchar(64)")
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      // §5.2.6, §5.4.5: one installation per (openAppId, tenantId); tokens encrypted (token-cipher.ts).
      await db.schema
        .createTable("installations")
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("tenant_name", "varchar(512)")
        .addColumn("installed_by", "varchar(32)")
        .addColumn("installed_by_name", "varchar(512)")
        .addColumn("status", "varchar(32)", (c) => c.notNull())
        .addColumn("access_token", "text", (c) => c.notNull())
        .addColumn("access_token_expires_at", "bigint", (c) => c.notNull())
        .addColumn("refresh_token", "text", (c) => c.notNull())
        .addColumn("token_generation", "integer", (c) => c.notNull().defaultTo(sql`0`))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("installations_pk", ["open_app_id", "tenant_id"])
        .execute();
    },
  },
};

export function registerStoreMigrations(migrations: Record<string, Migration>): void {
  for (const [name, migration] of Object.entries(migrations)) {
    if (registry[name] && registry[name] !== migration) throw new Error(`store migration "${name}" is registered twice`);
    registry[name] = migration;
  }
}

export function storeMigrations(): Record<string, Migration> {
  return { ...registry };
}
