import { registerMigrations } from "../db";

/**
 * Tables of the authorization server, the admin shell and the extension service. They are emptied
 * by `POST /__sandbox/reset` like every table (logins, consents, codes and installs are forgotten).
 */
registerMigrations([
  {
    id: "auth-001",
    sql: `
      CREATE TABLE platform_sessions (
        id TEXT PRIMARY KEY, environment TEXT NOT NULL, staff_id INTEGER NOT NULL,
        csrf TEXT NOT NULL, created_at INTEGER NOT NULL
      );
      CREATE TABLE consents (
        environment TEXT NOT NULL, staff_id INTEGER NOT NULL, client_id TEXT NOT NULL, granted_at INTEGER NOT NULL,
        PRIMARY KEY (environment, staff_id, client_id)
      );
      CREATE TABLE authorization_codes (
        code TEXT PRIMARY KEY, environment TEXT NOT NULL, tenant_id INTEGER NOT NULL, user_id INTEGER NOT NULL,
        client_id TEXT NOT NULL, redirect_uri TEXT NOT NULL, expires_at INTEGER NOT NULL, install INTEGER NOT NULL,
        used_at INTEGER, access_token TEXT, refresh_token TEXT
      );
      CREATE TABLE pending_installs (
        environment TEXT NOT NULL, tenant_id INTEGER NOT NULL, app_id TEXT NOT NULL, started_at INTEGER NOT NULL,
        PRIMARY KEY (environment, tenant_id, app_id)
      );
      CREATE TABLE installations (
        environment TEXT NOT NULL, tenant_id INTEGER NOT NULL, app_id TEXT NOT NULL, installed_at INTEGER NOT NULL,
        PRIMARY KEY (environment, tenant_id, app_id)
      );
      CREATE TABLE cloud_tokens (
        token TEXT PRIMARY KEY, environment TEXT NOT NULL, tenant_id INTEGER NOT NULL, expires_at INTEGER NOT NULL,
        used_at INTEGER
      );
    `,
  },
]);
