import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { Store } from "./database";

/**
 * Access tokens the app issues to the platform for the oauth2 webhook mode (§5.5). A token is 32
 * random bytes; only its SHA-256 is stored (a stolen database holds no usable token), and it lives
 * `WEBHOOK_TOKEN_TTL_SECONDS`, like the platform's own access tokens (§8: 2 hours).
 */
export const WEBHOOK_TOKEN_TTL_SECONDS = 7200;

function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export async function issueWebhookToken(store: Store, appId: string, now = Date.now()): Promise<{ accessToken: string; expiresIn: number }> {
  const db = store.db;
  const accessToken = `wht_${randomBytes(32).toString("base64url")}`;
  // Expired tokens are useless; dropping them here keeps the table as small as the live set.
  await db.deleteFrom("webhook_tokens").where("expires_at", "<=", now).execute();
  await db
    .insertInto("webhook_tokens")
    .values({ token_hash: hashToken(accessToken), app_id: appId, issued_at: now, expires_at: now + WEBHOOK_TOKEN_TTL_SECONDS * 1000 })
    .execute();
  return { accessToken, expiresIn: WEBHOOK_TOKEN_TTL_SECONDS };
}

/** Whether `token` is one this app issued (to `appId`) and has not expired. */
export async function isWebhookTokenValid(store: Store, token: string, appId: string, now = Date.now()): Promise<boolean> {
  if (!/^wht_[A-Za-z0-9_-]{43}$/.test(token)) return false;
  const row = await store.db
    .selectFrom("webhook_tokens")
    .select("expires_at")
    .where("token_hash", "=", hashToken(token))
    .where("app_id", "=", appId)
    .executeTakeFirst();
  return !!row && Number(row.expires_at) > now;
}
