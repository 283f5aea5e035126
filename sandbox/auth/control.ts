import type { Context } from "hono";
import { z } from "zod";
import type { ControlArea } from "../app";
import type { EnvironmentConfig } from "../config";
import { environmentByName, type SandboxContext } from "../context";
import { readJson, sendJson } from "../http";
import { issueCloudToken } from "../extension/cloud-tokens";
import { callbackTimestamp, callbackUrl, checkAuthorizeRequest, insertAuthorizationCode, recordConsent } from "./authorize";
import { isInstalled, markInstalled, uninstall } from "./installations";
import { authSettings } from "./settings";
import { revokeTenantTokens } from "./tokens";

const tenantRef = { environment: z.string(), tenantId: z.union([z.number(), z.bigint(), z.string().regex(/^\d+$/)]).optional() };
const configBody = z.object({ refreshRotation: z.boolean().optional(), refreshGraceSeconds: z.number().int().min(0).max(86_400).optional() }).strict();
const revokeBody = z.object({ ...tenantRef, accessTokens: z.boolean().optional() }).strict();
const installBody = z.object({ ...tenantRef, installed: z.boolean() }).strict();
const cloudTokenBody = z.object({ environment: z.string() }).strict();
const authorizeBody = z
  .object({ environment: z.string(), redirect_uri: z.string().optional(), state: z.string().optional(), install: z.boolean().optional(), staffEmail: z.string().optional() })
  .strict();

type Tenant = { env: EnvironmentConfig; tenantId: number };

/** Resolves `{environment, tenantId?}`; the tenant defaults to the environment's demo tenant. */
function resolveTenant(ctx: SandboxContext, c: Context, body: { environment: string; tenantId?: number | bigint | string }): Tenant | Response {
  const env = environmentByName(ctx, body.environment);
  if (!env) return sendJson(c, { error: `unknown environment: ${body.environment}` }, 404);
  const tenantId = body.tenantId === undefined ? env.tenant.id : Number(body.tenantId);
  if (!ctx.db.prepare("SELECT 1 FROM tenants WHERE id = ? AND environment = ?").get(tenantId, env.name)) {
    return sendJson(c, { error: `tenant ${tenantId} is not in ${env.name}` }, 404);
  }
  return { env, tenantId };
}

async function parse<T>(c: Context, schema: z.ZodType<T>): Promise<{ ok: true; data: T } | { ok: false }> {
  const json = await readJson(c);
  const result = schema.safeParse(json.ok ? (json.value ?? {}) : undefined);
  return result.success ? { ok: true, data: result.data } : { ok: false };
}

/** Control routes of the authorization server, marketplace and extension service (sandbox/README.md). */
export const authControl: ControlArea = (control, ctx) => {
  control.get("/config", (c) => sendJson(c, authSettings(ctx)));
  control.post("/config", async (c) => {
    const body = await parse(c, configBody);
    if (!body.ok) return sendJson(c, { error: "body must be {refreshRotation?: boolean, refreshGraceSeconds?: integer 0..86400}" }, 400);
    Object.assign(authSettings(ctx), body.data);
    return sendJson(c, authSettings(ctx));
  });

  control.post("/tokens/revoke", async (c) => {
    const body = await parse(c, revokeBody);
    if (!body.ok) return sendJson(c, { error: "body must be {environment, tenantId?, accessTokens?: boolean}" }, 400);
    const tenant = resolveTenant(ctx, c, body.data);
    if (tenant instanceof Response) return tenant;
    const revoked = revokeTenantTokens(ctx, tenant.env.name, tenant.tenantId, { accessTokens: body.data.accessTokens ?? false });
    return sendJson(c, { revoked });
  });

  control.get("/installations", (c) =>
    sendJson(c, { installations: ctx.db.prepare("SELECT environment, tenant_id AS tenantId, app_id AS appId, installed_at AS installedAt FROM installations").all() }),
  );
  control.post("/installations", async (c) => {
    const body = await parse(c, installBody);
    if (!body.ok) return sendJson(c, { error: "body must be {environment, tenantId?, installed: boolean}" }, 400);
    const tenant = resolveTenant(ctx, c, body.data);
    if (tenant instanceof Response) return tenant;
    const key = { environment: tenant.env.name, tenantId: tenant.tenantId, appId: ctx.config.app.appId };
    if (body.data.installed) markInstalled(ctx, key);
    else uninstall(ctx, key);
    return sendJson(c, { ...key, installed: isInstalled(ctx, key) });
  });

  // A test shortcut past the marketplace click: a fresh getOpenAppIdToken of an environment.
  control.post("/cloudtokens", async (c) => {
    const body = await parse(c, cloudTokenBody);
    if (!body.ok) return sendJson(c, { error: "body must be {environment}" }, 400);
    const tenant = resolveTenant(ctx, c, body.data);
    if (tenant instanceof Response) return tenant;
    return sendJson(c, { getOpenAppIdToken: issueCloudToken(ctx, tenant.env.name, tenant.tenantId) });
  });

  // A test shortcut past the browser login and consent: the signed callback URL that authorize
  // would redirect the demo staff of the environment to (the admin, or `staffEmail`'s).
  control.post("/authorize", async (c) => {
    const body = await parse(c, authorizeBody);
    if (!body.ok) return sendJson(c, { error: "body must be {environment, redirect_uri?, state?, install?: boolean, staffEmail?}" }, 400);
    const env = environmentByName(ctx, body.data.environment);
    if (!env) return sendJson(c, { error: `unknown environment: ${body.data.environment}` }, 404);
    const staff = body.data.staffEmail === undefined ? env.staff : [env.staff, ...(env.moreStaff ?? [])].find((s) => s.email === body.data.staffEmail);
    if (!staff) return sendJson(c, { error: `no demo staff ${body.data.staffEmail} in ${env.name}` }, 404);
    const app = ctx.config.app;
    const check = checkAuthorizeRequest(app, {
      client_id: app.clientId,
      response_type: "code",
      redirect_uri: body.data.redirect_uri ?? app.callbackUrl,
      state: body.data.state,
    });
    if (!check.ok) return sendJson(c, { error: check.message }, 400);
    // Standing in for the demo staff's consent: remembered, as the consent page would, so that a browser
    // of that staff later opening the app is not asked again (as after a marketplace install).
    recordConsent(ctx, env.name, staff.id, app.clientId);
    const code = insertAuthorizationCode(ctx, {
      environment: env.name,
      tenantId: env.tenant.id,
      userId: staff.id,
      clientId: app.clientId,
      redirectUri: check.request.redirectUri,
      install: body.data.install ?? false,
    });
    return sendJson(c, {
      callbackUrl: callbackUrl(app.clientSecret, check.request.redirectUri, { code, timestamp: callbackTimestamp(), state: check.request.state }),
    });
  });
};
