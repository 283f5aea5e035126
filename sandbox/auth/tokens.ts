import { randomBytes } from "node:crypto";
import type { SandboxContext } from "../context";
import { isObserved } from "../config";

/** §4.7 / §8: access tokens live 7200 s; `token_type` is the literal `authorization_code`. */
export const ACCESS_TOKEN_TTL_SECONDS = 7200;

export type TokenSubject = { environment: string; tenantId: number; userId: number; clientId: string };

export type TokenResponse = {
  access_token: string;
  token_type: "authorization_code";
  expires_in: number;
  refresh_token: string;
};

function opaqueToken(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString("base64url")}`;
}

/**
 * The observed profile's one active access token per app and tenant (docs/decisions/real-platform-answers.md): a new token
 * ends every earlier one of the same app and tenant. The spec profile keeps them (they expire by time).
 */
function supersedeEarlierTokens(ctx: SandboxContext, subject: TokenSubject, kept: string): void {
  if (!isObserved(ctx.config.environments.find((e) => e.name === subject.environment))) return;
  ctx.db
    .prepare("UPDATE access_tokens SET revoked = 1 WHERE environment = ? AND tenant_id = ? AND client_id = ? AND token != ? AND revoked = 0")
    .run(subject.environment, subject.tenantId, subject.clientId, kept);
}

/** Issues a new access token and refresh token bound to environment, tenant, user and app. */
export function issueTokens(ctx: SandboxContext, subject: TokenSubject): TokenResponse {
  const now = ctx.clock.nowSeconds();
  const access = opaqueToken("at");
  const refresh = opaqueToken("rt");
  ctx.db
    .prepare(
      "INSERT INTO access_tokens (token, environment, tenant_id, user_id, client_id, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
    )
    .run(access, subject.environment, subject.tenantId, subject.userId, subject.clientId, now + ACCESS_TOKEN_TTL_SECONDS);
  ctx.db
    .prepare("INSERT INTO refresh_tokens (token, environment, tenant_id, user_id, client_id, created_at) VALUES (?, ?, ?, ?, ?, ?)")
    .run(refresh, subject.environment, subject.tenantId, subject.userId, subject.clientId, now);
  supersedeEarlierTokens(ctx, subject, access);
  return { access_token: access, token_type: "authorization_code", expires_in: ACCESS_TOKEN_TTL_SECONDS, refresh_token: refresh };
}

export type AccessCheck = { ok: true; subject: TokenSubject } | { ok: false; reason: "missing" | "invalid" | "expired" };

/** Resolves an access token presented to `environment`; a token of another environment is invalid. */
export function checkAccessToken(ctx: SandboxContext, environment: string, token: string | undefined): AccessCheck {
  if (!token) return { ok: false, reason: "missing" };
  const row = ctx.db
    .prepare("SELECT environment, tenant_id, user_id, client_id, expires_at, revoked FROM access_tokens WHERE token = ?")
    .get(token) as
    | { environment: string; tenant_id: number; user_id: number; client_id: string; expires_at: number; revoked: number }
    | undefined;
  if (!row || row.revoked || row.environment !== environment) return { ok: false, reason: "invalid" };
  if (row.expires_at <= ctx.clock.nowSeconds()) return { ok: false, reason: "expired" };
  return {
    ok: true,
    subject: { environment: row.environment, tenantId: row.tenant_id, userId: row.user_id, clientId: row.client_id },
  };
}

/** The token of a resource request: the `access_token` query parameter (§5.1.1) or a bearer header. */
export function presentedToken(url: string, authorization: string | undefined): string | undefined {
  const fromQuery = new URL(url).searchParams.get("access_token");
  if (fromQuery) return fromQuery;
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
  return match?.[1];
}

export type RefreshResult = { ok: true; tokens: TokenResponse } | { ok: false; reason: "invalid" | "used" | "revoked" | "client" };

/**
 * The refresh grant. With rotation (the default) the presented refresh token is marked used and a
 * new one is returned; presenting it again fails, so clients must store the new pair atomically.
 * Without rotation the same refresh token is returned and stays valid. Refresh tokens do not
 * expire by time (the spec shows no lifetime); they end by rotation or revocation.
 */
export function refreshTokens(
  ctx: SandboxContext,
  request: { environment: string; clientId: string; refreshToken: string; rotate: boolean; graceSeconds?: number },
): RefreshResult {
  const { environment, clientId, refreshToken, rotate, graceSeconds = 0 } = request;
  return ctx.db.transaction((): RefreshResult => {
    const row = ctx.db
      .prepare("SELECT environment, tenant_id, user_id, client_id, used_at, revoked FROM refresh_tokens WHERE token = ?")
      .get(refreshToken) as
      | { environment: string; tenant_id: number; user_id: number; client_id: string; used_at: number | null; revoked: number }
      | undefined;
    // A refresh token of another environment is unknown here, as on the real platform.
    if (!row || row.environment !== environment) return { ok: false, reason: "invalid" };
    if (row.client_id !== clientId) return { ok: false, reason: "client" };
    if (row.revoked) return { ok: false, reason: "revoked" };
    const subject = { environment: row.environment, tenantId: row.tenant_id, userId: row.user_id, clientId: row.client_id };
    const now = ctx.clock.nowSeconds();
    // Rotation grace: a used token still works for `graceSeconds` after its first use (new pair each time).
    if (row.used_at !== null) return now - row.used_at < graceSeconds ? { ok: true, tokens: issueTokens(ctx, subject) } : { ok: false, reason: "used" };
    if (!rotate) {
      const access = opaqueToken("at");
      ctx.db
        .prepare("INSERT INTO access_tokens (token, environment, tenant_id, user_id, client_id, expires_at) VALUES (?, ?, ?, ?, ?, ?)")
        .run(access, subject.environment, subject.tenantId, subject.userId, subject.clientId, now + ACCESS_TOKEN_TTL_SECONDS);
      supersedeEarlierTokens(ctx, subject, access);
      return {
        ok: true,
        tokens: { access_token: access, token_type: "authorization_code", expires_in: ACCESS_TOKEN_TTL_SECONDS, refresh_token: refreshToken },
      };
    }
    ctx.db.prepare("UPDATE refresh_tokens SET used_at = ? WHERE token = ?").run(now, refreshToken);
    return { ok: true, tokens: issueTokens(ctx, subject) };
  })();
}

/** Revokes the given tokens (used when an authorization code is replayed). */
export function revokeTokens(ctx: SandboxContext, accessToken: string | null, refreshToken: string | null): void {
  if (accessToken) ctx.db.prepare("UPDATE access_tokens SET revoked = 1 WHERE token = ?").run(accessToken);
  if (refreshToken) ctx.db.prepare("UPDATE refresh_tokens SET revoked = 1 WHERE token = ?").run(refreshToken);
}

/** Revokes every refresh token (and, if asked, every access token) of a tenant; returns the counts. */
export function revokeTenantTokens(
  ctx: SandboxContext,
  environment: string,
  tenantId: number,
  options: { accessTokens: boolean },
): { refreshTokens: number; accessTokens: number } {
  const refresh = ctx.db
    .prepare("UPDATE refresh_tokens SET revoked = 1 WHERE environment = ? AND tenant_id = ? AND revoked = 0")
    .run(environment, tenantId).changes;
  const access = options.accessTokens
    ? ctx.db.prepare("UPDATE access_tokens SET revoked = 1 WHERE environment = ? AND tenant_id = ? AND revoked = 0").run(environment, tenantId)
        .changes
    : 0;
  return { refreshTokens: refresh, accessTokens: access };
}
