import "server-only";
import { env } from "@/lib/env";
import { withDeps } from "@/lib/http/route";
import { logger } from "@/lib/log";
import { getAccessToken, ReauthRequiredError, requireApiSession, startUrl } from "./installation-auth";
import { handleProxyRequest, type ProxyDeps } from "./proxy";
import { withLookupCache } from "./proxy-cache";

/**
 * The proxy wired to the app: sessions and installation tokens from app-auth (through
 * `installation-auth.ts`), the app's public origin for CSRF checks, and the app's redacting logger.
 */

let deps: ProxyDeps | undefined;

/** The deps of every route that calls the platform for the browser (the proxy, the CSV export, the event import). */
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

export const platformProxy = withDeps(handleProxyRequest, proxyDeps);
