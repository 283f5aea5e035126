import "server-only";
import { env } from "@/lib/env";
import { logger } from "@/lib/log";
import { getAccessToken, ReauthRequiredError, requireApiSession, startUrl } from "./installation-auth";
import { handleProxyRequest, type ProxyDeps } from "./proxy";
import { withLookupCache } from "./proxy-cache";

/**
 * The proxy wired to the app: sessions and installation tokens from app-auth (through
 * `installation-auth.ts`), the app's public origin for CSRF checks, and the app's redacting logger.
 */

let deps: ProxyDeps | undefined;

/** The proxy's deps, also used by other routes that call the platform for the browser (the CSV export). */
export function proxyDeps(): ProxyDeps {
  deps ??= withLookupCache({
    requireSession: requireApiSession,
    getAccessToken,
    isReauthRequired: (error) => error instanceof ReauthRequiredError,
    reauthRedirect: (openAppId) => startUrl(openAppId),
    log: logger().child({ scope: "platform-proxy" }),
    appOrigins: [new URL(env().appUrl).origin],
  });
  return deps;
}

export function platformProxy(request: Request): Promise<Response> {
  return handleProxyRequest(request, proxyDeps());
}
