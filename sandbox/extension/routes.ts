import type { RouteArea } from "../app";
import { environmentByName } from "../context";
import { sendJson } from "../http";
import { redeemCloudToken } from "./cloud-tokens";

const FAILURES = {
  invalid: { error_code: "invalid_token", error_description: "token is unknown" },
  used: { error_code: "invalid_token", error_description: "token has already been used" },
  expired: { error_code: "expired_token", error_description: "token has expired" },
} as const;

/**
 * The extension service (§4.7, §5.4.1): `GET /extension/cloudinfo?token=` exchanges a one-time
 * `getOpenAppIdToken` for the issuing environment's ids and domains. Only the first environment
 * (alpha) serves it, like the single extension URL of the real platform. Failures are not shown by
 * the spec: HTTP 400 `{error_code, error_description}` (sandbox/README.md).
 */
export const extensionRoutes: RouteArea = (app, ctx, env) => {
  if (env.name !== ctx.config.environments[0]?.name) return;
  app.get("/extension/cloudinfo", (c) => {
    const token = c.req.query("token");
    if (!token) return sendJson(c, { error_code: "invalid_request", error_description: "token is required" }, 400);
    const result = redeemCloudToken(ctx, token);
    if (!result.ok) return sendJson(c, FAILURES[result.reason], 400);
    const issuer = environmentByName(ctx, result.environment);
    if (!issuer) return sendJson(c, FAILURES.invalid, 400);
    return sendJson(c, {
      openAppId: issuer.openAppId,
      authDomain: issuer.origin,
      apiDomain: issuer.origin,
      productType: issuer.productType,
      productVersion: issuer.productVersion,
    });
  });
};
