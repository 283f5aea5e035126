import { randomBytes } from "node:crypto";
import type { Context, Hono } from "hono";
import type { AppRegistration, EnvironmentConfig } from "../config";
import type { SandboxContext } from "../context";
import { html, standalonePage } from "../admin/html";
import { signCallbackParams } from "./hmac";
import { hasPendingInstall } from "./installations";
import { csrfMatches, currentSession, type PlatformSession } from "./session";
import "./schema";

/** Authorization codes are short-lived (the spec is silent): 10 minutes by the sandbox clock. */
export const AUTHORIZATION_CODE_TTL_SECONDS = 600;

/** Query keys the platform adds to the callback; a redirect_uri may not carry them itself. */
const CALLBACK_KEYS = ["code", "timestamp", "hmac", "state"];

export type AuthorizeRequest = { clientId: string; redirectUri: string; state: string | undefined };

/**
 * Validates the authorize parameters (§4.7, §5.2.3). Any failure is shown as an error page and
 * never redirected, because an unchecked redirect_uri must not receive anything.
 */
export function checkAuthorizeRequest(
  app: AppRegistration,
  query: Record<string, string | undefined>,
): { ok: true; request: AuthorizeRequest } | { ok: false; message: string } {
  const { client_id: clientId, redirect_uri: redirectUri, response_type: responseType, state } = query;
  if (!clientId) return { ok: false, message: "client_id is required." };
  if (clientId !== app.clientId) return { ok: false, message: "client_id is not a registered application." };
  if (!redirectUri) return { ok: false, message: "redirect_uri is required." };
  // §5.2.3 "begins with the registered callback"; the next character must end the path or start
  // a query so that `…/callback.evil` or `…/callbackX` do not pass.
  const rest = redirectUri.startsWith(app.callbackUrl) ? redirectUri.slice(app.callbackUrl.length) : undefined;
  if (rest === undefined || !(rest === "" || rest.startsWith("?") || rest.startsWith("/"))) {
    return { ok: false, message: "redirect_uri does not begin with the registered callback address." };
  }
  let parsed: URL;
  try {
    parsed = new URL(redirectUri);
  } catch {
    return { ok: false, message: "redirect_uri is not a valid URL." };
  }
  if (parsed.hash) return { ok: false, message: "redirect_uri must not contain a fragment." };
  const keys = [...parsed.searchParams.keys()];
  if (keys.some((k) => CALLBACK_KEYS.includes(k)) || new Set(keys).size !== keys.length) {
    return { ok: false, message: "redirect_uri must not repeat query parameters or carry code, timestamp, hmac or state." };
  }
  if (!responseType) return { ok: false, message: "response_type is required." };
  if (responseType !== "code") return { ok: false, message: "response_type must be code." };
  return { ok: true, request: { clientId, redirectUri, state } };
}

/**
 * `timestamp` of the callback: real Unix seconds, not the sandbox clock. The app compares it with
 * its own clock (a freshness window), and the two clocks agree on the real platform; advancing
 * the sandbox clock to expire tokens must not make every later callback look stale.
 */
export function callbackTimestamp(): number {
  return Math.floor(Date.now() / 1000);
}

/** The callback URL with `code`, `timestamp`, `hmac` (§5.3 over every other query pair) and `state`. */
export function callbackUrl(secret: string, redirectUri: string, values: { code: string; timestamp: number; state: string | undefined }): string {
  const url = new URL(redirectUri);
  url.searchParams.set("code", values.code);
  url.searchParams.set("timestamp", String(values.timestamp));
  const signed = Object.fromEntries(url.searchParams);
  url.searchParams.set("hmac", signCallbackParams(secret, signed));
  if (values.state !== undefined) url.searchParams.set("state", values.state);
  return url.toString();
}

function errorPage(c: Context, message: string): Response {
  return c.html(
    standalonePage(
      "Authorization error",
      html`<h1>Authorization cannot continue</h1><p class="error" role="alert">${message}</p>
<p class="hint">The application sent an invalid authorization request. Nothing was shared with it.</p>`,
    ),
    400,
  );
}

function consentPage(env: EnvironmentConfig, app: AppRegistration, session: PlatformSession, query: Record<string, string>): string {
  const hidden = Object.entries(query).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  return standalonePage(
    `Authorize ${app.name}`,
    html`<h1>Authorize ${app.name}</h1>
<p>Signed in as <strong>${session.staff.name}</strong> (${session.staff.email}) — environment ${env.name}.</p>
<p><strong>${app.name}</strong> asks to access your tenant's data:</p>
<dl class="scopes"><dt>Customers, identities and events</dt><dd>Read and change</dd><dt>Orders, lists and tags</dt><dd>Read and change</dd><dt>Your profile</dt><dd>Name and email</dd></dl>
<form method="post" action="/oauth2/authorize" class="actions">
  ${hidden}<input type="hidden" name="csrf" value="${session.csrf}">
  <button class="primary" type="submit" name="decision" value="allow">Authorize</button>
  <button class="secondary" type="submit" name="decision" value="deny">Cancel</button>
</form>`,
  );
}

