import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { Store } from "./database";
import { decryptToken, encryptToken } from "./token-cipher";

/**
 * Server-side state of sign-ins (docs/decisions/sign-in-hardening.md). Three tables (the third, `pending_sign_ins`, below):
 * - `auth_flow_nonces`: a flow's state is redeemed once. `consumeFlowNonce` inserts the nonce's hash;
 *   the primary key lets exactly one caller win, on every instance sharing the store, so a replayed or
 *   second callback is refused before its code reaches the token endpoint (which would revoke the
 *   installation's tokens, RFC 9700 §4.5).
 * - `sign_ins`: one row per completed sign-in, named by the cookie entry and the fallback token.
 *   Revoking the row (logout, sign out everywhere) ends both on the next request of every instance.
 */

export type SignIn = { id: string; openAppId: string; tenantId: string; userId: string; expiresAt: number };

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** True for the one caller that redeems the nonce; false when it was already redeemed. */
export async function consumeFlowNonce(store: Store, nonce: string, expiresAt: number, now = Date.now()): Promise<boolean> {
  // Spent nonces outlive their flow's expiry only as long as the flow could be replayed.
  await store.db.deleteFrom("auth_flow_nonces").where("expires_at", "<", now).execute();
  const inserted = await store.db
    .insertInto("auth_flow_nonces")
    .values({ nonce_hash: sha256(nonce), expires_at: Math.floor(expiresAt) })
    .onConflict((oc) => oc.column("nonce_hash").doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}

export function newSignInId(): string {
  return randomBytes(24).toString("base64url");
}

export async function createSignIn(store: Store, signIn: SignIn, now = Date.now()): Promise<void> {
  await store.db.deleteFrom("sign_ins").where("expires_at", "<", now).execute();
  await store.db
    .insertInto("sign_ins")
    .values({
      id: signIn.id,
      open_app_id: signIn.openAppId,
      tenant_id: signIn.tenantId,
      user_id: signIn.userId,
      created_at: now,
      expires_at: Math.floor(signIn.expiresAt),
      revoked_at: null,
    })
    .execute();
}

/** Whether the sign-in exists, is not revoked and has not expired. */
export async function isSignInLive(store: Store, id: string, now = Date.now()): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(id)) return false;
  const row = await store.db.selectFrom("sign_ins").select(["expires_at", "revoked_at"]).where("id", "=", id).executeTakeFirst();
  return !!row && row.revoked_at === null && Number(row.expires_at) > now;
}

/** Revokes sign-ins by id; returns how many were live. */
export async function revokeSignIns(store: Store, ids: string[], now = Date.now()): Promise<number> {
  const valid = ids.filter((id) => /^[A-Za-z0-9_-]{16,64}$/.test(id));
  if (valid.length === 0) return 0;
  const result = await store.db.updateTable("sign_ins").set({ revoked_at: now }).where("id", "in", valid).where("revoked_at", "is", null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** "Sign out everywhere": every live sign-in of the user in that tenant; returns their ids. */
export async function revokeUserSignIns(store: Store, user: { openAppId: string; tenantId: string; userId: string }, now = Date.now()): Promise<string[]> {
  // '' is "no key": it names nobody, never every keyless user of the tenant.
  if (user.userId === "") return [];
  const rows = await store.db
    .selectFrom("sign_ins")
    .select("id")
    .where("open_app_id", "=", user.openAppId)
    .where("tenant_id", "=", user.tenantId)
    .where("user_id", "=", user.userId)
    .where("revoked_at", "is", null)
    .execute();
  const ids = rows.map((r) => r.id);
  await revokeSignIns(store, ids, now);
  return ids;
}

/**
 * A code exchange that no flow cookie vouched for, kept until the user answers "Continue as …?"
 * (lib/auth/flow-handlers.ts). Nothing of it takes effect before then: no installation row, no
 * sign-in. Held 10 minutes; tokens encrypted as an installation's (token-cipher.ts).
 */
export type PendingSignIn = {
  openAppId: string;
  tenantId: string;
  purpose: "install" | "auth";
  returnTo?: string;
  userId: string;
  userName: string;
  tenantName?: string;
  tokens: { accessToken: string; refreshToken: string; accessTokenExpiresAt: number };
};

export const PENDING_SIGN_IN_TTL_MS = 10 * 60 * 1000;
const PENDING_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const pendingAad = (idHash: string, kind: "access" | "refresh") => `pending-sign-in:${idHash}:${kind}`;

/** Keeps the pending sign-in; returns its one-time id (only its hash is stored). */
export async function savePendingSignIn(store: Store, pending: PendingSignIn, now = Date.now()): Promise<string> {
  await store.db.deleteFrom("pending_sign_ins").where("expires_at", "<", now).execute();
  const id = randomBytes(32).toString("base64url");
  const idHash = sha256(id);
  await store.db
    .insertInto("pending_sign_ins")
    .values({
      id_hash: idHash,
      open_app_id: pending.openAppId,
      tenant_id: pending.tenantId,
      flow: JSON.stringify({ purpose: pending.purpose, returnTo: pending.returnTo ?? null }),
      user_data: JSON.stringify({ userId: pending.userId, userName: pending.userName, tenantName: pending.tenantName ?? null }),
      access_token: encryptToken(pending.tokens.accessToken, store.tokenKeys, pendingAad(idHash, "access")),
      refresh_token: encryptToken(pending.tokens.refreshToken, store.tokenKeys, pendingAad(idHash, "refresh")),
      access_token_expires_at: Math.floor(pending.tokens.accessTokenExpiresAt),
      expires_at: now + PENDING_SIGN_IN_TTL_MS,
    })
    .execute();
  return id;
}

/** Takes the pending sign-in out of the store (once, on every instance); undefined when unknown, spent or expired. */
export async function takePendingSignIn(store: Store, id: string, now = Date.now()): Promise<PendingSignIn | undefined> {
  if (!PENDING_ID_PATTERN.test(id)) return undefined;
  const idHash = sha256(id);
  const row = await store.db.selectFrom("pending_sign_ins").selectAll().where("id_hash", "=", idHash).executeTakeFirst();
  if (!row) return undefined;
  // The delete decides who takes it: a second answer (double click, another instance) finds nothing.
  const deleted = await store.db.deleteFrom("pending_sign_ins").where("id_hash", "=", idHash).executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== 1 || Number(row.expires_at) <= now) return undefined;
  const flow = JSON.parse(row.flow) as { purpose: "install" | "auth"; returnTo: string | null };
  const user = JSON.parse(row.user_data) as { userId: string; userName: string; tenantName: string | null };
  return {
    openAppId: row.open_app_id,
    tenantId: row.tenant_id,
    purpose: flow.purpose === "install" ? "install" : "auth",
    ...(flow.returnTo ? { returnTo: flow.returnTo } : {}),
    userId: user.userId,
    userName: user.userName,
    ...(user.tenantName ? { tenantName: user.tenantName } : {}),
    tokens: {
      accessToken: decryptToken(row.access_token, store.tokenKeys, pendingAad(idHash, "access")),
      refreshToken: decryptToken(row.refresh_token, store.tokenKeys, pendingAad(idHash, "refresh")),
      accessTokenExpiresAt: Number(row.access_token_expires_at),
    },
  };
}
