import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { securityHeaders } from "@/lib/http/security-headers";
import { PLATFORM_LANG_HEADER } from "@/lib/i18n/locales";

/**
 * Adds the baseline security headers at request time (so they follow the runtime configuration,
 * not the build's). Not a security boundary (CVE-2025-29927): handlers check the session themselves.
 * Also hands the platform's `?lang=` to layouts (which do not see search params) as a request header.
 */
export function proxy(request: NextRequest) {
  const { platform } = env();
  const lang = request.nextUrl.searchParams.get("lang");
  const headers = new Headers(request.headers);
  headers.delete(PLATFORM_LANG_HEADER);
  if (lang && lang.length <= 35) headers.set(PLATFORM_LANG_HEADER, lang);
  const response = NextResponse.next({ request: { headers } });
  for (const [name, value] of Object.entries(securityHeaders([platform.authUrl, ...platform.domainAllowlist]))) {
    response.headers.set(name, value);
  }
  return response;
}

export const config = {
  // Not the platform API proxy: its answers are JSON, which no header here concerns (it sets nosniff
  // itself), and running a proxy costs every call a request and response of its own.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|api/platform/).*)"],
};
