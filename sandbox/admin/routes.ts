import type { Context } from "hono";
import type { RouteArea } from "../app";
import type { EnvironmentConfig } from "../config";
import type { SandboxContext } from "../context";
import { isInstalled, startPendingInstall, uninstall } from "../auth/installations";
import { csrfMatches, currentSession, type PlatformSession } from "../auth/session";
import { extensionUrl } from "../config";
import { issueCloudToken } from "../extension/cloud-tokens";
import { webhookSender } from "../webhooks/sender";
import { adminShell, html, type Html, type NavItem } from "./html";

/** §5.2.8: the marketplace page of an app. */
export function marketplacePath(appId: string): string {
  return `/application/mktapp/index.html?install=${encodeURIComponent(appId)}#/market`;
}
const OPEN_PATH = "/application/mktapp/open";

function loginRedirect(c: Context) {
  const url = new URL(c.req.url);
  return c.redirect(`/login?next=${encodeURIComponent(url.pathname + url.search)}`, 302);
}

const WEBHOOKS_PATH = "/developer/webhooks";

function shell(ctx: SandboxContext, env: EnvironmentConfig, session: PlatformSession, current: "home" | "market" | "webhooks" | "app", title: string, content: Html) {
  const appId = ctx.config.app.appId;
  const installed = isInstalled(ctx, { environment: env.name, tenantId: session.staff.tenantId, appId });
  const main: NavItem[] = [
    { href: "/", label: "Overview", current: current === "home" },
    { href: marketplacePath(appId).replace("#/market", ""), label: "Marketplace", current: current === "market" },
    { href: WEBHOOKS_PATH, label: "Webhook deliveries", current: current === "webhooks" },
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
    // What a vendor needs to point an app at this environment (never the client secret).
    return c.html(
      shell(ctx, env, session, "home", "Overview", html`<h1>Overview</h1>
<p>Signed in to tenant <strong>${tenantName(session.staff.tenantId)}</strong> (id ${session.staff.tenantId}).
<a href="${marketplacePath(registration.appId)}">Browse the marketplace</a>.</p>
<section class="card wide" aria-labelledby="env-heading">
  <h2 id="env-heading">This environment</h2>
  <dl class="facts">
    <dt>Environment</dt><dd><code>${env.name}</code> · ${env.productType} ${env.productVersion}</dd>
    <dt>openAppId</dt><dd><code>${env.openAppId}</code></dd>
    <dt>authDomain / apiDomain</dt><dd><code>${env.origin}</code></dd>
    <dt>Extension service</dt><dd><code>${extensionUrl(ctx.config)}</code></dd>
    <dt>Registered app</dt><dd><code>${registration.clientId}</code>, callback <code>${registration.callbackUrl}</code></dd>
  </dl>
</section>`),
    );
  });

  app.get(WEBHOOKS_PATH, (c) => {
    const session = currentSession(ctx, env, c);
    if (!session) return loginRedirect(c);
    const sender = webhookSender(ctx);
    const mine = sender.deliveries
      .filter((d) => d.environment === env.name && d.tenantId === session.staff.tenantId)
      .slice(-50)
      .reverse();
    const rows = mine.map((d) => {
      const last = d.attempts.at(-1);
      const outcome = last ? (last.httpStatus !== undefined ? `HTTP ${last.httpStatus}` : (last.error ?? "")) : "";
      return html`<tr><td><code>${d.id}</code></td><td>${d.event}</td><td>${d.payload.resourceId}</td><td>${d.status}</td><td>${d.attempts.length}</td><td>${outcome}</td><td>${d.createdAt.replace("T", " ").replace(/\.\d+Z$/, "Z")}</td></tr>`;
    });
    return c.html(
      shell(ctx, env, session, "webhooks", "Webhook deliveries", html`<h1>Webhook deliveries</h1>
<p>Messages to <code>${sender.config.url}</code> (authentication: <strong>${sender.config.mode}</strong>${sender.config.enabled ? "" : ", sending is turned off"}). Only tenants that installed the app receive them.</p>
${mine.length === 0
  ? html`<p class="hint">No deliveries yet for this tenant.</p>`
  : html`<table class="grid"><caption class="visually-hidden">Newest deliveries first</caption>
<thead><tr><th scope="col">Delivery</th><th scope="col">Event</th><th scope="col">Resource</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col">Created (UTC)</th></tr></thead>
<tbody>${rows}</tbody></table>`}`),
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
    const appUrl = appPageUrl(registration.callbackUrl, c.req.query("path"));
    appUrl.searchParams.set("openAppId", env.openAppId);
    return c.html(
      shell(ctx, env, session, "app", registration.name, html`<h1 class="visually-hidden">${registration.name}</h1>
<iframe class="app-frame" title="${registration.name}" src="${appUrl.toString()}"></iframe>`),
    );
  });
};

/**
 * The app page the admin's iframe opens: `/`, or `?path=` (a sandbox deep link, e.g.
 * `/customers?lang=zh-CN`, for benchmarks and tests; the spec names no such parameter). Only a
 * path on the app's own origin is taken; anything else opens `/`.
 */
export function appPageUrl(callbackUrl: string, path: string | undefined): URL {
  const home = new URL("/", callbackUrl);
  if (!path || !path.startsWith("/") || path.startsWith("//") || path.includes("\\")) return home;
  try {
    const url = new URL(path, home);
    return url.origin === home.origin ? url : home;
  } catch {
    return home;
  }
}
