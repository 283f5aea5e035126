import "server-only";
import type { Logger } from "pino";
import { logger as rootLogger } from "@/lib/log";
import type { Store } from "@/lib/store/database";
import { issueWebhookToken } from "@/lib/store/webhook-tokens";
import { constantTimeEqualText, type WebhookAuthConfig } from "./authenticate";

export type TokenEndpointDeps = {
  config: WebhookAuthConfig;
  store: () => Promise<Store>;
  now?: () => number;
  log?: Logger;
};

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

/** OAuth-style error body (RFC 6749 §5.2 names), never echoing what was sent. */
function oauthError(status: number, code: string, description: string): Response {
  return Response.json({ error: code, error_description: description }, { status, headers: NO_STORE });
}

/**
 * `GET /api/webhooks/token?appid=&secret=&grant_type=client_credentials` (§5.5 OAuth2): the platform
 * gets an access token here, then posts each message with `?access_token=`. Only in oauth2 mode (404
 * otherwise). Missing parameters → 400 invalid_request; another grant type → 400
 * unsupported_grant_type; wrong appid or secret → 401 invalid_client (both compared in constant time).
 * Tokens live 2 h and are stored hashed (lib/store/webhook-tokens.ts).
 */
export async function handleWebhookTokenRequest(request: Request, deps: TokenEndpointDeps): Promise<Response> {
  const log = deps.log ?? rootLogger().child({ scope: "webhooks" });
  const config = deps.config;
  if (config.mode !== "oauth2") return oauthError(404, "invalid_request", "The oauth2 webhook mode is not enabled.");

  const params = new URL(request.url).searchParams;
  const one = (name: string) => {
    const values = params.getAll(name);
    return values.length === 1 ? values[0] : undefined;
  };
  const appId = one("appid");
  const secret = one("secret");
  const grantType = one("grant_type");
  if (!appId || !secret || !grantType) return oauthError(400, "invalid_request", "appid, secret and grant_type are each required once.");
  if (grantType !== "client_credentials") return oauthError(400, "unsupported_grant_type", "grant_type must be client_credentials.");
  const appOk = constantTimeEqualText(appId, config.appId);
  const secretOk = constantTimeEqualText(secret, config.secret);
  if (!appOk || !secretOk) {
    log.warn("webhook token refused: wrong appid or secret");
    return oauthError(401, "invalid_client", "The appid or secret is wrong.");
  }
  try {
    const { accessToken, expiresIn } = await issueWebhookToken(await deps.store(), config.appId, (deps.now ?? Date.now)());
    log.info({ expiresIn }, "webhook token issued");
    return Response.json({ access_token: accessToken, token_type: "bearer", expires_in: expiresIn }, { headers: NO_STORE });
  } catch (cause) {
    log.error({ err: cause instanceof Error ? { name: cause.name, message: cause.message } : String(cause) }, "webhook token could not be stored");
    return oauthError(503, "temporarily_unavailable", "Try again later.");
  }
}
