import { randomBytes } from "node:crypto";
import type { SandboxContext } from "../context";
import "../auth/schema";

/** §5.4.1, §8: `getOpenAppIdToken` is single use and valid for 10 minutes (sandbox clock). */
export const CLOUD_TOKEN_TTL_SECONDS = 600;

export function issueCloudToken(ctx: SandboxContext, environment: string, tenantId: number): string {
  const token = `goat_${randomBytes(18).toString("base64url")}`;
  ctx.db
    .prepare("INSERT INTO cloud_tokens (token, environment, tenant_id, expires_at) VALUES (?, ?, ?, ?)")
    .run(token, environment, tenantId, ctx.clock.nowSeconds() + CLOUD_TOKEN_TTL_SECONDS);
  return token;
}

export type CloudTokenResult = { ok: true; environment: string } | { ok: false; reason: "invalid" | "used" | "expired" };

/** Redeems the token once: a second redemption, or one after expiry, fails. */
export function redeemCloudToken(ctx: SandboxContext, token: string): CloudTokenResult {
  return ctx.db.transaction((): CloudTokenResult => {
    const row = ctx.db.prepare("SELECT environment, expires_at, used_at FROM cloud_tokens WHERE token = ?").get(token) as
      | { environment: string; expires_at: number; used_at: number | null }
      | undefined;
    if (!row) return { ok: false, reason: "invalid" };
    if (row.used_at !== null) return { ok: false, reason: "used" };
    const now = ctx.clock.nowSeconds();
    if (row.expires_at <= now) return { ok: false, reason: "expired" };
    ctx.db.prepare("UPDATE cloud_tokens SET used_at = ? WHERE token = ?").run(now, token);
    return { ok: true, environment: row.environment };
  })();
}