/** Stores a new single-use authorization code bound to environment, tenant, user, client and redirect_uri. */
export function insertAuthorizationCode(
  ctx: SandboxContext,
  grant: { environment: string; tenantId: number; userId: number; clientId: string; redirectUri: string; install: boolean },
): string {
  const code = randomBytes(24).toString("base64url");
  ctx.db
    .prepare(
      `INSERT INTO authorization_codes (code, environment, tenant_id, user_id, client_id, redirect_uri, expires_at, install)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(code, grant.environment, grant.tenantId, grant.userId, grant.clientId, grant.redirectUri,
      ctx.clock.nowSeconds() + AUTHORIZATION_CODE_TTL_SECONDS, grant.install ? 1 : 0);
  return code;
}

function issueCode(ctx: SandboxContext, env: EnvironmentConfig, session: PlatformSession, request: AuthorizeRequest): string {
  const tenantId = session.staff.tenantId;
  return insertAuthorizationCode(ctx, {
    environment: env.name,
    tenantId,
    userId: session.staff.id,
    clientId: request.clientId,
    redirectUri: request.redirectUri,
    install: hasPendingInstall(ctx, { environment: env.name, tenantId, appId: ctx.config.app.appId }),
  });
}

function redirectWithCode(ctx: SandboxContext, env: EnvironmentConfig, session: PlatformSession, request: AuthorizeRequest, c: Context, status: 302 | 303) {
  const code = issueCode(ctx, env, session, request);
  return c.redirect(callbackUrl(ctx.config.app.clientSecret, request.redirectUri, { code, timestamp: callbackTimestamp(), state: request.state }), status);
}

function hasConsent(ctx: SandboxContext, env: EnvironmentConfig, session: PlatformSession, clientId: string): boolean {
  return !!ctx.db
    .prepare("SELECT 1 FROM consents WHERE environment = ? AND staff_id = ? AND client_id = ?")
    .get(env.name, session.staff.id, clientId);
}

/** The staff member's consent to the app, remembered as a platform remembers it (later authorizations skip the page). */
export function recordConsent(ctx: SandboxContext, environment: string, staffId: number, clientId: string): void {
  ctx.db.prepare("INSERT OR IGNORE INTO consents (environment, staff_id, client_id, granted_at) VALUES (?, ?, ?, ?)").run(environment, staffId, clientId, ctx.clock.nowSeconds());
}

function authorizeParams(source: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ["client_id", "redirect_uri", "response_type", "state"]) {
    const value = source[key];
    if (typeof value === "string") out[key] = value;
  }
  return out;
}

/**
 * `GET /oauth2/authorize` (§4.7, §5.2): login when there is no platform session, consent the
 * first time (remembered per user and app), then straight back to the app with a signed code.
 */
export function mountAuthorize(app: Hono, ctx: SandboxContext, env: EnvironmentConfig): void {
  app.get("/oauth2/authorize", (c) => {
    const url = new URL(c.req.url);
    // RFC 6749 §3.1: a parameter sent twice is ambiguous (which redirect_uri was checked?).
    if (["client_id", "redirect_uri", "response_type", "state"].some((k) => url.searchParams.getAll(k).length > 1)) {
      return errorPage(c, "Authorization parameters must not repeat.");
    }
    const params = authorizeParams(Object.fromEntries(url.searchParams));
    const check = checkAuthorizeRequest(ctx.config.app, params);
    if (!check.ok) return errorPage(c, check.message);
    const session = currentSession(ctx, env, c);
    if (!session) return c.redirect(`/login?next=${encodeURIComponent(url.pathname + url.search)}`, 302);
    if (!hasConsent(ctx, env, session, check.request.clientId)) return c.html(consentPage(env, ctx.config.app, session, params));
    return redirectWithCode(ctx, env, session, check.request, c, 302);
  });

  app.post("/oauth2/authorize", async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const params = authorizeParams(form);
    const check = checkAuthorizeRequest(ctx.config.app, params);
    if (!check.ok) return errorPage(c, check.message);
    const session = currentSession(ctx, env, c);
    if (!session) return c.redirect(`/login?next=${encodeURIComponent(`/oauth2/authorize?${new URLSearchParams(params)}`)}`, 303);
    if (!csrfMatches(session, form.csrf)) return errorPage(c, "The consent form expired. Start the authorization again.");
    if (form.decision !== "allow") {
      // RFC 6749 §4.1.2.1: the user declined; the (already checked) redirect_uri learns it.
      const url = new URL(check.request.redirectUri);
      url.searchParams.set("error", "access_denied");
      if (check.request.state !== undefined) url.searchParams.set("state", check.request.state);
      return c.redirect(url.toString(), 303);
    }
    recordConsent(ctx, env.name, session.staff.id, check.request.clientId);
    return redirectWithCode(ctx, env, session, check.request, c, 303);
  });
}
