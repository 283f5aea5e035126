/**
 * PLATFORM_DOMAIN_ALLOWLIST: the origins the app trusts as platform environments. A domain that
 * cloudinfo returns outside the list is refused before anything is sent to it (ARCHITECTURE.md §4).
 */

/** `https://host[:port]` of a domain as cloudinfo may return it (a bare host means https), or undefined. */
export function normalizeOrigin(domain: string): string | undefined {
  const text = domain.trim();
  if (!text || text.length > 512) return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== "/" && url.pathname !== "")) return undefined;
  return url.origin;
}

/** Whether `origin` matches one pattern: same scheme and port; `*.` matches one or more subdomain labels, never the apex. */
export function originMatches(origin: string, pattern: string): boolean {
  const wildcard = /^(https?:\/\/)\*\./i.exec(pattern);
  if (!wildcard) return normalizeOrigin(pattern) === origin;
  const base = normalizeOrigin(pattern.replace("*.", ""));
  if (!base) return false;
  const target = new URL(origin);
  const allowed = new URL(base);
  return (
    target.protocol === allowed.protocol &&
    target.port === allowed.port &&
    target.hostname.endsWith(`.${allowed.hostname}`) &&
    target.hostname.length > allowed.hostname.length + 1
  );
}

export function isAllowedOrigin(origin: string, allowlist: string[]): boolean {
  return allowlist.some((pattern) => originMatches(origin, pattern));
}
