import type { EnvironmentConfig } from "../config";

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A tagged template whose interpolations are escaped unless they are `raw(...)` HTML. */
export type Html = { readonly html: string };
export function raw(html: string): Html {
  return { html };
}
export function html(strings: TemplateStringsArray, ...values: Array<string | number | Html | Html[] | undefined | null | false>): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    if (Array.isArray(value)) out += value.map((v) => v.html).join("");
    else if (value && typeof value === "object") out += value.html;
    else if (value !== undefined && value !== null && value !== false) out += escapeHtml(String(value));
    out += strings[i + 1]!;
  });
  return { html: out };
}

const STYLES = `
:root { color-scheme: light; --brand: #1f5fbf; --brand-dark: #174a96; --bg: #f3f5f8; --line: #dde2ea; --text: #1d2533; --muted: #5b6678; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", "PingFang SC", "Microsoft YaHei", sans-serif; color: var(--text); background: var(--bg); }
a { color: var(--brand); }
.topbar { display: flex; align-items: center; justify-content: space-between; height: 52px; padding: 0 20px; background: #14213d; color: #fff; }
.topbar .brand { font-weight: 600; font-size: 16px; color: #fff; text-decoration: none; }
.topbar .env { margin-left: 12px; padding: 2px 8px; border-radius: 10px; background: #2d3f66; font-size: 12px; }
.topbar form { display: inline; margin: 0 0 0 12px; }
.topbar button { background: transparent; border: 1px solid #51617f; color: #fff; border-radius: 4px; padding: 4px 10px; cursor: pointer; }
.layout { display: flex; min-height: calc(100vh - 52px); }
.sidenav { width: 208px; flex: none; background: #fff; border-right: 1px solid var(--line); padding: 12px 0; }
.sidenav h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 16px 20px 4px; }
.sidenav ul { list-style: none; margin: 0; padding: 0; }
.sidenav a { display: block; padding: 8px 20px; color: var(--text); text-decoration: none; }
.sidenav a:hover, .sidenav a:focus-visible { background: #eef3fb; }
.sidenav a[aria-current="page"] { background: #e4edfb; color: var(--brand-dark); font-weight: 600; border-left: 3px solid var(--brand); padding-left: 17px; }
.content { flex: 1; padding: 24px; min-width: 0; }
.content h1 { margin: 0 0 16px; font-size: 20px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 20px; max-width: 420px; }
.card h2 { margin: 0 0 4px; font-size: 17px; }
.card p { color: var(--muted); margin: 4px 0 16px; }
.badge { display: inline-block; font-size: 12px; padding: 1px 8px; border-radius: 10px; background: #e7f6ec; color: #17673a; }
.button, button.primary { display: inline-block; background: var(--brand); color: #fff; border: 0; border-radius: 4px; padding: 8px 18px; font: inherit; cursor: pointer; text-decoration: none; }
.button:hover, button.primary:hover { background: var(--brand-dark); }
button.secondary { background: #fff; color: var(--text); border: 1px solid var(--line); border-radius: 4px; padding: 8px 14px; font: inherit; cursor: pointer; }
.actions { display: flex; gap: 8px; align-items: center; }
.actions form { margin: 0; }
.app-frame { display: block; width: 1024px; max-width: 100%; height: calc(100vh - 140px); min-height: 560px; border: 1px solid var(--line); background: #fff; }
.center { display: flex; justify-content: center; padding: 48px 16px; }
.panel { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 28px; width: 100%; max-width: 420px; }
.panel h1 { font-size: 20px; margin: 0 0 16px; }
label { display: block; font-weight: 600; margin: 12px 0 4px; }
input[type=email], input[type=password], input[type=text] { width: 100%; padding: 8px 10px; border: 1px solid #aab3c2; border-radius: 4px; font: inherit; }
.error { color: #a12020; background: #fdeeee; border: 1px solid #f3c4c4; padding: 8px 12px; border-radius: 4px; }
.hint { color: var(--muted); font-size: 13px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.card.wide { max-width: 760px; margin-top: 16px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 6px 16px; margin: 12px 0 0; }
dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
table.grid { border-collapse: collapse; background: #fff; border: 1px solid var(--line); width: 100%; max-width: 1024px; }
table.grid th, table.grid td { text-align: left; padding: 8px 10px; border-bottom: 1px solid var(--line); font-size: 13px; }
table.grid th { background: #f7f9fc; }
dl.scopes dt { font-weight: 600; } dl.scopes dd { margin: 0 0 8px; color: var(--muted); }
`;

/** A complete page: `<html lang>`, title, the sandbox stylesheet and the body. */
export function document(title: string, body: Html, lang = "en"): string {
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLES}</style></head>
<body>${body.html}</body></html>`;
}

export type ShellUser = { name: string; email: string; csrf: string };
export type NavItem = { href: string; label: string; current?: boolean };

/** The admin shell: top bar (environment, user, sign out), left navigation, main content. */
export function adminShell(env: EnvironmentConfig, user: ShellUser, nav: { main: NavItem[]; apps: NavItem[] }, title: string, content: Html): string {
  const link = (item: NavItem) =>
    html`<li><a href="${item.href}"${item.current ? raw(' aria-current="page"') : ""}>${item.label}</a></li>`;
  return document(
    `${title} · Platform Sandbox (${env.name})`,
    html`<header class="topbar">
  <div><a class="brand" href="/">Customer Engagement Platform</a><span class="env">Sandbox · ${env.name}</span></div>
  <div><span>${user.name}</span>
    <form method="post" action="/logout"><input type="hidden" name="csrf" value="${user.csrf}"><button type="submit">Sign out</button></form></div>
</header>
<div class="layout">
  <nav class="sidenav" aria-label="Main">
    <ul>${nav.main.map(link)}</ul>
    ${nav.apps.length ? html`<h2 id="apps-heading">Installed apps</h2><ul aria-labelledby="apps-heading">${nav.apps.map(link)}</ul>` : ""}
  </nav>
  <main class="content" id="main">${content}</main>
</div>`,
  );
}

/** A standalone page (login, consent, errors) without the admin navigation. */
export function standalonePage(title: string, content: Html): string {
  return document(title, html`<main class="center"><div class="panel">${content}</div></main>`);
}
