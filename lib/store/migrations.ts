import "server-only";
import { PostgresAdapter, sql, type Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * Every migration of the app's store, in the order they apply (Kysely sorts by name): one static
 * list, so any route's graph opens the store with all of them. Portable: written with Kysely's
 * schema builder, so the same migration runs on SQLite and PostgreSQL. Never change a migration
 * that has shipped; add a new one (and its tables to `schema.ts`).
 */
export const storeMigrations: Readonly<Record<string, Migration>> = {
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
  // The webhook receiver (§5.5, §6): the inbox of deliveries and the oauth2 mode's hashed tokens.
  // Only the inbox's auto-increment key differs between the dialects.
  "002-webhook-inbox": {
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
  },
  // Sign-in hardening (docs/decisions/sign-in-hardening.md): the sign-in flow's single-use state nonces, and server-side sign-ins (logout revokes).
  "003-auth-sign-ins": {
    async up(db: Kysely<unknown>) {
      // A state's nonce (its SHA-256) is inserted once when its code is exchanged: the primary key makes a
      // second callback of the same state fail on every instance, before the token endpoint is called.
      await db.schema
        .createTable("auth_flow_nonces")
        .addColumn("nonce_hash", "varchar(64)", (c) => c.primaryKey())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("auth_flow_nonces_expiry").on("auth_flow_nonces").column("expires_at").execute();
      // One row per completed sign-in; cookie entries and fallback tokens name it, and stop working
      // once it is revoked (logout, sign out everywhere) or expired.
      await db.schema
        .createTable("sign_ins")
        .addColumn("id", "varchar(64)", (c) => c.primaryKey())
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("user_id", "varchar(32)", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addColumn("revoked_at", "bigint")
        .execute();
      await db.schema.createIndex("sign_ins_user").on("sign_ins").columns(["open_app_id", "tenant_id", "user_id"]).execute();
      await db.schema.createIndex("sign_ins_expiry").on("sign_ins").column("expires_at").execute();
    },
  },
  // Refunds this console made (docs/decisions/refunds-recorded-by-the-app.md): shown on the order to every staff member; §4.2 has no read of refunds.
  "004-order-refunds": {
    async up(db: Kysely<unknown>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      await db.schema
        .createTable("order_refunds")
        .addColumn("id", postgres ? "bigserial" : "integer", (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("order_no", "varchar(255)", (c) => c.notNull())
        .addColumn("request_key", "varchar(64)", (c) => c.notNull())
        .addColumn("status", "varchar(16)", (c) => c.notNull())
        .addColumn("refund_state", "varchar(16)", (c) => c.notNull())
        .addColumn("refund_total", "varchar(32)")
        .addColumn("reason", "text")
        .addColumn("line_ids", "text", (c) => c.notNull())
        .addColumn("answer", "text")
        .addColumn("recorded_by", "varchar(512)")
        .addColumn("recorded_at", "bigint", (c) => c.notNull())
        .addColumn("deleted_by", "varchar(512)")
        .addColumn("deleted_at", "bigint")
        .addUniqueConstraint("order_refunds_request", ["open_app_id", "tenant_id", "request_key"])
        .execute();
      await db.schema.createIndex("order_refunds_order").on("order_refunds").columns(["open_app_id", "tenant_id", "order_no"]).execute();
    },
  },
  // The tenant customer index (README "Customer search"): what staff search and filter by,
  // per installation, and the sync's resumable state. SQLite: FTS5 trigram (substrings, CJK);
  // PostgreSQL: pg_trgm GIN over the same text. Short queries (< 3 characters) use the name keys.
  "006-customer-index": {
    async up(db: Kysely<unknown>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      await db.schema
        .createTable("search_tenants")
        .addColumn("id", postgres ? "serial" : "integer", (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        // backfill → ready; `backfill_after` is the keyset cursor (last id indexed), so a restart resumes there.
        .addColumn("phase", "varchar(16)", (c) => c.notNull())
        .addColumn("backfill_after", "varchar(24)")
        .addColumn("total", "bigint")
        .addColumn("indexed", "bigint", (c) => c.notNull().defaultTo(sql`0`))
        // The polling watermark: the largest `lastUpdated` seen (§4.1 lastUpdatedFrom is inclusive).
        .addColumn("poll_from", "varchar(32)")
        .addColumn("started_at", "bigint")
        .addColumn("synced_at", "bigint")
        .addColumn("last_change_at", "bigint")
        .addColumn("error", "varchar(512)")
        .addUniqueConstraint("search_tenants_key", ["open_app_id", "tenant_id"])
        .execute();
      await db.schema
        .createTable("customer_index")
        .addColumn("tenant", "integer", (c) => c.notNull())
        .addColumn("customer_id", "varchar(24)", (c) => c.notNull())
        .addColumn("display_name", "varchar(512)")
        .addColumn("name", "varchar(512)")
        .addColumn("nick_name", "varchar(512)")
        .addColumn("email", "varchar(512)")
        .addColumn("mobile", "varchar(64)")
        .addColumn("stage", "varchar(128)")
        .addColumn("source", "varchar(128)")
        .addColumn("gender", "integer")
        .addColumn("identities", "text")
        .addColumn("date_created", "varchar(32)")
        .addColumn("last_updated", "varchar(32)")
        // Lower-cased name and nickName: prefix search for one- and two-character queries.
        .addColumn("name_key", "varchar(512)")
        .addColumn("nick_key", "varchar(512)")
        .addColumn("search_text", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("customer_index_pk", ["tenant", "customer_id"])
        .execute();
      await db.schema
        .createTable("customer_index_tags")
        .addColumn("tenant", "integer", (c) => c.notNull())
        .addColumn("tag", "varchar(64)", (c) => c.notNull())
        .addColumn("customer_id", "varchar(24)", (c) => c.notNull())
        .addPrimaryKeyConstraint("customer_index_tags_pk", ["tenant", "tag", "customer_id"])
        .execute();
      await db.schema.createIndex("customer_index_tags_customer").on("customer_index_tags").columns(["tenant", "customer_id"]).execute();
      if (postgres) {
        // pg_trgm in `public`, named by schema, so stores in their own schemas share one installation of it.
        await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public`.execute(db);
        await sql`CREATE INDEX customer_index_trgm ON customer_index USING gin (search_text public.gin_trgm_ops)`.execute(db);
        await sql`CREATE INDEX customer_index_name ON customer_index (tenant, name_key COLLATE "C")`.execute(db);
        await sql`CREATE INDEX customer_index_nick ON customer_index (tenant, nick_key COLLATE "C")`.execute(db);
      } else {
        // Contentless: the text lives in customer_index; the FTS table holds only the trigram index (rowid = customer_index's).
        await sql`CREATE VIRTUAL TABLE customer_fts USING fts5(search_text, tokenize = 'trigram', content = '', contentless_delete = 1)`.execute(db);
        await sql`CREATE INDEX customer_index_name ON customer_index (tenant, name_key)`.execute(db);
        await sql`CREATE INDEX customer_index_nick ON customer_index (tenant, nick_key)`.execute(db);
      }
    },
  },
  // Shops, shop groups and media imports (§4.6, §4.8): the platform lists none of them, so the app
  // keeps what it has learned per tenant installation (openAppId + tenantId).
  "007-shops-media": {
    async up(db: Kysely<unknown>) {
      // Every shop the app knows: created or updated through it, seen in a group read, or added by id.
      // `sid` (the tenant's own shop code) is unique per tenant; NULL (added by id, not yet read) repeats.
      await db.schema
        .createTable("shop_register")
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("shop_id", "varchar(32)", (c) => c.notNull())
        .addColumn("sid", "varchar(128)")
        .addColumn("business_name", "varchar(512)")
        .addColumn("branch_name", "varchar(512)")
        .addColumn("shop_name", "varchar(1024)")
        .addColumn("shop_status", "varchar(64)")
        .addColumn("refuse_reason", "text")
        .addColumn("shop_info_all", "text")
        .addColumn("source", "varchar(16)", (c) => c.notNull())
        .addColumn("seen_at", "bigint")
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("shop_register_pk", ["open_app_id", "tenant_id", "shop_id"])
        .addUniqueConstraint("shop_register_sid", ["open_app_id", "tenant_id", "sid"])
        .execute();
      // The groups the app created or opened by id, with what the creation answered.
      await db.schema
        .createTable("shop_groups")
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("group_id", "varchar(32)", (c) => c.notNull())
        .addColumn("name", "varchar(512)")
        .addColumn("remark", "text")
        .addColumn("origin", "varchar(16)", (c) => c.notNull())
        .addColumn("created_by_name", "varchar(512)")
        .addColumn("added_ids", "text")
        .addColumn("failed_ids", "text")
        .addColumn("shop_count", "integer")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("read_at", "bigint")
        .addPrimaryKeyConstraint("shop_groups_pk", ["open_app_id", "tenant_id", "group_id"])
        .execute();
      // §4.6 import tasks: the API has no task status, so this is all there is to show of them.
      await db.schema
        .createTable("media_imports")
        .addColumn("id", "varchar(36)", (c) => c.primaryKey())
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("started_by", "varchar(32)", (c) => c.notNull())
        .addColumn("started_by_name", "varchar(512)")
        .addColumn("started_at", "bigint", (c) => c.notNull())
        .addColumn("files", "text", (c) => c.notNull())
        .addColumn("task_ids", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("media_imports_scope").on("media_imports").columns(["open_app_id", "tenant_id", "started_at"]).execute();
    },
  },
  // Console preferences (docs/decisions/preferences-in-the-app-store.md): staff-given labels of the custom attributes
  // (per tenant: the platform's API has no labels) and each user's choice of customer columns (the
  // app's store, not browser storage, which the admin's iframe partitions). `user_id` '' = the tenant's.
  "008-console-preferences": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("console_preferences")
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("user_id", "varchar(64)", (c) => c.notNull())
        .addColumn("key", "varchar(64)", (c) => c.notNull())
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("updated_by", "varchar(512)")
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("console_preferences_pk", ["open_app_id", "tenant_id", "user_id", "key"])
        .execute();
    },
  },
  // Sign-ins that wait for the user's "Continue as …?" (lib/store/sign-ins.ts: a return no flow
  // cookie vouched for), and the refreshes in flight (lib/store/installations.ts: resumed at start-up
  // when an instance died between the platform's rotation and the commit of the new pair).
  "009-pending-sign-ins-refresh-flights": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("pending_sign_ins")
        .addColumn("id_hash", "varchar(64)", (c) => c.primaryKey())
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("flow", "text", (c) => c.notNull())
        .addColumn("user_data", "text", (c) => c.notNull())
        .addColumn("access_token", "text", (c) => c.notNull())
        .addColumn("refresh_token", "text", (c) => c.notNull())
        .addColumn("access_token_expires_at", "bigint", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .execute();
      // Beside the installation row, not on it: on PostgreSQL that row is locked by the refresh's
      // transaction, and the mark must commit before the platform call, from outside that transaction.
      await db.schema
        .createTable("refresh_flights")
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("started_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("refresh_flights_pk", ["open_app_id", "tenant_id"])
        .execute();
    },
  },
  // Shop and group creations as the console asks for them (§4.8): the intent is recorded before the
  // platform is called and completed after, so a creation the platform accepted is never lost to a
  // store error, and the dialog's request key makes a retry the same object.
  "010-shop-write-requests": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("shop_write_requests")
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("request_key", "varchar(64)", (c) => c.notNull())
        .addColumn("operation", "varchar(32)", (c) => c.notNull())
        .addColumn("status", "varchar(16)", (c) => c.notNull())
        .addColumn("input", "text", (c) => c.notNull())
        .addColumn("result_id", "varchar(32)")
        .addColumn("answer", "text")
        .addColumn("requested_by", "varchar(512)")
        .addColumn("requested_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("shop_write_requests_pk", ["open_app_id", "tenant_id", "request_key"])
        .execute();
    },
  },
  // Background tasks staff start and watch (lib/tasks): the row is the task (input, progress,
  // checkpoint, result), so every instance and every staff member sees the same, and the job queue
  // carries only "run task <id>". The file (an export) is stored in chunks beside it, so any
  // instance can serve the download. Schedules: one row per recurring job, claimed by one instance.
  "011-background-tasks": {
    async up(db: Kysely<unknown>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      await db.schema
        .createTable("app_tasks")
        .addColumn("id", "varchar(36)", (c) => c.primaryKey())
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("kind", "varchar(64)", (c) => c.notNull())
        .addColumn("state", "varchar(16)", (c) => c.notNull())
        // Set while an exclusive task is queued or running (kind + installation), NULL after: the
        // unique constraint makes "one at a time per tenant" hold across instances without a lock.
        .addColumn("exclusive_key", "varchar(320)", (c) => c.unique())
        .addColumn("input", "text", (c) => c.notNull())
        .addColumn("checkpoint", "text")
        .addColumn("progress_done", "bigint", (c) => c.notNull().defaultTo(sql`0`))
        .addColumn("progress_total", "bigint")
        .addColumn("message", "varchar(512)")
        .addColumn("result", "text")
        .addColumn("error", "varchar(1024)")
        .addColumn("started_by", "varchar(64)", (c) => c.notNull())
        .addColumn("started_by_name", "varchar(512)", (c) => c.notNull())
        .addColumn("cancelled_by", "varchar(64)")
        .addColumn("cancelled_by_name", "varchar(512)")
        .addColumn("cancel_requested", "integer", (c) => c.notNull().defaultTo(sql`0`))
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(sql`0`))
        // Who runs it now: a runner whose token no longer matches (it was thought dead) stops writing.
        .addColumn("run_token", "varchar(36)")
        .addColumn("heartbeat_at", "bigint")
        .addColumn("run_after", "bigint")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("started_at", "bigint")
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .addColumn("finished_at", "bigint")
        .addColumn("file_name", "varchar(256)")
        .addColumn("file_type", "varchar(128)")
        .addColumn("file_size", "bigint", (c) => c.notNull().defaultTo(sql`0`))
        .addColumn("file_expires_at", "bigint")
        .execute();
      await db.schema.createIndex("app_tasks_tenant").on("app_tasks").columns(["open_app_id", "tenant_id", "created_at"]).execute();
      await db.schema.createIndex("app_tasks_state").on("app_tasks").columns(["state", "heartbeat_at"]).execute();
      await db.schema
        .createTable("app_task_files")
        .addColumn("task_id", "varchar(36)", (c) => c.notNull())
        .addColumn("seq", "integer", (c) => c.notNull())
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("data", postgres ? "bytea" : "blob", (c) => c.notNull())
        .addPrimaryKeyConstraint("app_task_files_pk", ["task_id", "seq"])
        .execute();
      await db.schema
        .createTable("task_schedules")
        .addColumn("name", "varchar(128)", (c) => c.primaryKey())
        .addColumn("next_run_at", "bigint", (c) => c.notNull())
        .addColumn("last_run_at", "bigint")
        .addColumn("last_error", "varchar(1024)")
        .execute();
    },
  },
};
