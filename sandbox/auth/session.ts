import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { EnvironmentConfig } from "../config";
import type { SandboxContext } from "../context";
import "./schema";

/**
 * The platform login session of the admin shell: an opaque id in a cookie on the environment's
 * origin, `HttpOnly; SameSite=Lax`. Lax is enough inside the app's iframe too: when the frame
 * navigates to `{authDomain}/oauth2/authorize`, the request is same-site with the admin page on
 * top (both 127.0.0.1), so the cookie is sent. Cookies ignore ports, so the name carries the
 * environment (alpha and beta share the host 127.0.0.1).
 */
export function sessionCookieName(env: EnvironmentConfig): string {
  return `cep_session_${env.name}`;
}

export type PlatformSession = {
  id: string;
  csrf: string;
  staff: { id: number; email: string; name: string; tenantId: number };
};

export function currentSession(ctx: SandboxContext, env: EnvironmentConfig, c: Context): PlatformSession | undefined {
  const id = getCookie(c, sessionCookieName(env));
  if (!id) return undefined;
  const row = ctx.db
    .prepare(
      `SELECT s.id, s.csrf, st.id AS staff_id, st.email, st.name, st.tenant_id
       FROM platform_sessions s JOIN staff st ON st.id = s.staff_id JOIN tenants t ON t.id = st.tenant_id
       WHERE s.id = ? AND s.environment = ? AND t.environment = ?`,
    )
    .get(id, env.name, env.name) as
    | { id: string; csrf: string; staff_id: number; email: string; name: string; tenant_id: number }
    | undefined;
  if (!row) return undefined;
  return { id: row.id, csrf: row.csrf, staff: { id: row.staff_id, email: row.email, name: row.name, tenantId: row.tenant_id } };
}

/** Checks a demo login against the staff of this environment's tenants. */
export function findStaffByLogin(ctx: SandboxContext, env: EnvironmentConfig, email: string, password: string): number | undefined {
  const row = ctx.db
    .prepare(
      `SELECT st.id, st.password FROM staff st JOIN tenants t ON t.id = st.tenant_id
       WHERE lower(st.email) = lower(?) AND t.environment = ?`,
    )
    .get(email.trim(), env.name) as { id: number; password: string } | undefined;
  if (!row) return undefined;
  const a = Buffer.from(row.password, "utf8");
  const b = Buffer.from(password, "utf8");
  return a.length === b.length && timingSafeEqual(a, b) ? row.id : undefined;
}

export function startSession(ctx: SandboxContext, env: EnvironmentConfig, c: Context, staffId: number): void {
  const id = randomBytes(24).toString("base64url");
  ctx.db
    .prepare("INSERT INTO platform_sessions (id, environment, staff_id, csrf, created_at) VALUES (?, ?, ?, ?, ?)")
    .run(id, env.name, staffId, randomBytes(18).toString("base64url"), ctx.clock.nowSeconds());
  setCookie(c, sessionCookieName(env), id, { path: "/", httpOnly: true, sameSite: "Lax" });
}

export function endSession(ctx: SandboxContext, env: EnvironmentConfig, c: Context): void {
  const id = getCookie(c, sessionCookieName(env));
  if (id) ctx.db.prepare("DELETE FROM platform_sessions WHERE id = ?").run(id);
  deleteCookie(c, sessionCookieName(env), { path: "/" });
}

/** Constant-time check of the form's anti-CSRF token against the session's. */
export function csrfMatches(session: PlatformSession, presented: unknown): boolean {
  if (typeof presented !== "string") return false;
  const a = Buffer.from(session.csrf);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `next` targets after login: only a path on this origin (no scheme, no `//host`, no backslash or
 * control characters),
 * so the login page cannot be used as an open redirect.
 */
export function safeNextPath(next: string | undefined | null, fallback = "/"): string {
  // Browsers drop tabs and newlines from URLs, so "/\t/evil.example" would become "//evil.example".
  if (!next || !next.startsWith("/") || next.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(next)) return fallback;
  return next;
}

/**
 * Login CSRF guard: a browser's form post carries `Origin`; it must be this environment's origin
 * (a missing header, as from scripts and tests, is accepted).
 */
export function sameOriginPost(env: EnvironmentConfig, c: Context): boolean {
  const origin = c.req.header("origin");
  return origin === undefined || origin === env.origin;
}
