import { randomBytes } from "node:crypto";
import type { SandboxContext } from "../context";

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
