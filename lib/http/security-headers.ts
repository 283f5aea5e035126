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

export function securityHeaders(platformOrigins: string[]): Record<string, string> {
  return {
    "Content-Security-Policy": `frame-ancestors ${frameAncestors(platformOrigins)}`,
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Content-Type-Options": "nosniff",
  };
}
