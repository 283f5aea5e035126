import "server-only";
import { createHash } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Store, StoreSchema } from "./database";
import { decryptToken, encryptToken } from "./token-cipher";

/** A platform environment as cloudinfo describes it (§4.7, §5.4.1). */
export type PlatformEnvironment = {
  openAppId: string;
  authDomain: string;
  apiDomain: string;
  productType?: string;
  productVersion?: string;
};

export type InstallationKey = { openAppId: string; tenantId: string };

export type InstallationStatus = "active" | "reauth_required";

export type InstallationTokens = {
  accessToken: string;
  refreshToken: string;
  /** Epoch milliseconds. */
  accessTokenExpiresAt: number;
};

export type Installation = InstallationKey & {
  tenantName?: string;
  installedBy?: string;
  installedByName?: string;
  status: InstallationStatus;
  /** Grows by one each time the tokens change (install or refresh). */
  tokenGeneration: number;
  tokens: InstallationTokens;
  createdAt: number;
  updatedAt: number;
};

type Executor = Kysely<StoreSchema> | Transaction<StoreSchema>;
type InstallationRow = StoreSchema["installations"] extends infer T ? { [K in keyof T]: unknown } : never;

/** Associated data of an encrypted token: its installation and its kind (token-cipher.ts). */
function aad(key: InstallationKey, kind: "access" | "refresh"): string {
  return `installation:${key.openAppId}:${key.tenantId}:${kind}`;
}

function encryptTokens(store: Store, key: InstallationKey, tokens: InstallationTokens) {
  return {
    access_token: encryptToken(tokens.accessToken, store.tokenKeys, aad(key, "access")),
    refresh_token: encryptToken(tokens.refreshToken, store.tokenKeys, aad(key, "refresh")),
    access_token_expires_at: Math.floor(tokens.accessTokenExpiresAt),
  };
}

function toInstallation(store: Store, row: InstallationRow): Installation {
  const key = { openAppId: String(row.open_app_id), tenantId: String(row.tenant_id) };
  return {
    ...key,
    tenantName: row.tenant_name == null ? undefined : String(row.tenant_name),
    installedBy: row.installed_by == null ? undefined : String(row.installed_by),
    installedByName: row.installed_by_name == null ? undefined : String(row.installed_by_name),
    status: row.status === "reauth_required" ? "reauth_required" : "active",
    tokenGeneration: Number(row.token_generation),
    tokens: {
      accessToken: decryptToken(String(row.access_token), store.tokenKeys, aad(key, "access")),
      refreshToken: decryptToken(String(row.refresh_token), store.tokenKeys, aad(key, "refresh")),
      accessTokenExpiresAt: Number(row.access_token_expires_at),
    },
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export async function saveEnvironment(store: Store, environment: PlatformEnvironment, now = Date.now()): Promise<void> {
  const values = {
    auth_domain: environment.authDomain,
    api_domain: environment.apiDomain,
    product_type: environment.productType ?? null,
    product_version: environment.productVersion ?? null,
    updated_at: now,
  };
  await store.db
    .insertInto("environments")
    .values({ open_app_id: environment.openAppId, ...values })
    .onConflict((oc) => oc.column("open_app_id").doUpdateSet(values))
    .execute();
}

export async function findEnvironment(store: Store, openAppId: string): Promise<PlatformEnvironment | undefined> {
  const row = await store.db.selectFrom("environments").selectAll().where("open_app_id", "=", openAppId).executeTakeFirst();
  if (!row) return undefined;
  return {
    openAppId: row.open_app_id,
    authDomain: row.auth_domain,
    apiDomain: row.api_domain,
    productType: row.product_type ?? undefined,
    productVersion: row.product_version ?? undefined,
  };
}

/**
 * Stores an installation after a completed authorization (§5.2.6). A reinstall of the same
 * (openAppId, tenantId) replaces the tokens and clears a `reauth_required` mark.
 */
export async function saveInstallation(
  store: Store,
  /** `keepInstaller`: a sign-in, not an install: an existing row keeps who installed the app (the tenant's admin here). */
  input: InstallationKey & { tenantName?: string; installedBy?: string; installedByName?: string; tokens: InstallationTokens; keepInstaller?: boolean },
  now = Date.now(),
): Promise<void> {
  const key = { openAppId: input.openAppId, tenantId: input.tenantId };
  const tokens = encryptTokens(store, key, input.tokens);
  const changes = {
    ...tokens,
    tenant_name: input.tenantName ?? null,
    installed_by: input.installedBy ?? null,
    installed_by_name: input.installedByName ?? null,
    status: "active",
    updated_at: now,
  };
  await store.db
    .insertInto("installations")
    .values({ open_app_id: key.openAppId, tenant_id: key.tenantId, ...changes, token_generation: 1, created_at: now })
    .onConflict((oc) =>
      oc.columns(["open_app_id", "tenant_id"]).doUpdateSet((eb) => ({
        ...changes,
        ...(input.keepInstaller ? { installed_by: eb.ref("installations.installed_by"), installed_by_name: eb.ref("installations.installed_by_name") } : {}),
        token_generation: eb("installations.token_generation", "+", 1),
      })),
    )
    .execute();
}

export async function findInstallation(store: Store, key: InstallationKey, executor: Executor = store.db): Promise<Installation | undefined> {
  const row = await executor
    .selectFrom("installations")
    .selectAll()
    .where("open_app_id", "=", key.openAppId)
    .where("tenant_id", "=", key.tenantId)
    .executeTakeFirst();
  return row ? toInstallation(store, row) : undefined;
}

/** Replaces access and refresh token in one statement, so a rotated refresh token is never lost. */
export async function updateInstallationTokens(
  store: Store,
  key: InstallationKey,
  tokens: InstallationTokens,
  executor: Executor = store.db,
  now = Date.now(),
): Promise<void> {
  await executor
    .updateTable("installations")
    .set((eb) => ({ ...encryptTokens(store, key, tokens), updated_at: now, token_generation: eb("token_generation", "+", 1) }))
    .where("open_app_id", "=", key.openAppId)
    .where("tenant_id", "=", key.tenantId)
    .execute();
}

/** The most recently updated installation of an environment (the private deployment has one tenant). */
export async function latestInstallation(store: Store, openAppId: string): Promise<Installation | undefined> {
  const row = await store.db
    .selectFrom("installations")
    .selectAll()
    .where("open_app_id", "=", openAppId)
    .orderBy("updated_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? toInstallation(store, row) : undefined;
}

export async function markReauthRequired(store: Store, key: InstallationKey, executor: Executor = store.db, now = Date.now()): Promise<void> {
  await executor
    .updateTable("installations")
    .set({ status: "reauth_required", updated_at: now })
    .where("open_app_id", "=", key.openAppId)
    .where("tenant_id", "=", key.tenantId)
    .execute();
}

/**
 * Runs `fn` while holding the installation's row lock, with a fresh read of the row. On PostgreSQL
 * this is `SELECT … FOR UPDATE` in a transaction, so one instance of a cluster works on the row at a
 * time and the others then see its result. SQLite serves a single app process: there the caller's
 * in-process single-flight is the lock, and no transaction is held across `fn`'s network calls.
 */
export async function withInstallationLock<T>(
  store: Store,
  key: InstallationKey,
  fn: (installation: Installation | undefined, executor: Executor) => Promise<T>,
): Promise<T> {
  if (store.dialect === "sqlite") return fn(await findInstallation(store, key), store.db);
  return store.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("installations")
      .selectAll()
      .where("open_app_id", "=", key.openAppId)
      .where("tenant_id", "=", key.tenantId)
      .forUpdate()
      .executeTakeFirst();
    return fn(row ? toInstallation(store, row) : undefined, trx);
  });
}

/**
 * The durable mark of a refresh sent to the platform and not yet stored (lib/auth/access-token.ts):
 * written, committed, before the platform call, from outside the installation lock's transaction
 * (its own table, so the locked installation row is not touched); removed in the transaction that
 * stores the new pair. A mark left behind names a refresh whose answer may be lost.
 */
export async function markRefreshInFlight(store: Store, key: InstallationKey, now = Date.now()): Promise<void> {
  await store.db
    .insertInto("refresh_flights")
    .values({ open_app_id: key.openAppId, tenant_id: key.tenantId, started_at: Math.floor(now) })
    .onConflict((oc) => oc.columns(["open_app_id", "tenant_id"]).doUpdateSet({ started_at: Math.floor(now) }))
    .execute();
}

export async function clearRefreshInFlight(key: InstallationKey, executor: Executor): Promise<void> {
  await executor.deleteFrom("refresh_flights").where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).execute();
}

