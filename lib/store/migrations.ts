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
  // Saved views of the list pages (lib/views): a name and a normalized URL query, one staff
  // member's (`owner` = their user id) or shared with the tenant (`owner` = '').
  "019-saved-views": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("saved_views")
        .addColumn("id", "varchar(36)", (c) => c.primaryKey())
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("list", "varchar(32)", (c) => c.notNull())
        .addColumn("owner", "varchar(64)", (c) => c.notNull())
        .addColumn("name", "varchar(128)", (c) => c.notNull())
        .addColumn("query", "text", (c) => c.notNull())
        .addColumn("created_by", "varchar(64)", (c) => c.notNull())
        .addColumn("created_by_name", "varchar(512)", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .addUniqueConstraint("saved_views_name", ["open_app_id", "tenant_id", "list", "owner", "name"])
        .execute();
    },
  },
  // The audit log (lib/audit/): who did what through the console, append-only (a trigger refuses an
  // UPDATE on both stores; only retention and the tenant's disconnect delete), its targets for the
  // per-customer trail, the tenant's retention setting, and the end of an installation (disconnected
  // by an admin, refused by the platform for good, uninstalled) with when its data goes.
  "014-audit-lifecycle": {
    async up(db: Kysely<unknown>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      await db.schema
        .createTable("audit_log")
        .addColumn("id", postgres ? "bigserial" : "integer", (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("at", "bigint", (c) => c.notNull())
        .addColumn("actor_id", "varchar(128)", (c) => c.notNull())
        .addColumn("actor_name", "varchar(512)")
        .addColumn("operation", "varchar(64)", (c) => c.notNull())
        .addColumn("method", "varchar(8)", (c) => c.notNull())
        .addColumn("outcome", "varchar(16)", (c) => c.notNull())
        .addColumn("status", "integer", (c) => c.notNull())
        .addColumn("reason", "varchar(1024)")
        .addColumn("request_id", "varchar(64)", (c) => c.notNull())
        // JSON: [{kind, id, name?}] and {field: {before?, after}}.
        .addColumn("targets", "text", (c) => c.notNull())
        .addColumn("changes", "text")
        .execute();
      // Newest first per tenant (keyset on id), and the filters by staff member, operation and outcome.
      await db.schema.createIndex("audit_log_tenant").on("audit_log").columns(["open_app_id", "tenant_id", "id"]).execute();
      await db.schema.createIndex("audit_log_actor").on("audit_log").columns(["open_app_id", "tenant_id", "actor_id", "id"]).execute();
      await db.schema.createIndex("audit_log_operation").on("audit_log").columns(["open_app_id", "tenant_id", "operation", "id"]).execute();
      await db.schema.createIndex("audit_log_at").on("audit_log").columns(["open_app_id", "tenant_id", "at"]).execute();
      await db.schema
        .createTable("audit_targets")
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("target_id", "varchar(64)", (c) => c.notNull())
        .addColumn("entry_id", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("audit_targets_pk", ["open_app_id", "tenant_id", "target_id", "entry_id"])
        .execute();
      await db.schema.createIndex("audit_targets_entry").on("audit_targets").columns(["entry_id"]).execute();
      // The filters' choices (staff members, operations) kept as they are first seen: the Audit page never scans the log for them.
      await db.schema
        .createTable("audit_facets")
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("kind", "varchar(16)", (c) => c.notNull())
        .addColumn("value", "varchar(128)", (c) => c.notNull())
        .addColumn("label", "varchar(512)")
        .addPrimaryKeyConstraint("audit_facets_pk", ["open_app_id", "tenant_id", "kind", "value"])
        .execute();
      if (postgres) {
        await sql`CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$`.execute(db);
        await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`.execute(db);
      } else {
        await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db);
      }
      await db.schema
        .createTable("audit_settings")
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("retention_days", "integer", (c) => c.notNull())
        .addColumn("updated_by", "varchar(512)")
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("audit_settings_pk", ["open_app_id", "tenant_id"])
        .execute();
      await db.schema
        .createTable("installation_ends")
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        // `refresh_refused` (the platform refused the refresh token for good) or `uninstalled`.
        .addColumn("reason", "varchar(32)", (c) => c.notNull())
        .addColumn("detail", "varchar(512)")
        .addColumn("marked_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("installation_ends_pk", ["open_app_id", "tenant_id"])
        .execute();
      // A tenant disconnected by its admin: only a SHA-256 of its key (no data of the tenant), so
      // that a later sign-in asks for a new install from the marketplace instead of quietly
      // installing again; removed by that install.
      await db.schema
        .createTable("disconnected_keys")
        .addColumn("key_hash", "varchar(64)", (c) => c.primaryKey())
        .addColumn("disconnected_at", "bigint", (c) => c.notNull())
        .execute();
    },
  },
  // Two-character search anywhere in a name or nickName (a CJK given name: 子涵 finds 吴子涵), which
  // the trigram index cannot answer: every adjacent pair of the folded name and nickName, indexed.
  // PostgreSQL: a text[] column under GIN; SQLite: a contentless FTS5 table (rowid = customer_index's)
  // of the pairs as ASCII tokens. The pairs are computed where the rows are written (lib/search), so
  // indexes already built are read again by their backfill, which overwrites each row in place
  // (searches keep answering from the rows already there meanwhile).
  "012-customer-name-pairs": {
    async up(db: Kysely<unknown>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      if (postgres) {
        await sql`ALTER TABLE customer_index ADD COLUMN name_pairs text[]`.execute(db);
        await sql`CREATE INDEX customer_index_pairs ON customer_index USING gin (name_pairs)`.execute(db);
      } else {
        await sql`CREATE VIRTUAL TABLE customer_pairs USING fts5(pairs, tokenize = 'ascii', content = '', contentless_delete = 1)`.execute(db);
      }
      await sql`UPDATE search_tenants SET phase = 'backfill', backfill_after = NULL, indexed = 0, total = NULL, started_at = NULL`.execute(db);
    },
  },
  // The overview's figures per tenant, computed by a background task and served from here by every
  // instance (lib/dashboard/figures-store.ts); and files staff hand to a background task (the event
  // import's CSV), kept in pieces until the task is done with them (lib/events/import-uploads.ts).
  "017-dashboard-figures-task-uploads": {
    async up(db: Kysely<unknown>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      await db.schema
        .createTable("dashboard_figures")
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("computed_at", "bigint", (c) => c.notNull())
        // Set by the first change the figures do not show yet (a webhook), cleared by a computation.
        .addColumn("stale_since", "bigint")
        .addPrimaryKeyConstraint("dashboard_figures_pk", ["open_app_id", "tenant_id"])
        .execute();
      await db.schema
        .createTable("task_uploads")
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("upload_id", "varchar(64)", (c) => c.notNull())
        .addColumn("seq", "integer", (c) => c.notNull())
        .addColumn("data", postgres ? "bytea" : "blob", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("task_uploads_pk", ["open_app_id", "tenant_id", "upload_id", "seq"])
        .execute();
    },
  },
  // Segments (README "Segments"): what the people index lacked for them (birthday month and custom
  // attributes on the index row; a customer's order statistics of §2.7 beside it, refreshed by the
  // segments feature), the tenant's saved segments, and per segment the membership last written
  // into its static list (§4.4), so a re-sync sends only the difference, and the history of syncs.
  "013-segments": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("customer_index").addColumn("birth_month", "integer").execute();
      await db.schema.alterTable("customer_index").addColumn("attrs", "text").execute();
      await db.schema.createIndex("customer_index_stage").on("customer_index").columns(["tenant", "stage"]).execute();
      await db.schema.createIndex("customer_index_source").on("customer_index").columns(["tenant", "source"]).execute();
      await db.schema
        .createTable("customer_facts")
        .addColumn("tenant", "integer", (c) => c.notNull())
        .addColumn("customer_id", "varchar(24)", (c) => c.notNull())
        .addColumn("order_count", "integer")
        .addColumn("order_amount", "double precision")
        // UTC, `YYYY-MM-DDTHH:MM:SS` (a filter time): days since the last order are counted at query time.
        .addColumn("last_order_at", "varchar(32)")
        .addColumn("activity_score", "double precision")
        .addColumn("refreshed_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("customer_facts_pk", ["tenant", "customer_id"])
        .execute();
      await db.schema.createIndex("customer_facts_orders").on("customer_facts").columns(["tenant", "order_count"]).execute();
      await db.schema.createIndex("customer_facts_last_order").on("customer_facts").columns(["tenant", "last_order_at"]).execute();
      await db.schema
        .createTable("segments")
        .addColumn("id", "varchar(36)", (c) => c.primaryKey())
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("definition", "text", (c) => c.notNull())
        .addColumn("list_id", "varchar(24)")
        .addColumn("list_name", "varchar(255)")
        .addColumn("schedule", "varchar(16)", (c) => c.notNull().defaultTo("off"))
        .addColumn("created_by", "varchar(64)")
        .addColumn("created_by_name", "varchar(512)")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .addColumn("last_synced_at", "bigint")
        .execute();
      await db.schema.createIndex("segments_tenant").on("segments").columns(["open_app_id", "tenant_id"]).execute();
      await db.schema
        .createTable("segment_list_members")
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("segment_id", "varchar(36)", (c) => c.notNull())
        .addColumn("list_id", "varchar(24)", (c) => c.notNull())
        .addColumn("customer_id", "varchar(24)", (c) => c.notNull())
        .addPrimaryKeyConstraint("segment_list_members_pk", ["open_app_id", "tenant_id", "segment_id", "list_id", "customer_id"])
        .execute();
      await db.schema
        .createTable("segment_sync_runs")
        .addColumn("id", "varchar(36)", (c) => c.primaryKey())
        .addColumn("open_app_id", "varchar(128)", (c) => c.notNull())
        .addColumn("tenant_id", "varchar(32)", (c) => c.notNull())
        .addColumn("segment_id", "varchar(36)", (c) => c.notNull())
        .addColumn("list_id", "varchar(24)", (c) => c.notNull())
        .addColumn("state", "varchar(16)", (c) => c.notNull())
        .addColumn("started_by", "varchar(64)")
        .addColumn("started_by_name", "varchar(512)")
        .addColumn("started_at", "bigint", (c) => c.notNull())
        .addColumn("finished_at", "bigint")
        .addColumn("added", "integer", (c) => c.notNull().defaultTo(sql`0`))
        .addColumn("removed", "integer", (c) => c.notNull().defaultTo(sql`0`))
        .addColumn("failed", "integer", (c) => c.notNull().defaultTo(sql`0`))
        .addColumn("member_calls", "integer", (c) => c.notNull().defaultTo(sql`0`))
        // JSON: the first failures, `{customerId, reason}`.
        .addColumn("failures", "text")
        .addColumn("error", "varchar(512)")
        .execute();
      await db.schema.createIndex("segment_sync_runs_segment").on("segment_sync_runs").columns(["open_app_id", "tenant_id", "segment_id", "started_at"]).execute();
    },
  },
  // Likely duplicate customers (lib/duplicates), beside the people index (`tenant` = search_tenants.id):
  // the match keys of every indexed customer, the keys two or more customers share, the pairs staff
  // said are not the same person (kept across re-scans), and the history of merges made from the queue.
  "015-duplicates": {
    async up(db: Kysely<unknown>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      // One row per customer and rule key (a customer has a few: mobile, email, each identity, name + …).
      await db.schema
        .createTable("duplicate_keys")
        .addColumn("tenant", "integer", (c) => c.notNull())
        .addColumn("customer_id", "varchar(24)", (c) => c.notNull())
        .addColumn("rule", "varchar(16)", (c) => c.notNull())
        .addColumn("key", "varchar(320)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("duplicate_keys_key").on("duplicate_keys").columns(["tenant", "rule", "key"]).execute();
      await db.schema.createIndex("duplicate_keys_customer").on("duplicate_keys").columns(["tenant", "customer_id"]).execute();
      // The keys of `duplicate_keys` held by two or more customers: what the queue reads (small).
      await db.schema
        .createTable("duplicate_matches")
        .addColumn("tenant", "integer", (c) => c.notNull())
        .addColumn("rule", "varchar(16)", (c) => c.notNull())
        .addColumn("key", "varchar(320)", (c) => c.notNull())
        .addColumn("customer_id", "varchar(24)", (c) => c.notNull())
        .addPrimaryKeyConstraint("duplicate_matches_pk", ["tenant", "rule", "key", "customer_id"])
        .execute();
      await db.schema.createIndex("duplicate_matches_customer").on("duplicate_matches").columns(["tenant", "customer_id"]).execute();
      // "Not the same person": customer_a < customer_b (as decimal strings ordered by length, then text).
      await db.schema
        .createTable("duplicate_dismissals")
        .addColumn("tenant", "integer", (c) => c.notNull())
        .addColumn("customer_a", "varchar(24)", (c) => c.notNull())
        .addColumn("customer_b", "varchar(24)", (c) => c.notNull())
        .addColumn("dismissed_by", "varchar(512)")
        .addColumn("dismissed_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("duplicate_dismissals_pk", ["tenant", "customer_a", "customer_b"])
        .execute();
      await db.schema
        .createTable("duplicate_merges")
        .addColumn("id", postgres ? "bigserial" : "integer", (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("tenant", "integer", (c) => c.notNull())
        .addColumn("from_id", "varchar(24)", (c) => c.notNull())
        .addColumn("to_id", "varchar(24)", (c) => c.notNull())
        .addColumn("rule", "varchar(16)")
        // merged | refused | skipped (changed since the pair was found)
        .addColumn("outcome", "varchar(16)", (c) => c.notNull())
        .addColumn("reason", "varchar(512)")
        .addColumn("identities_restored", "integer", (c) => c.notNull().defaultTo(sql`0`))
        .addColumn("task_id", "varchar(64)")
        .addColumn("merged_by", "varchar(512)")
        .addColumn("merged_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("duplicate_merges_tenant").on("duplicate_merges").columns(["tenant", "merged_at"]).execute();
    },
  },
  // A segment's count starts from the tenant's customers of a stage or source: with the customer id in
  // these indexes it never reads the table rows (SQLite, 1,000,000 customers, a 4-condition count:
  // 219 → 162 ms, below the 200 ms target; scripts/bench/segments.ts).
  "020-covering-stage-source": {
    async up(db: Kysely<unknown>) {
      for (const column of ["stage", "source"]) {
        await db.schema.dropIndex(`customer_index_${column}`).execute();
        await db.schema.createIndex(`customer_index_${column}`).on("customer_index").columns(["tenant", column, "customer_id"]).execute();
      }
    },
  },  // PostgreSQL: whether a text search reads the trigram index and sorts the hits, or walks the
  // tenant's ids and stops at the page's end, turns on how many rows the term matches. With the
  // default 100 samples a term matching 0.5 % looked like 2 %: over 60 partial emails at 1,000,000
  // customers p95 267 ms, with 1,000 samples 49–53 ms (500: 488 ms). The name pairs' searches were
  // fast with the default, and an array column's deep statistics cost `ANALYZE` a second more.
  "021-search-statistics": {
    async up(db: Kysely<unknown>) {
      if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
      await sql`ALTER TABLE customer_index ALTER COLUMN search_text SET STATISTICS 1000`.execute(db);
    },
  },
};
