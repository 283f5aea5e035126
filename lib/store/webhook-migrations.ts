import "server-only";
import { Migrator, type Migration } from "kysely/migration";
import { PostgresAdapter, type Kysely } from "kysely";
import type { Store } from "./database";
import { registerStoreMigrations, storeMigrations } from "./migrations";

/**
 * Tables of the webhook receiver (§5.5, §6): the inbox of deliveries and the hashed access tokens of
 * the oauth2 mode. Portable: only the inbox's auto-increment key differs between the dialects.
 */
const webhookInbox: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    // `id` is the activity cursor (GET /api/activity?after=): it only grows, and is never reused.
    await db.schema
      .createTable("webhook_inbox")
      .addColumn("id", postgres ? "bigserial" : "integer", (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
      .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
      // `id:<deliveryId>` when the payload names its delivery, else `sha256:<hash of the signed text>`.
      .addColumn("dedupe_key", "varchar(200)", (c) => c.notNull())
      .addColumn("delivery_id", "varchar(128)")
      .addColumn("kind", "varchar(128)", (c) => c.notNull())
      .addColumn("resource", "varchar(64)")
      .addColumn("resource_id", "varchar(64)")
      .addColumn("action", "varchar(64)")
      .addColumn("occurred_at", "varchar(32)")
      .addColumn("verification", "varchar(16)", (c) => c.notNull())
      .addColumn("received_at", "bigint", (c) => c.notNull())
      .addColumn("payload", "text", (c) => c.notNull())
      .addUniqueConstraint("webhook_inbox_dedupe", ["open_app_id", "tenant_id", "dedupe_key"])
      .execute();
    await db.schema.createIndex("webhook_inbox_scope").on("webhook_inbox").columns(["open_app_id", "tenant_id", "id"]).execute();

    // oauth2 mode: only the SHA-256 of each token is kept; a token is usable until `expires_at`.
    await db.schema
      .createTable("webhook_tokens")
      .addColumn("token_hash", "varchar(64)", (c) => c.primaryKey())
      .addColumn("app_id", "varchar(128)", (c) => c.notNull())
      .addColumn("issued_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("webhook_tokens_expiry").on("webhook_tokens").column("expires_at").execute();
  },
};

registerStoreMigrations({ "002-webhook-inbox": webhookInbox });

const migrated = new WeakMap<Store, Promise<void>>();

/**
 * Makes sure the webhook tables exist in `store`. `openStore` applies every migration registered when
 * it runs; this covers a store opened before this module was first imported (migrations are idempotent).
 */
export function ensureWebhookTables(store: Store): Promise<void> {
  let done = migrated.get(store);
  if (!done) {
    done = (async () => {
      const migrator = new Migrator({ db: store.db, provider: { getMigrations: async () => storeMigrations() } });
      const { error } = await migrator.migrateToLatest();
      if (error) throw error instanceof Error ? error : new Error(String(error));
    })();
    done.catch(() => migrated.delete(store));
    migrated.set(store, done);
  }
  return done;
}
