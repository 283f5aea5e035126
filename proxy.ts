import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { validLang } from "@/lib/http/request-guard";
import { NONCE_HEADER, securityHeaders } from "@/lib/http/security-headers";
import { PLATFORM_LANG_HEADER } from "@/lib/i18n/locales";

/**
 * Runs before every page and app route but the platform API proxy (see `config`):
 * - the security headers at request time (so they follow the runtime configuration, not the
 *   build's), with a fresh CSP nonce per request: Next reads it from the request's CSP header and
 *   puts it on its scripts; the auth pages read it from `x-nonce`;
 * - the platform's `?lang=` handed to layouts (which do not see search params) as a request header,
 *   only when it is a language tag.
 * Not a security boundary (CVE-2025-29927): handlers check the session themselves.
 */
export function proxy(request: NextRequest) {
  const { platform } = env();
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(18))));
  const security = securityHeaders([platform.authUrl, ...platform.domainAllowlist], nonce);
  const headers = new Headers(request.headers);
  headers.delete(PLATFORM_LANG_HEADER);
  const lang = validLang(request.nextUrl.searchParams.get("lang"));
  if (lang) headers.set(PLATFORM_LANG_HEADER, lang);
  headers.set(NONCE_HEADER, nonce);
  headers.set("Content-Security-Policy", security["Content-Security-Policy"]!);
  const response = NextResponse.next({ request: { headers } });
  for (const [name, value] of Object.entries(security)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Not the platform API proxy: its answers are JSON, which no header here concerns (it sets nosniff
  // itself; the request guard runs before Next, from instrumentation.ts), and running a proxy costs every call a request and
  // response of its own. Nor the event import's upload: Next hands a proxied route only the first
  // 10 MB of a body (`proxyClientMaxBodySize`), and the file may be 50 MB (lib/events/import-api.ts).
  matcher: ["/((?!_next/static|_next/image|favicon.ico|api/platform/|api/events/import$).*)"],
};
