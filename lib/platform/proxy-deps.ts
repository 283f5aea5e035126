import "server-only";
import pino from "pino";
import { env } from "@/lib/env";
import { getAccessToken, ReauthRequiredError, requireApiSession } from "./installation-auth";
import { handleProxyRequest, type ProxyDeps } from "./proxy";

/**
 * The proxy wired to the app: sessions and installation tokens from app-auth (through
 * `installation-auth.ts`), the app's public origin for CSRF checks, and a logger that censors tokens.
 */

const log = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "warn" : "info"),
  base: { service: "engage-console", scope: "platform-proxy" },
  redact: { paths: ["access_token", "accessToken", "refresh_token", "refreshToken", "*.access_token", "*.accessToken", "authorization", "cookie"], censor: "[redacted]" },
});

let deps: ProxyDeps | undefined;

function proxyDeps(): ProxyDeps {
  deps ??= {
    requireSession: requireApiSession,
    getAccessToken,
    isReauthRequired: (error) => error instanceof ReauthRequiredError,
    log,
    appOrigins: [new URL(env().appUrl).origin],
  };
  return deps;
}

export function platformProxy(request: Request): Promise<Response> {
  return handleProxyRequest(request, proxyDeps());
}
