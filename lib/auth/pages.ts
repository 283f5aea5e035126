import "server-only";

/**
 * The small HTML pages of the authorization flow: errors (always a clear 4xx/502 page, never a
 * stack), and the hand-off pages whose script moves the browser on. Data reaches scripts as JSON in
 * a `<script type="application/json">` element, escaped so it can never close the element.
 */

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

const STYLE =
  "body{font-family:system-ui,sans-serif;margin:0;padding:2rem;color:#0f172a;background:#f8fafc}main{max-width:36rem}h1{font-size:1.25rem}p{line-height:1.5}a{color:#1d4ed8}";

/** The request's CSP nonce (proxy.ts), for the inline scripts of these pages. */
export type PageNonce = string | undefined;

function nonceAttr(nonce: PageNonce): string {
  return nonce && /^[A-Za-z0-9+/=_-]{16,64}$/.test(nonce) ? ` nonce="${nonce}"` : "";
}

function page(title: string, body: string, extraHead = "", referrer: "no-referrer" | "same-origin" = "no-referrer"): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="${referrer}"><title>${escapeHtml(title)}</title><style>${STYLE}</style>${extraHead}</head><body><main>${body}</main></body></html>`;
}

const NO_STORE = { "Cache-Control": "no-store", "Content-Type": "text/html; charset=utf-8" };

export function htmlResponse(html: string, status = 200, headers?: HeadersInit): Response {
  const h = new Headers(headers);
  for (const [k, v] of Object.entries(NO_STORE)) h.set(k, v);
  return new Response(html, { status, headers: h });
}

/** A failure of the flow: what happened and what to do, with a way to start again when there is one. */
export function errorPage(status: number, title: string, detail: string, retryUrl?: string, headers?: HeadersInit): Response {
  const retry = retryUrl ? `<p><a href="${escapeHtml(retryUrl)}">Start again</a></p>` : "";
  const body = `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p>${retry}<p>If this keeps happening, open Engage Console again from your platform's marketplace.</p>`;
  return htmlResponse(page(title, body), status, headers);
}

/**
 * Hand-off page: runs `script`, which reads `data` from the JSON element. Without JavaScript, the
 * link (and the meta refresh when given) still moves on.
 */
export function handoffPage(
  title: string,
  data: unknown,
  script: string,
  fallback: { href: string; label: string; refresh?: boolean },
  headers?: HeadersInit,
  nonce?: PageNonce,
): Response {
  const refresh = fallback.refresh ? `<noscript><meta http-equiv="refresh" content="0;url=${escapeHtml(fallback.href)}"></noscript>` : "";
  const body = `<h1>${escapeHtml(title)}</h1><p><a id="ec-next" href="${escapeHtml(fallback.href)}">${escapeHtml(fallback.label)}</a></p><p id="ec-message" role="status"></p><script type="application/json" id="ec-data">${jsonForScript(data)}</script><script${nonceAttr(nonce)}>${script}</script>`;
  return htmlResponse(page(title, body, refresh), 200, headers);
}

/**
 * A page that posts `fields` to `action` (same origin): its script adds what the tab holds and
 * submits at once; without JavaScript the button does it.
 */
export function postPage(title: string, action: string, fields: Array<[string, string]>, data: unknown, script: string, nonce?: PageNonce): Response {
  const inputs = fields.map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`).join("");
  const body = `<h1>${escapeHtml(title)}</h1><form id="ec-form" method="post" action="${escapeHtml(action)}">${inputs}<button type="submit">Continue</button></form><p id="ec-message" role="status"></p><script type="application/json" id="ec-data">${jsonForScript(data)}</script><script${nonceAttr(nonce)}>${script}</script>`;
  // "same-origin", not "no-referrer": under no-referrer a browser sends `Origin: null` with the post,
  // and the same-origin check refuses it. The URL with the code still goes nowhere else.
  return htmlResponse(page(title, body, "", "same-origin"), 200);
}

const CONFIRM_TEXT = {
  en: {
    title: "Continue as {user} at {tenant}?",
    body: "This sign-in link signs you in to Engage Console as {user} at {tenant}. Continue only if you started this sign-in and this is you.",
    current: "This browser is signed in as {user} at {tenant}. Continuing replaces that sign-in here.",
    yes: "Continue as {user}",
    no: "Cancel",
    declinedTitle: "Nothing was changed",
    declinedBody: "You did not continue, so this browser's sign-in is as it was. You can close this page.",
  },
  "zh-CN": {
    title: "以 {tenant} 的 {user} 身份继续？",
    body: "此登录链接会让你以 {tenant} 的 {user} 身份登录 Engage 控制台。只有当登录是你自己发起、且这是你本人时才继续。",
    current: "此浏览器当前以 {tenant} 的 {user} 身份登录。继续将替换此处的登录。",
    yes: "以 {user} 身份继续",
    no: "取消",
    declinedTitle: "没有任何更改",
    declinedBody: "你没有继续，此浏览器的登录保持不变。可以关闭此页面。",
  },
} as const;

export type ConfirmLocale = keyof typeof CONFIRM_TEXT;

function fill(text: string, values: { user: string; tenant: string }): string {
  return text.replace("{user}", values.user).replace("{tenant}", values.tenant);
}

/**
 * "Continue as <user> at <tenant>?" before a sign-in that no flow cookie vouched for takes effect:
 * two same-origin posts of the one-time id, Continue and Cancel. No script: the user decides.
 */
export function confirmPage(
  locale: ConfirmLocale,
  identity: { userName: string; tenantName: string },
  current: { userName: string; tenantName: string } | undefined,
  confirmId: string,
  headers?: HeadersInit,
): Response {
  const t = CONFIRM_TEXT[locale];
  const who = { user: escapeHtml(identity.userName), tenant: escapeHtml(identity.tenantName) };
  const title = fill(t.title, { user: identity.userName, tenant: identity.tenantName });
  const form = (decision: string, label: string, primary: boolean) =>
    `<form method="post" action="/api/auth/callback" style="display:inline-block;margin-right:1rem"><input type="hidden" name="confirm" value="${escapeHtml(confirmId)}"><input type="hidden" name="decision" value="${decision}"><button type="submit"${primary ? "" : ' data-cancel=""'}>${label}</button></form>`;
  const warning = current ? `<p role="alert" data-testid="current-sign-in"><strong>${fill(t.current, { user: escapeHtml(current.userName), tenant: escapeHtml(current.tenantName) })}</strong></p>` : "";
  const body = `<h1 data-testid="confirm-sign-in">${escapeHtml(title)}</h1><p>${fill(t.body, who)}</p>${warning}<p>${form("continue", fill(t.yes, who), true)}${form("cancel", t.no, false)}</p>`;
  // "same-origin" for the posts' Origin (as postPage).
  const html = page(title, body, "", "same-origin").replace('<html lang="en">', `<html lang="${locale}">`);
  return htmlResponse(html, 200, headers);
}

/** After Cancel at the confirmation: nothing was stored. */
export function declinedPage(locale: ConfirmLocale, headers?: HeadersInit): Response {
  const t = CONFIRM_TEXT[locale];
  const html = page(t.declinedTitle, `<h1>${escapeHtml(t.declinedTitle)}</h1><p>${escapeHtml(t.declinedBody)}</p>`).replace('<html lang="en">', `<html lang="${locale}">`);
  return htmlResponse(html, 200, headers);
}
