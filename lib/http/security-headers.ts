/** The request header through which proxy.ts hands a request's CSP nonce to pages and route handlers. */
export const NONCE_HEADER = "x-nonce";

/**
 * Response headers for every app page. `frame-ancestors` lists the platform origins the app trusts
 * (its own auth origin and the domain allowlist), so the platform's admin can frame the console and
 * nobody else can. No X-Frame-Options: it cannot express an allowlist and DENY would break the
 * embedded console; CSP frame-ancestors supersedes it in every current browser.
 */
export function frameAncestors(platformOrigins: string[]): string {
  const origins = new Set(["'self'"]);
  for (const o of platformOrigins) origins.add(new URL(o.replace("*.", "wildcard.")).origin.replace("wildcard.", "*."));
  return [...origins].join(" ");
}

/**
 * The page policy: scripts only with the request's nonce (Next puts it on its own scripts, the auth
 * pages on theirs) and what those load ('strict-dynamic'); no plugins; no `<base>`. Without a nonce
 * (a caller that has none) scripts are not restricted, as before.
 */
export function contentSecurityPolicy(platformOrigins: string[], nonce?: string): string {
  const directives = [`frame-ancestors ${frameAncestors(platformOrigins)}`, "object-src 'none'", "base-uri 'none'"];
  // The dev server evaluates its modules; a production build never needs eval.
  const evalForDev = process.env.NODE_ENV === "development" ? " 'unsafe-eval'" : "";
  if (nonce) directives.unshift(`script-src 'nonce-${nonce}' 'strict-dynamic'${evalForDev}`);
  return directives.join("; ");
}

export function securityHeaders(platformOrigins: string[], nonce?: string): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(platformOrigins, nonce),
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Content-Type-Options": "nosniff",
  };
}

/**
 * The headers of every JSON answer of the app's API, the request guard's refusals included: data,
 * never a document, so nothing may load or frame it, it names no referrer, and it is never cached.
 */
export const API_SECURITY_HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "referrer-policy": "no-referrer",
} as const;
