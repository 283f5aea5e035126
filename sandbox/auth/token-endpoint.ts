import { timingSafeEqual } from "node:crypto";
import type { Context, Hono } from "hono";
import type { EnvironmentConfig } from "../config";
import type { SandboxContext } from "../context";
import { sendJson } from "../http";
import { markInstalled } from "./installations";
import { authSettings } from "./settings";
import { issueTokens, refreshTokens, revokeTokens, type TokenResponse } from "./tokens";
import "./schema";

/**
 * Token endpoint errors are not shown by the spec (§7.7). The sandbox answers in the shape of
 * RFC 6749 §5.2: `{error, error_description}`, HTTP 401 for a failed client authentication and
 * HTTP 400 otherwise (sandbox/README.md).
 */
type TokenError = "invalid_request" | "invalid_client" | "invalid_grant" | "unsupported_grant_type";

function tokenError(c: Context, error: TokenError, description: string): Response {
  c.header("Cache-Control", "no-store");
  return sendJson(c, { error, error_description: description }, error === "invalid_client" ? 401 : 400);
}

function tokenSuccess(c: Context, tokens: TokenResponse): Response {
  c.header("Cache-Control", "no-store");
  c.header("Pragma", "no-cache");
  return sendJson(c, tokens);
}

function secretMatches(expected: string, presented: string): boolean {
  const a = Buffer.from(expected, "utf8");
  const b = Buffer.from(presented, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Client credentials: `client_id` and `client_secret` in the body (§4.7), or HTTP Basic
 * (RFC 6749 §2.3.1, form-encoded id and secret) for clients that default to it; not both.
 */
function clientCredentials(
  form: URLSearchParams,
  authorization: string | undefined,
): { ok: true; clientId: string | null; clientSecret: string | null } | { ok: false; message: string } {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? "");
  if (!basic) return { ok: true, clientId: form.get("client_id"), clientSecret: form.get("client_secret") };
  if (form.has("client_secret")) return { ok: false, message: "use one client authentication method, not both" };
  const decoded = Buffer.from(basic[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return { ok: false, message: "malformed Basic credentials" };
  try {
    const clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " "));
    const clientSecret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " "));
    if (form.has("client_id") && form.get("client_id") !== clientId) return { ok: false, message: "client_id differs from the Basic credentials" };
    return { ok: true, clientId, clientSecret };
  } catch {
    return { ok: false, message: "malformed Basic credentials" };
  }
}

type CodeRow = {
  environment: string;
  tenant_id: number;
  user_id: number;
  client_id: string;
  redirect_uri: string;
  expires_at: number;
  install: number;
  used_at: number | null;
  access_token: string | null;
  refresh_token: string | null;
};

function exchangeCode(ctx: SandboxContext, env: EnvironmentConfig, c: Context, form: URLSearchParams, clientId: string): Response {
  const code = form.get("code");
  const redirectUri = form.get("redirect_uri");
  if (!code) return tokenError(c, "invalid_request", "code is required");
  if (!redirectUri) return tokenError(c, "invalid_request", "redirect_uri is required");
  const outcome = ctx.db.transaction((): { tokens: TokenResponse } | { error: string } => {
    const row = ctx.db.prepare("SELECT * FROM authorization_codes WHERE code = ?").get(code) as CodeRow | undefined;
    if (!row || row.environment !== env.name || row.client_id !== clientId) return { error: "code is invalid" };
    if (row.used_at !== null) {
      // RFC 6749 §4.1.2: a replayed code revokes what it issued (it may have been stolen).
      revokeTokens(ctx, row.access_token, row.refresh_token);
      return { error: "code has already been used" };
    }
    const now = ctx.clock.nowSeconds();
    if (row.expires_at <= now) return { error: "code has expired" };
    if (row.redirect_uri !== redirectUri) return { error: "redirect_uri does not match the authorization request" };
    const tokens = issueTokens(ctx, { environment: row.environment, tenantId: row.tenant_id, userId: row.user_id, clientId });
    ctx.db
      .prepare("UPDATE authorization_codes SET used_at = ?, access_token = ?, refresh_token = ? WHERE code = ?")
      .run(now, tokens.access_token, tokens.refresh_token, code);
    if (row.install) markInstalled(ctx, { environment: row.environment, tenantId: row.tenant_id, appId: ctx.config.app.appId });
    return { tokens };
  })();
  if ("error" in outcome) return tokenError(c, "invalid_grant", outcome.error);
  return tokenSuccess(c, outcome.tokens);
}

const REFRESH_FAILURES = {
  invalid: "refresh_token is invalid",
  client: "refresh_token was not issued to this client",
  used: "refresh_token has already been used (rotation is on: use the refresh_token returned last)",
  revoked: "refresh_token has been revoked",
} as const;

/** `POST /oauth2/token` (§4.7), form-urlencoded, authorization_code and refresh_token grants. */
export function mountTokenEndpoint(app: Hono, ctx: SandboxContext, env: EnvironmentConfig): void {
  app.post("/oauth2/token", async (c) => {
    const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/x-www-form-urlencoded") {
      return tokenError(c, "invalid_request", "the body must be application/x-www-form-urlencoded");
    }
    const form = new URLSearchParams(await c.req.text());
    const keys = [...form.keys()];
    if (new Set(keys).size !== keys.length) return tokenError(c, "invalid_request", "parameters must not repeat");
    const grantType = form.get("grant_type");
    if (!grantType) return tokenError(c, "invalid_request", "grant_type is required");
    if (grantType !== "authorization_code" && grantType !== "refresh_token") {
      return tokenError(c, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token");
    }
    // Every attempt of a known grant counts, failed or not: a refresh storm shows in the stats.
    ctx.stats.countGrant(grantType);
    const credentials = clientCredentials(form, c.req.header("authorization"));
    if (!credentials.ok) return tokenError(c, "invalid_request", credentials.message);
    const { clientId, clientSecret } = credentials;
    if (!clientId || !clientSecret || clientId !== ctx.config.app.clientId || !secretMatches(ctx.config.app.clientSecret, clientSecret)) {
      return tokenError(c, "invalid_client", "client authentication failed");
    }
    if (grantType === "authorization_code") return exchangeCode(ctx, env, c, form, clientId);
    const refreshToken = form.get("refresh_token");
    if (!refreshToken) return tokenError(c, "invalid_request", "refresh_token is required");
    const result = refreshTokens(ctx, { environment: env.name, clientId, refreshToken, rotate: authSettings(ctx).refreshRotation, graceSeconds: authSettings(ctx).refreshGraceSeconds });
    if (!result.ok) return tokenError(c, "invalid_grant", REFRESH_FAILURES[result.reason]);
    return tokenSuccess(c, result.tokens);
  });
}
