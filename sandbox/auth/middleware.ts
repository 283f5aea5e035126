import type { MiddlewareHandler } from "hono";
import type { SandboxContext } from "../context";
import { sendJson } from "../http";
import { checkAccessToken, presentedToken, type TokenSubject } from "./tokens";

export type AuthedVariables = { subject: TokenSubject };

const DESCRIPTIONS = {
  missing: "access_token is required",
  invalid: "access_token is invalid",
  expired: "access_token has expired",
} as const;

/**
 * Guards a resource route: the token (query `access_token`, §5.1.1, or bearer) must be a live token
 * of this environment. The spec does not show the failure (§7.7); the sandbox answers HTTP 401 with
 * `{error_code, error_description}` like users/current (§7.4) — see sandbox/README.md.
 */
export function requireAccessToken(ctx: SandboxContext, environment: string): MiddlewareHandler<{ Variables: AuthedVariables }> {
  return async (c, next) => {
    const check = checkAccessToken(ctx, environment, presentedToken(c.req.url, c.req.header("authorization")));
    if (!check.ok) {
      const code = check.reason === "expired" ? "expired_token" : "invalid_token";
      return sendJson(c, { error_code: code, error_description: DESCRIPTIONS[check.reason] }, 401);
    }
    c.set("subject", check.subject);
    await next();
  };
}