/** Whether a refresh of the installation is marked in flight (read within the lock's executor). */
export async function isRefreshInFlight(key: InstallationKey, executor: Executor): Promise<boolean> {
  const row = await executor.selectFrom("refresh_flights").select("started_at").where("open_app_id", "=", key.openAppId).where("tenant_id", "=", key.tenantId).executeTakeFirst();
  return row !== undefined;
}

/** Every refresh left in flight, oldest first. */
export async function refreshesInFlight(store: Store): Promise<Array<InstallationKey & { startedAt: number }>> {
  const rows = await store.db.selectFrom("refresh_flights").selectAll().orderBy("started_at").execute();
  return rows.map((r) => ({ openAppId: r.open_app_id, tenantId: r.tenant_id, startedAt: Number(r.started_at) }));
}

/** The key of a disconnected tenant as kept: a SHA-256, so nothing of the tenant stays in the store. */
const disconnectedHash = (key: InstallationKey) => createHash("sha256").update(`${key.openAppId}\u0000${key.tenantId}`).digest("hex");

/** Remembers that the tenant's admin disconnected the app: a sign-in then asks for a new install. */
export async function markDisconnected(store: Store, key: InstallationKey, now = Date.now()): Promise<void> {
  const key_hash = disconnectedHash(key);
  await store.db.insertInto("disconnected_keys").values({ key_hash, disconnected_at: now }).onConflict((oc) => oc.column("key_hash").doUpdateSet({ disconnected_at: now })).execute();
}

export async function wasDisconnected(store: Store, key: InstallationKey): Promise<boolean> {
  return (await store.db.selectFrom("disconnected_keys").select("key_hash").where("key_hash", "=", disconnectedHash(key)).executeTakeFirst()) !== undefined;
}

/** A new install from the marketplace: the tenant is connected again. */
export async function forgetDisconnected(store: Store, key: InstallationKey): Promise<void> {
  await store.db.deleteFrom("disconnected_keys").where("key_hash", "=", disconnectedHash(key)).execute();
}
