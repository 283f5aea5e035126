import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { Store } from "./database";

/**
 * Server-side state of sign-ins (docs/decisions/sign-in-hardening.md). Two tables:
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
