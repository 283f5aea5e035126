import { NextResponse } from "next/server";
import { env } from "@/lib/env";
import { securityHeaders } from "@/lib/http/security-headers";

/**
 * Adds the baseline security headers at request time (so they follow the runtime configuration,
 * not the build's). Not a security boundary (CVE-2025-29927): handlers check the session themselves.
 */
export function proxy() {
  const { platform } = env();
  const response = NextResponse.next();
  for (const [name, value] of Object.entries(securityHeaders([platform.authUrl, ...platform.domainAllowlist]))) {
    response.headers.set(name, value);
  }
  return response;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
