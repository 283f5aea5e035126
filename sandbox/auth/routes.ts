import type { RouteArea } from "../app";
import { sendJson } from "../http";
import { mountAuthorize } from "./authorize";
import { mountLogin } from "./login";
import { requireAccessToken } from "./middleware";
import { mountTokenEndpoint } from "./token-endpoint";

/**
 * The authorization server of an environment ({auth_url} = the environment's origin, §4.7): staff
 * login, authorize with consent, the token endpoint, and the current user of a token.
 */
export const authRoutes: RouteArea = (app, ctx, env) => {
  // The sandbox's own pages (login, consent, admin shell) may be framed only by the platform itself
  // and by the app (consent is shown inside the app's iframe); they hold anti-CSRF tokens, so
  // they are not cached. The default referrer policy is made explicit: the app compares the
  // origin in `Referer` with authDomain (§5.4.3).
  const appOrigin = new URL(ctx.config.app.callbackUrl).origin;
  app.use("*", async (c, next) => {
    await next();
    if (!c.res.headers.get("content-type")?.startsWith("text/html")) return;
    c.res.headers.set("Content-Security-Policy", `frame-ancestors 'self' ${appOrigin}`);
    c.res.headers.set("X-Content-Type-Options", "nosniff");
    c.res.headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
    c.res.headers.set("Cache-Control", "no-store");
  });
  mountLogin(app, ctx, env);
  mountAuthorize(app, ctx, env);
  mountTokenEndpoint(app, ctx, env);

  // §4.7: bearer token (the `access_token` query parameter is accepted too); failures are
  // `{error_code, error_description}` (§7.4) with HTTP 401.
  app.get("/v1/users/current", requireAccessToken(ctx, env.name), (c) => {
    const { userId, tenantId } = c.get("subject");
    const row = ctx.db
      .prepare("SELECT st.id, st.email, st.name, t.name AS tenant_name FROM staff st JOIN tenants t ON t.id = st.tenant_id WHERE st.id = ?")
      .get(userId) as { id: number; email: string; name: string; tenant_name: string } | undefined;
    if (!row) return sendJson(c, { error_code: "invalid_token", error_description: "the user of this token no longer exists" }, 401);
    return sendJson(c, {
      id: row.id,
      username: row.email,
      name: row.name,
      email: row.email,
      tenantId,
      tenantName: row.tenant_name,
    });
  });
};
