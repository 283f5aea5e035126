import type { Hono } from "hono";
import type { EnvironmentConfig } from "../config";
import type { SandboxContext } from "../context";
import { html, standalonePage } from "../admin/html";
import { csrfMatches, currentSession, endSession, findStaffByLogin, safeNextPath, sameOriginPost, startSession } from "./session";

function loginPage(env: EnvironmentConfig, next: string, error?: string): string {
  return standalonePage(
    `Sign in · Platform Sandbox (${env.name})`,
    html`<h1>Sign in to ${env.name}</h1>
<p class="hint">Customer Engagement Platform — sandbox environment <strong>${env.name}</strong>. Demo login: <code>${env.staff.email}</code> / <code>${env.staff.password}</code>.</p>
${error ? html`<p class="error" role="alert">${error}</p>` : ""}
<form method="post" action="/login">
  <input type="hidden" name="next" value="${next}">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <p><button class="primary" type="submit">Sign in</button></p>
</form>`,
  );
}

/**
 * Staff login of the environment (the demo logins of sandbox/config.ts). `next` brings the user
 * back to the marketplace or to the authorize request that asked for the login.
 */
export function mountLogin(app: Hono, ctx: SandboxContext, env: EnvironmentConfig): void {
  app.get("/login", (c) => {
    const next = safeNextPath(c.req.query("next"));
    if (currentSession(ctx, env, c)) return c.redirect(next, 302);
    return c.html(loginPage(env, next));
  });

  app.post("/login", async (c) => {
    if (!sameOriginPost(env, c)) return c.html(loginPage(env, "/", "Sign in from this environment's own login page."), 403);
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const next = safeNextPath(typeof form.next === "string" ? form.next : undefined);
    const email = typeof form.email === "string" ? form.email : "";
    const password = typeof form.password === "string" ? form.password : "";
    const staffId = email && password ? findStaffByLogin(ctx, env, email, password) : undefined;
    if (staffId === undefined) return c.html(loginPage(env, next, "Email or password is not correct for this environment."), 401);
    startSession(ctx, env, c, staffId);
    return c.redirect(next, 303);
  });

  app.post("/logout", async (c) => {
    const session = currentSession(ctx, env, c);
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    if (session && csrfMatches(session, form.csrf)) endSession(ctx, env, c);
    return c.redirect("/login", 303);
  });
}
