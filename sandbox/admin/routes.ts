import type { Context } from "hono";
import type { RouteArea } from "../app";
import type { EnvironmentConfig } from "../config";
import type { SandboxContext } from "../context";
import { isInstalled, startPendingInstall, uninstall } from "../auth/installations";
import { csrfMatches, currentSession, type PlatformSession } from "../auth/session";
import { issueCloudToken } from "../extension/cloud-tokens";
import { adminShell, html, type NavItem } from "./html";

/** §5.2.8: the marketplace page of an app. */
export function marketplacePath(appId: string): string {
  return `/application/mktapp/index.html?install=${encodeURIComponent(appId)}#/market`;
}
const OPEN_PATH = "/application/mktapp/open";

function loginRedirect(c: Context) {
  const url = new URL(c.req.url);
  return c.redirect(`/login?next=${encodeURIComponent(url.pathname + url.search)}`, 302);
}

function shell(ctx: SandboxContext, env: EnvironmentConfig, session: PlatformSession, current: "home" | "market" | "app", title: string, content: ReturnType<typeof html>) {
  const appId = ctx.config.app.appId;
  const installed = isInstalled(ctx, { environment: env.name, tenantId: session.staff.tenantId, appId });
  const main: NavItem[] = [
    { href: "/", label: "Overview", current: current === "home" },
    { href: marketplacePath(appId).replace("#/market", ""), label: "Marketplace", current: current === "market" },
  ];
  const apps: NavItem[] = installed ? [{ href: `${OPEN_PATH}?app=${encodeURIComponent(appId)}`, label: ctx.config.app.name, current: current === "app" }] : [];
  return adminShell(env, { name: session.staff.name, email: session.staff.email, csrf: session.csrf }, { main, apps }, title, content);
}

/**
 * The admin shell of an environment (login in sandbox/auth/login.ts): overview, the marketplace
 * with the app card (Install / Open), and the installed app in an iframe (§5.2.1, §5.4.4).
 */
export const adminRoutes: RouteArea = (app, ctx, env) => {
  const registration = ctx.config.app;
  const tenantName = (tenantId: number) =>
    (ctx.db.prepare("SELECT name FROM tenants WHERE id = ?").get(tenantId) as { name: string } | undefined)?.name ?? String(tenantId);

  app.get("/", (c) => {
    const session = currentSession(ctx, env, c);
    if (!session) return loginRedirect(c);
    return c.html(
      shell(ctx, env, session, "home", "Overview", html`<h1>Overview</h1>
<p>Tenant <strong>${tenantName(session.staff.tenantId)}</strong> · environment <code>${env.name}</code> · openAppId <code>${env.openAppId}</code></p>
<p><a href="${marketplacePath(registration.appId)}">Browse the marketplace</a></p>`),
    );
  });

  app.get("/application/mktapp/index.html", (c) => {
    const session = currentSession(ctx, env, c);
    if (!session) return loginRedirect(c);
    const installed = isInstalled(ctx, { environment: env.name, tenantId: session.staff.tenantId, appId: registration.appId });
    const action = installed
      ? html`<a class="button" href="${OPEN_PATH}?app=${registration.appId}">Open</a>
  <form method="post" action="/application/mktapp/uninstall"><input type="hidden" name="csrf" value="${session.csrf}"><input type="hidden" name="app" value="${registration.appId}"><button class="secondary" type="submit">Uninstall</button></form>`
      : html`<form method="post" action="/application/mktapp/install"><input type="hidden" name="csrf" value="${session.csrf}"><input type="hidden" name="app" value="${registration.appId}"><button class="primary" type="submit">Install</button></form>`;
    return c.html(
      shell(ctx, env, session, "market", "Marketplace", html`<h1>Marketplace</h1>
<section class="card" aria-labelledby="app-${registration.appId}">
  <h2 id="app-${registration.appId}">${registration.name}</h2>
  ${installed ? html`<span class="badge">Installed</span>` : ""}
  <p>Browse and edit customers, lists, tags and orders of your tenant.</p>
  <div class="actions">${action}</div>
</section>`),
    );
  });

  app.post("/application/mktapp/install", async (c) => {
    const session = currentSession(ctx, env, c);
    if (!session) return c.redirect(marketplacePath(registration.appId), 303);
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    if (!csrfMatches(session, form.csrf) || form.app !== registration.appId) return c.redirect(marketplacePath(registration.appId), 303);
    startPendingInstall(ctx, { environment: env.name, tenantId: session.staff.tenantId, appId: registration.appId });
    // §5.2.1: the registered callback with the marketplace link and, in the multi-environment
    // public cloud, the one-time getOpenAppIdToken (§5.4.1).
    const callback = new URL(registration.callbackUrl);
    callback.searchParams.set("redirectUrl", `${env.origin}${marketplacePath(registration.appId)}`);
    callback.searchParams.set("getOpenAppIdToken", issueCloudToken(ctx, env.name, session.staff.tenantId));
    return c.redirect(callback.toString(), 303);
  });

  app.post("/application/mktapp/uninstall", async (c) => {
    const session = currentSession(ctx, env, c);
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    if (session && csrfMatches(session, form.csrf) && form.app === registration.appId) {
      uninstall(ctx, { environment: env.name, tenantId: session.staff.tenantId, appId: registration.appId });
    }
    return c.redirect(marketplacePath(registration.appId), 303);
  });

  app.get(OPEN_PATH, (c) => {
    const session = currentSession(ctx, env, c);
    if (!session) return loginRedirect(c);
    if (c.req.query("app") !== registration.appId || !isInstalled(ctx, { environment: env.name, tenantId: session.staff.tenantId, appId: registration.appId })) {
      return c.redirect(marketplacePath(registration.appId), 302);
    }
    // §5.4.4: an installed app opened from the marketplace gets `openAppId` in its URL.
    const appUrl = new URL("/", registration.callbackUrl);
    appUrl.searchParams.set("openAppId", env.openAppId);
    return c.html(
      shell(ctx, env, session, "app", registration.name, html`<h1 class="visually-hidden">${registration.name}</h1>
<iframe class="app-frame" title="${registration.name}" src="${appUrl.toString()}"></iframe>`),
    );
  });
};
